import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { AlertTriangle, Home, MapPin } from 'lucide-react';
import { AVAILABILITY_MESSAGES } from '@domain/availability';
import { ButtonLink, Card, ErrorState, LoadingState } from '@/components/ui';
import { isApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { availabilityKeys, getAvailability } from './api';
import { AvailabilityEditor } from './AvailabilityEditor';

/** Answers that mean "this link does not open anything for you" (unknown, expired, not yours, not a seller). */
const isInvalidLink = (err: unknown) => isApiError(err, 404) || isApiError(err, 400) || isApiError(err, 403);

/**
 * /availability/{token} (guard RequireTokenSession: a session, else /seller-register?token=):
 * the seller enters the days and times the property can be visited (spec 001).
 */
export default function AvailabilityPage() {
  usePageTitle('Le tue disponibilità');
  const { token = '' } = useParams();
  const query = useQuery({
    queryKey: availabilityKeys.byToken(token),
    queryFn: ({ signal }) => getAvailability(token, signal),
    retry: (count, err) => !isInvalidLink(err) && count < 2,
  });

  let content;
  if (query.isPending) content = <LoadingState label="Caricamento delle disponibilità..." />;
  else if (isInvalidLink(query.error)) content = <InvalidLink />;
  else if (query.isError)
    content = <ErrorState title={AVAILABILITY_MESSAGES.loadFailed} error={query.error} onRetry={() => void query.refetch()} testId="availability-error" />;
  else {
    const { property } = query.data;
    content = (
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
            <strong>{query.data.minMonthlySlots} slot al mese</strong>.
          </p>
        </header>
        <AvailabilityEditor token={token} state={query.data} />
      </>
    );
  }

  return <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-10">{content}</div>;
}

function InvalidLink() {
  return (
    <Card className="mx-auto max-w-md p-6 text-center" data-testid="availability-invalid">
      <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <h1 className="mt-3 text-xl font-bold text-brand-navy">{AVAILABILITY_MESSAGES.invalidLinkTitle}</h1>
      <p className="mt-2 text-slate-700">{AVAILABILITY_MESSAGES.invalidLink}</p>
      <ButtonLink to="/" className="mt-4">
        <Home aria-hidden="true" className="size-4" />
        Home
      </ButtonLink>
    </Card>
  );
}
