import { lazy, Suspense, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { CalendarCheck, CalendarDays, ChevronRight, Home, MapPin, Plus, Ruler } from 'lucide-react';
import { formatDate, formatEuro, formatNumber } from '@domain/format';
import { PROPERTY_TYPE_LABELS } from '@domain/property/enums';
import { optionExpiryLabel } from '@domain/review/rules';
import { isRunningOption, optionStateOf, SELLER_OPTION_LABELS } from '@domain/option-lifecycle';
import { PropertyVisits } from './PropertyVisits';
import { IDENTITY_BADGES } from '@domain/seller';
import { Badge, Button, ButtonLink, Card, Dialog, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { sellerPaths } from '@/lib/seller-keys';
import { usePageTitle } from '@/lib/use-page-title';
import { listSellerProperties, sellerKeys, type SellerProperty } from './api';

export const DASHBOARD_ERROR_TITLE = 'Si è verificato un errore nel caricamento dei dati';
/** The home page's wizard, loaded only when the seller opens 'Nuova Richiesta'. */
const PropertyWizard = lazy(() => import('@/components/property-wizard/PropertyWizard'));

/** /seller-dashboard (sellers only, see the route guard): the seller's requests as cards. */
export default function SellerDashboardPage() {
  usePageTitle('Le mie richieste');
  const query = useQuery({ queryKey: sellerKeys.properties, queryFn: ({ signal }) => listSellerProperties(signal) });
  const items = query.data?.items;
  const [newRequestOpen, setNewRequestOpen] = useState(false);
  const queryClient = useQueryClient();

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Le mie richieste</h1>
          <p className="mt-2 text-slate-700">Segui lo stato delle richieste per i tuoi immobili.</p>
        </div>
        <Button className="shrink-0" onClick={() => setNewRequestOpen(true)} data-testid="seller-new-request">
          <Plus aria-hidden="true" className="size-4" />
          Nuova Richiesta
        </Button>
      </div>
      <Dialog
        open={newRequestOpen}
        onClose={() => setNewRequestOpen(false)}
        title="Nuova Richiesta"
        description="Gli stessi passaggi della valutazione gratuita: la richiesta sarà subito tra le tue."
        className="max-w-5xl!"
      >
        <Suspense fallback={<LoadingState label="Caricamento del modulo..." className="min-h-48" />}>
          <PropertyWizard
            submitPath="/seller/properties"
            onSubmitted={() => {
              setNewRequestOpen(false);
              void queryClient.invalidateQueries({ queryKey: sellerKeys.properties });
            }}
          />
        </Suspense>
      </Dialog>

      {query.isPending ? (
        <Card>
          <LoadingState label="Caricamento delle richieste..." className="min-h-48" />
        </Card>
      ) : query.isError ? (
        <Card>
          <ErrorState title={DASHBOARD_ERROR_TITLE} error={query.error} onRetry={() => void query.refetch()} testId="seller-dashboard-error" />
        </Card>
      ) : items && items.length > 0 ? (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Richieste" data-testid="seller-properties">
          {items.map((p) => (
            <li key={p.id} className="flex flex-col">
              {/* the card fills the row's height; the visits, when there are any, follow it */}
              <div className="flex-1">
                <PropertyCard property={p} />
              </div>
              {p.option && isRunningOption(p.option) && !p.option.hasKeys && (
                <ButtonLink to={sellerPaths.availability(p.id)} variant="outline" className="mt-2 self-start" data-testid="seller-property-availability">
                  <CalendarCheck aria-hidden="true" className="size-4" />
                  Disponibilità per le visite<span className="sr-only">: {p.address || 'Indirizzo non indicato'}</span>
                </ButtonLink>
              )}
              {p.option && optionStateOf(p.option) === 'assigned' && <PropertyVisits propertyId={p.id} address={p.address} />}
            </li>
          ))}
        </ul>
      ) : (
        <Card>
          <EmptyState icon={Home} title="Nessuna richiesta trovata" testId="seller-dashboard-empty">
            <p className="max-w-md text-sm text-slate-600">
              Le richieste inserite da te o dal tuo agente immobiliare compariranno qui.
            </p>
            <ButtonLink to="/" variant="outline" className="mt-2">
              <Home aria-hidden="true" className="size-4" />
              Torna alla Home
            </ButtonLink>
          </EmptyState>
        </Card>
      )}
    </div>
  );
}

function PropertyCard({ property: p }: { property: SellerProperty }) {
  const badge = IDENTITY_BADGES[p.identityStatus];
  const type = p.propertyType ? (PROPERTY_TYPE_LABELS as Record<string, string>)[p.propertyType] ?? p.propertyType : null;
  const place = [p.city, p.province].filter(Boolean).join(` `);

  // the owner's own pages open by id: no link from an e-mail is needed, none can have expired
  return (
    <Link
      to={sellerPaths.onboarding(p.id)}
      className="group flex h-full w-full flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-sm transition-shadow hover:border-brand-navy hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
      data-testid="seller-property"
      data-property-id={p.id}
      data-identity={p.identityStatus}
    >
      <span className="flex w-full items-start justify-between gap-3">
        <span className="min-w-0">
          <span className="block text-lg font-bold break-words text-brand-navy">{p.address || 'Indirizzo non indicato'}</span>
          <span className="mt-0.5 flex items-center gap-1 text-sm text-slate-700">
            <MapPin aria-hidden="true" className="size-4 shrink-0" />
            {place ? `${p.city}${p.province ? ` (${p.province})` : ''}` : '—'}
          </span>
        </span>
        <ChevronRight aria-hidden="true" className="mt-1 size-5 shrink-0 text-slate-500 group-hover:text-brand-navy" />
      </span>

      <span className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-700">
        {type && <span data-testid="seller-property-type">{type}</span>}
        {p.surfaceArea !== null && (
          <span className="inline-flex items-center gap-1">
            <Ruler aria-hidden="true" className="size-4" />
            {formatNumber(p.surfaceArea)} m²
          </span>
        )}
        {p.desiredAmount !== null && <span>Valore desiderato {formatEuro(p.desiredAmount)}</span>}
      </span>

      <span className="flex w-full flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-3">
        <span className="inline-flex items-center gap-1 text-sm text-slate-600">
          <CalendarDays aria-hidden="true" className="size-4" />
          Richiesta del <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time>
        </span>
        <span className="flex flex-wrap items-center gap-2">
          {p.option && (
            <Badge variant="outline" data-testid="seller-property-option">
              {SELLER_OPTION_LABELS[optionStateOf(p.option)]}
              {p.option.expiresAt ? `, scade il ${optionExpiryLabel(p.option)}` : p.option.optionDuration ? ` di ${p.option.optionDuration} mesi` : ''}
            </Badge>
          )}
          <Badge variant={badge.variant} data-testid="seller-property-identity">
            <span className="sr-only">Identità: </span>
            {badge.label}
          </Badge>
        </span>
      </span>
    </Link>
  );
}
