import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { AlertTriangle, Home, LayoutDashboard, MapPin } from 'lucide-react';
import { AVAILABILITY_MESSAGES, type AvailabilityState } from '@domain/availability';
import { ButtonLink, Card, ErrorState, LoadingState } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { sellerPaths } from '@/lib/seller-keys';
import { usePageTitle } from '@/lib/use-page-title';
import { availabilityKeys, getAvailabilityByLink, getOwnAvailability } from './api';
import { AvailabilityEditor } from './AvailabilityEditor';

/** Answers that mean "this link does not open anything for you" (unknown, expired, not yours, not a seller). */
const isInvalidLink = (err: unknown) => isApiError(err, 404) || isApiError(err, 400) || isApiError(err, 403);

/**
 * The seller enters the days and times the property can be visited (spec 001), for as long as
 * the option runs:
 * - /availability/:token, the e-mail's link (guard RequireTokenSession: a session, else
 *   /seller-register?token=): its first arrival only; the page then goes on by property id,
 *   so a link replaced by a newer mail or expired never locks the owner out;
 * - /seller-availability/:propertyId (sellers), from the dashboard.
 */
export default function AvailabilityPage() {
  usePageTitle('Le tue disponibilità');
  const { token, propertyId = '' } = useParams();
  return <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">{token ? <ByLink token={token} /> : <ByProperty propertyId={propertyId} />}</div>;
}

function ByLink({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: availabilityKeys.byLink(token),
    queryFn: ({ signal }) => getAvailabilityByLink(token, signal),
    retry: (count, err) => !isInvalidLink(err) && count < 2,
  });
  const state = query.data;
  useEffect(() => {
    if (!state) return;
    queryClient.setQueryData(availabilityKeys.byProperty(state.propertyId), state);
    void navigate(sellerPaths.availability(state.propertyId), { replace: true });
  }, [state, navigate, queryClient]);

  if (isInvalidLink(query.error)) return <InvalidLink />;
  if (query.isError) return <ErrorState title={AVAILABILITY_MESSAGES.loadFailed} error={query.error} onRetry={() => void query.refetch()} testId="availability-error" />;
  return <LoadingState label="Caricamento delle disponibilità..." />;
}

function ByProperty({ propertyId }: { propertyId: string }) {
  const query = useQuery({
    queryKey: availabilityKeys.byProperty(propertyId),
    queryFn: ({ signal }) => getOwnAvailability(propertyId, signal),
    retry: (count, err) => !isApiError(err, 404) && !isApiError(err, 409) && !isApiError(err, 400) && !isApiError(err, 403) && count < 2,
  });
  if (query.isPending) return <LoadingState label="Caricamento delle disponibilità..." />;
  if (isApiError(query.error, 404) || isApiError(query.error, 400) || isApiError(query.error, 403))
    return <Unavailable title={AVAILABILITY_MESSAGES.propertyNotFound} description="Questo immobile non è tra le tue richieste." testId="availability-not-found" />;
  if (isApiError(query.error, 409)) return <Unavailable title="Disponibilità non richieste" description={errorMessage(query.error)} testId="availability-closed" />;
  if (query.isError) return <ErrorState title={AVAILABILITY_MESSAGES.loadFailed} error={query.error} onRetry={() => void query.refetch()} testId="availability-error" />;
  return <Editor state={query.data} />;
}

function Editor({ state }: { state: AvailabilityState }) {
  const { property } = state;
  return (
    <>
      <header className="mb-6">
        <h1 className="text-2xl font-bold sm:text-3xl">Le tue disponibilità</h1>
        <p className="mt-2 flex items-start gap-2 text-slate-700" data-testid="availability-address">
          <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            {property.address}
            {property.city ? `, ${property.city}` : ''}
          </span>
        </p>
        <p className="mt-2 max-w-3xl text-slate-700">
          Scegli nel calendario i giorni in cui l&apos;immobile può essere visitato e indica gli orari. Ti chiediamo almeno{' '}
          <strong>{state.minMonthlySlots} slot al mese</strong>.
        </p>
      </header>
      <AvailabilityEditor state={state} />
    </>
  );
}

function InvalidLink() {
  return (
    <Card className="mx-auto max-w-md p-6 text-center" data-testid="availability-invalid">
      <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <h1 className="mt-3 text-xl font-bold text-brand-navy">{AVAILABILITY_MESSAGES.invalidLinkTitle}</h1>
      <p className="mt-2 text-slate-700">{AVAILABILITY_MESSAGES.invalidLink}</p>
      <p className="mt-2 text-slate-700">Se l&apos;immobile è tuo, trovi le disponibilità anche nelle tue richieste.</p>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        <ButtonLink to="/">
          <Home aria-hidden="true" className="size-4" />
          Home
        </ButtonLink>
        <ButtonLink to="/seller-dashboard" variant="outline">
          <LayoutDashboard aria-hidden="true" className="size-4" />
          Le mie richieste
        </ButtonLink>
      </div>
    </Card>
  );
}

function Unavailable({ title, description, testId }: { title: string; description: string; testId: string }) {
  return (
    <Card className="mx-auto max-w-md p-6 text-center" data-testid={testId}>
      <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <h1 className="mt-3 text-xl font-bold text-brand-navy">{title}</h1>
      <p className="mt-2 text-slate-700">{description}</p>
      <ButtonLink to="/seller-dashboard" className="mt-4">
        <LayoutDashboard aria-hidden="true" className="size-4" />
        Le mie richieste
      </ButtonLink>
    </Card>
  );
}
