import { Link, useLocation, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, FilePen, RotateCcw, SearchX, Users } from 'lucide-react';
import { formatDateTime, formatDecimal, formatEuro, formatNumber } from '@domain/format';
import { CONDITION_LABELS, FEATURE_LABELS, floorLabel, labelOf, PROPERTY_TYPE_LABELS } from '@domain/property/enums';
import { DELETED_SOURCE_LABEL, NO_SOURCE_LABEL } from '@domain/request-list';
import type { RequestDossier } from '@domain/requests';
import { REVIEW_MESSAGES, reviewStepOf } from '@domain/review/rules';
import { Badge, Button, Card, CardContent, LoadingState, buttonClass } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { formatPhone } from '@domain/phone';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { propertySections, provinceLabel } from '@/lib/property-fields';
import { getRequest, requestKeys } from './api';
import { EstimateStep } from './EstimateStep';
import { OptionStep } from './OptionStep';
import { Facts, StepCard } from './parts';
import { ValuationStep } from './ValuationStep';
import { ActivityList } from '@/components/activity/ActivityList';
import { VisitList } from '@/components/visits/VisitList';
import { OptionStateBadge } from '@/components/option-state/OptionStateBadge';

const STEPS = ['Valutazione', 'Invio stima', 'Identità e opzione'] as const;

/** Istruttoria Immobile (/investigation/:propertyId, admin only): valuation, estimate, identity and option. */
export default function InvestigationPage() {
  usePageTitle('Istruttoria Immobile');
  const { propertyId = '' } = useParams();
  // back to the dashboard with the search and filters it had (set by its row's link)
  const state = useLocation().state as { back?: unknown } | null;
  const back = typeof state?.back === 'string' && /^\/admin(\?|$)/.test(state.back) ? state.back : '/admin';
  const query = useQuery({
    queryKey: requestKeys.dossier(propertyId),
    queryFn: ({ signal }) => getRequest(propertyId, signal),
    retry: (count, err) => !isApiError(err, 404) && count < 2,
  });

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
      <Link
        to={back}
        className="mb-4 inline-flex items-center gap-1.5 rounded font-medium text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
        data-testid="back-to-admin"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Torna alla dashboard
      </Link>
      {query.isPending ? (
        <LoadingState label="Caricamento dell'immobile..." />
      ) : query.isError ? (
        isApiError(query.error, 404) ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-12 text-center" data-testid="review-not-found">
              <SearchX aria-hidden="true" className="size-10 text-slate-400" />
              <h1 className="text-2xl font-bold">{REVIEW_MESSAGES.propertyNotFound}</h1>
              <p className="text-slate-700">La richiesta potrebbe essere stata eliminata.</p>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardContent role="alert" className="flex flex-col items-center gap-3 py-12 text-center" data-testid="review-error">
              <h1 className="text-xl font-bold text-red-700">{REVIEW_MESSAGES.loadFailed}</h1>
              <p className="text-slate-700">{errorMessage(query.error)}</p>
              <Button variant="outline" onClick={() => void query.refetch()}>
                <RotateCcw aria-hidden="true" className="size-4" />
                Riprova
              </Button>
            </CardContent>
          </Card>
        )
      ) : (
        <Review dossier={query.data} />
      )}
    </div>
  );
}

function Review({ dossier }: { dossier: RequestDossier }) {
  const p = dossier.property;
  const step = reviewStepOf(dossier);
  const place = [p.city, p.province ? `(${p.province})` : null].filter(Boolean).join(' ');
  return (
    <>
      <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Istruttoria Immobile</h1>
          <p className="mt-1 text-lg text-slate-800" data-testid="review-address">
            {p.address}
            {place ? `, ${place}` : ''}
          </p>
          <p className="text-sm text-slate-600">
            Richiesta del {formatDateTime(p.createdAt)} da {`${p.firstName} ${p.lastName}`.trim() || '—'}
          </p>
          <p className="text-sm text-slate-600" data-testid="review-source">
            Fonte: {p.sourceId ? (p.sourceName ?? DELETED_SOURCE_LABEL) : NO_SOURCE_LABEL}
          </p>
        </div>
        <div className="flex flex-wrap gap-2 self-start">
          <Badge variant={dossier.option ? 'success' : 'warning'} className="px-3 py-1 text-sm" data-testid="review-badge">
            {dossier.option ? 'Opzione Stipulata' : 'In Corso'}
          </Badge>
          {dossier.option && <OptionStateBadge status={dossier.option.status} className="px-3 py-1 text-sm" />}
        </div>
      </header>

      {p.erasedAccountAt && (
        <div role="note" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="review-erased-account">
          <p className="font-semibold">Il venditore ha cancellato il proprio account il {formatDateTime(p.erasedAccountAt)}.</p>
          <p className="mt-1">
            Sono conservati solo i dati che servono al contratto e al pagamento (opzione, documenti firmati, identità, deleghe,
            richiesta dell&apos;agente); l&apos;accesso del venditore e gli altri dati sono stati cancellati.
          </p>
        </div>
      )}

      {dossier.option && (
        <nav aria-label="Collegamenti della richiesta" className="mt-4 flex flex-wrap gap-2" data-testid="review-links">
          <Link
            to={`/active-options?property=${encodeURIComponent(p.id)}`}
            className={buttonClass('outline', 'sm')}
            aria-label="Opzione di acquisto di questo immobile in Opzioni di Acquisto Attive"
            data-testid="review-option-link"
          >
            <FilePen aria-hidden="true" className="size-4" />
            Opzione di acquisto
          </Link>
          <Link
            to={`/active-options?property=${encodeURIComponent(p.id)}#agent-requests`}
            className={buttonClass('outline', 'sm')}
            aria-label="Richieste degli agenti per questo immobile"
            data-testid="review-agent-requests-link"
          >
            <Users aria-hidden="true" className="size-4" />
            Richieste degli agenti
          </Link>
        </nav>
      )}

      <nav aria-label="Avanzamento dell'istruttoria" className="mt-6">
        <p className="sr-only" data-testid="review-step">
          Passo {step} di 3
        </p>
        <ol className="grid grid-cols-3 gap-2" data-step={step} data-testid="review-steps">
          {STEPS.map((label, i) => {
            const n = i + 1;
            const state = n < step ? 'done' : n === step ? 'current' : 'todo';
            return (
              <li
                key={label}
                aria-current={state === 'current' ? 'step' : undefined}
                className={cn(
                  'rounded-lg border-t-4 bg-white px-2 py-2 text-center text-xs font-semibold shadow-sm sm:text-sm',
                  state === 'done' && 'border-green-700 text-green-800',
                  state === 'current' && 'border-brand-orange-dark text-brand-navy',
                  state === 'todo' && 'border-slate-200 text-slate-600',
                )}
              >
                <span className="flex items-center justify-center gap-1 text-base">
                  {state === 'done' && <CheckCircle2 aria-hidden="true" className="size-4" />}
                  {n}
                </span>
                {label}
                <span className="sr-only">{state === 'done' ? ' (completato)' : state === 'current' ? ' (in corso)' : ' (da completare)'}</span>
              </li>
            );
          })}
        </ol>
      </nav>

      <PropertyCard dossier={dossier} />

      <StepCard step={1} title="Valutazione dell'immobile" done={step > 1} testId="step-valuation">
        <ValuationStep dossier={dossier} />
      </StepCard>
      <StepCard step={2} title="Invio della stima" done={step > 2} locked={step < 2} lockedText="Disponibile dopo una valutazione con esito." testId="step-estimate">
        <EstimateStep dossier={dossier} />
      </StepCard>
      <StepCard
        step={3}
        title="Verifica identità e opzione di acquisto"
        done={Boolean(dossier.option?.signedAt)}
        locked={step < 3}
        lockedText="Disponibile dopo l'invio della stima al venditore."
        testId="step-option"
      >
        <OptionStep dossier={dossier} />
      </StepCard>
      {(dossier.visits.length > 0 || dossier.option?.status === 'assigned') && (
        <Card className="mt-6" data-testid="review-visits">
          <CardContent>
            <h2 className="text-lg font-bold text-brand-navy">Visite</h2>
            {dossier.visits.length ? (
              <VisitList visits={dossier.visits} />
            ) : (
              <p className="mt-2 text-sm text-slate-600">L&apos;agente non ha ancora prenotato visite.</p>
            )}
          </CardContent>
        </Card>
      )}
      <ActivityCard dossier={dossier} />
    </>
  );
}

function PropertyCard({ dossier }: { dossier: RequestDossier }) {
  const p = dossier.property;
  const features = (p.features ?? []).map((f) => labelOf(FEATURE_LABELS, f));
  return (
    <Card className="mt-6">
      <section aria-labelledby="property-title">
        <CardContent>
          <h2 id="property-title" className="text-lg font-bold text-brand-navy sm:text-xl">
            Dettagli dell'immobile
          </h2>
          <Facts
            className="mt-4"
            rows={[
              { label: 'Tipologia', value: labelOf(PROPERTY_TYPE_LABELS, p.propertyType) || '—' },
              { label: 'Provincia', value: provinceLabel(p.province) },
              { label: 'Superficie', value: p.surfaceArea ? `${formatDecimal(p.surfaceArea)} m²` : '—' },
              { label: 'Locali / bagni', value: `${p.numRooms ?? '—'} / ${p.numBathrooms ?? '—'}` },
              { label: 'Piano', value: p.floor ? floorLabel(p.floor) : '—' },
              { label: 'Stato', value: labelOf(CONDITION_LABELS, p.condition) || '—' },
              { label: 'Terrazzo', value: p.hasTerrace ? `Sì${p.terraceSurfaceArea ? ` (${formatDecimal(p.terraceSurfaceArea)} m²)` : ''}` : 'No' },
              { label: 'Importo desiderato', value: p.desiredAmount ? formatEuro(p.desiredAmount) : '—' },
              { label: "Durata dell'opzione scelta", value: `${p.optionDuration} mesi` },
              { label: 'Venditore', value: `${p.firstName} ${p.lastName}`.trim() || '—' },
              { label: 'Email', value: p.email || '—' },
              { label: 'Cellulare', value: p.phone ? formatPhone(p.phone) : '—' },
              { label: 'Stanze', value: formatNumber(dossier.rooms.length) },
            ]}
          />
          {features.length > 0 && (
            <p className="mt-3 text-sm text-slate-700">
              <span className="font-semibold">Caratteristiche:</span> {features.join(', ')}
            </p>
          )}
          <details className="mt-4 rounded-lg border border-slate-200 p-3 text-sm">
            <summary className="cursor-pointer font-semibold text-brand-navy">Tutti i dati della richiesta</summary>
            <div className="mt-3 space-y-4">
              {propertySections(p, null).map((s) => (
                <div key={s.title}>
                  <h3 className="font-semibold text-slate-900">{s.title}</h3>
                  <Facts className="mt-1" rows={s.rows.map((r) => ({ label: r.label, value: r.value }))} />
                </div>
              ))}
            </div>
          </details>
        </CardContent>
      </section>
    </Card>
  );
}

/** The request's activity history, newest first. */
function ActivityCard({ dossier }: { dossier: RequestDossier }) {
  const entries = [...dossier.activity].reverse();
  return (
    <Card className="mt-6" data-testid="review-activity">
      <CardContent>
        <h2 id="activity-title" className="text-lg font-bold text-brand-navy">
          Attività
        </h2>
        {entries.length ? (
          <ActivityList entries={entries} />
        ) : (
          <p className="mt-2 text-sm text-slate-600">Nessuna attività registrata per questa richiesta.</p>
        )}
      </CardContent>
    </Card>
  );
}
