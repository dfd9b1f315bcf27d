import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { AlertTriangle, CheckCircle2, Circle, Home, LayoutDashboard, Lock, MapPin, PartyPopper, RotateCcw, ShieldCheck } from 'lucide-react';
import { formatDecimal } from '@domain/format';
import { KYC_MESSAGES, STEP_CLOSED_NOTE, type CoOwnerKycState, type KycStep, type SellerKycState } from '@domain/onboarding/kyc';
import { Badge, Button, ButtonLink, Card, ErrorState, LoadingState } from '@/components/ui';
import { isApiError } from '@/lib/api';
import { sellerKeys, sellerPaths } from '@/lib/seller-keys';
import { usePageTitle } from '@/lib/use-page-title';
import { getIdentity, getKyc, getOwnKyc, kycKeys } from './api';
import { CoOwnersStep } from './co-owners/CoOwnersStep';
import { DelegationsStep } from './delegations/DelegationsStep';
import { IdentityDialog } from './identity/IdentityDialog';
import { OptionStep } from './option-signing/OptionStep';

export const KYC_LOAD_ERROR = 'Errore nel caricamento dei dati';
export const KYC_INVALID_LINK = 'Link non valido o scaduto';

/** /seller-kyc?token= (the e-mail's link) or ?property= (the dashboard); guard RequireInvitationSession: the seller's onboarding. */
export default function OnboardingPage() {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-10">
      <KycContent />
    </div>
  );
}

function KycContent() {
  usePageTitle('Completa la tua pratica');
  const [params] = useSearchParams();
  const propertyId = params.get('property')?.trim() ?? '';
  const token = params.get('token')?.trim() ?? '';
  return propertyId ? <ByProperty propertyId={propertyId} /> : <ByLink token={token} />;
}

const isRefusal = (err: unknown) => isApiError(err, 404) || isApiError(err, 400);
const retryUnlessRefused = (count: number, err: unknown) => !isRefusal(err) && count < 2;

/** The e-mail's link: its first arrival only. An owner's page goes on by property id (a newer mail's link or the link's expiry never locks them out). */
function ByLink({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: kycKeys.byToken(token),
    queryFn: ({ signal }) => getKyc(token, signal),
    enabled: Boolean(token),
    retry: retryUnlessRefused,
  });
  const notFound = isRefusal(query.error);
  const toasted = useRef(false);
  useEffect(() => {
    if (notFound && !toasted.current) {
      toasted.current = true;
      toast.error(KYC_MESSAGES.tokenNotFound);
    }
  }, [notFound]);
  const owner = query.data?.role === 'owner' ? query.data : null;
  useEffect(() => {
    if (!owner) return;
    queryClient.setQueryData(kycKeys.byProperty(owner.property.id), owner);
    void navigate(sellerPaths.onboarding(owner.property.id), { replace: true });
  }, [owner, navigate, queryClient]);

  if (notFound) return <InvalidLink />;
  if (query.isError) return <ErrorState title={KYC_LOAD_ERROR} error={query.error} onRetry={() => void query.refetch()} testId="kyc-error" />;
  if (query.data?.role === 'coOwner') return <CoOwnerView state={query.data} />;
  return <LoadingState label="Caricamento della pratica..." />;
}

/** The seller's own property, opened from the dashboard or after the link's first arrival. */
function ByProperty({ propertyId }: { propertyId: string }) {
  const query = useQuery({
    queryKey: kycKeys.byProperty(propertyId),
    queryFn: ({ signal }) => getOwnKyc(propertyId, signal),
    retry: retryUnlessRefused,
  });
  if (query.isPending) return <LoadingState label="Caricamento della pratica..." />;
  if (isRefusal(query.error)) return <PropertyNotFound />;
  if (query.isError) return <ErrorState title={KYC_LOAD_ERROR} error={query.error} onRetry={() => void query.refetch()} testId="kyc-error" />;
  return <OwnerView state={query.data} reloading={query.isFetching} onReload={() => void query.refetch()} />;
}

function PropertyNotFound() {
  return (
    <Card className="mx-auto max-w-md p-6 text-center" data-testid="kyc-not-found">
      <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <h1 className="mt-3 text-xl font-bold text-brand-navy">Immobile non trovato</h1>
      <p className="mt-2 text-slate-700">Questo immobile non è tra le tue richieste.</p>
      <ButtonLink to="/seller-dashboard" className="mt-4">
        <LayoutDashboard aria-hidden="true" className="size-4" />
        Le mie richieste
      </ButtonLink>
    </Card>
  );
}

function InvalidLink() {
  return (
    <Card className="mx-auto max-w-md p-6 text-center" data-testid="kyc-invalid">
      <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-600" />
      <h1 className="mt-3 text-xl font-bold text-brand-navy">{KYC_INVALID_LINK}</h1>
      <p className="mt-2 text-slate-700">Controlla il link ricevuto via email o contatta il tuo agente.</p>
      <ButtonLink to="/" className="mt-4">
        <Home aria-hidden="true" className="size-4" />
        Home
      </ButtonLink>
    </Card>
  );
}

function Welcome({ firstName, address, city }: { firstName?: string; address: string; city: string | null }) {
  return (
    <div>
      <h1 className="text-2xl font-bold sm:text-3xl" data-testid="kyc-welcome">
        {firstName ? `Benvenuto, ${firstName}` : 'Benvenuto'}
      </h1>
      <p className="mt-2 flex items-start gap-2 text-slate-700" data-testid="kyc-address">
        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {address}
          {city ? `, ${city}` : ''}
        </span>
      </p>
    </div>
  );
}

const STATUS_LABEL: Record<KycStep['status'], string> = { done: 'Completato', todo: 'Da completare', locked: 'Bloccato' };

function ProgressList({ steps }: { steps: KycStep[] }) {
  const done = steps.filter((s) => s.status === 'done').length;
  return (
    <nav aria-label="Avanzamento della pratica">
      <p className="mb-2 text-sm text-slate-700">
        {done} di {steps.length} passaggi completati
      </p>
      <ol className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4" data-testid="kyc-progress">
        {steps.map((s) => (
          <li
            key={s.id}
            className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm"
            aria-current={s.status === 'todo' ? 'step' : undefined}
            data-testid={`kyc-progress-${s.id}`}
            data-status={s.status}
          >
            {s.status === 'done' ? (
              <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-green-700" />
            ) : s.status === 'locked' ? (
              <Lock aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
            ) : (
              <Circle aria-hidden="true" className="size-5 shrink-0 text-brand-navy" />
            )}
            <span className="font-medium text-slate-800">
              {s.number}. {s.title}
            </span>
            <span className="sr-only">: {STATUS_LABEL[s.status]}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Under a step the option closed: why it offers no change. */
function StepClosedNote() {
  return (
    <p className="flex items-start gap-2 text-slate-700" data-testid="step-closed">
      <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
      {STEP_CLOSED_NOTE}
    </p>
  );
}

function StepCard({ step, children, summary }: { step: KycStep; children?: ReactNode; summary?: ReactNode }) {
  const headingId = `kyc-step-${step.id}-title`;
  return (
    <Card className="p-4 sm:p-6" aria-labelledby={headingId} role="region" data-testid={`kyc-step-${step.id}`} data-status={step.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} tabIndex={-1} className="text-lg font-bold text-brand-navy focus:outline-none">
          Passo {step.number}: {step.title}
        </h2>
        <Badge variant={step.status === 'done' ? 'success' : step.status === 'todo' ? 'warning' : 'secondary'}>{STATUS_LABEL[step.status]}</Badge>
      </div>
      <div className="mt-4">
        {step.status === 'locked' ? <p className="text-sm text-slate-600">Completa prima i passaggi precedenti per sbloccare questo passo.</p> : step.status === 'done' && summary ? summary : children}
      </div>
    </Card>
  );
}

function OwnerView({ state, reloading, onReload }: { state: SellerKycState; reloading: boolean; onReload: () => void }) {
  const queryClient = useQueryClient();
  const [identityOpen, setIdentityOpen] = useState(false);
  const [editing, setEditing] = useState<'coOwners' | 'delegations' | null>(null);
  const propertyId = state.property.id;
  const identityVerified = state.identity?.status === 'verified';
  const identityQuery = useQuery({
    queryKey: [...kycKeys.all, 'identity', propertyId],
    queryFn: ({ signal }) => getIdentity(propertyId, signal),
    enabled: identityVerified,
  });
  const verifiedRecord = identityQuery.data?.identity;
  const verifiedDelegator = useMemo(
    () =>
      verifiedRecord?.status === 'verified'
        ? { fullName: verifiedRecord.fullName, documentType: verifiedRecord.documentType, documentNumber: verifiedRecord.documentNumber }
        : null,
    [verifiedRecord],
  );
  // the delegation form starts from the verified identity: wait for it (a return visit)
  const identityLoading = identityVerified && identityQuery.isPending;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: kycKeys.all });
    void queryClient.invalidateQueries({ queryKey: sellerKeys.properties });
  };
  const step = (id: KycStep['id']) => state.steps.find((s) => s.id === id);
  const identityStep = step('identity');
  const coOwnersStep = step('coOwners');
  const delegationsStep = step('delegations');
  const optionStep = step('option');

  return (
    <div className="space-y-6" data-testid="kyc-page">
      <Welcome firstName={state.property.firstName} address={state.property.address} city={state.property.city} />
      <ProgressList steps={state.steps} />

      {state.complete && state.completionMessage && (
        <Card className="border-green-200 bg-green-50 p-4 sm:p-6" role="status" data-testid="kyc-complete">
          <div className="flex items-start gap-3">
            <PartyPopper aria-hidden="true" className="size-8 shrink-0 text-green-700" />
            <div>
              <h2 id="kyc-complete-title" tabIndex={-1} className="text-lg font-bold text-green-900 focus:outline-none">
                Pratica completata
              </h2>
              <p className="mt-1 text-green-900">{state.completionMessage}</p>
            </div>
          </div>
        </Card>
      )}

      {identityStep && (
        <StepCard
          step={identityStep}
          summary={
            <div className="space-y-2 text-sm" data-testid="identity-summary">
              <p className="flex items-center gap-2 text-slate-800">
                <ShieldCheck aria-hidden="true" className="size-5 text-green-700" />
                Identità verificata{state.identity ? ` (corrispondenza ${formatDecimal(state.identity.confidence)}%)` : ''}.
              </p>
            </div>
          }
        >
          <IdentityStepBody identity={state.identity} onOpen={() => setIdentityOpen(true)} />
        </StepCard>
      )}

      {coOwnersStep && (
        <StepCard
          step={coOwnersStep}
          summary={
            editing === 'coOwners' ? undefined : (
              <div className="space-y-3 text-sm" data-testid="coowners-summary">
                {state.coOwners.length ? (
                  <ul className="space-y-2">
                    {state.sellerShare !== null && (
                      <li className="flex flex-wrap items-center gap-2" data-testid="seller-share-summary">
                        <span className="font-medium text-slate-800">La tua quota</span>
                        <span className="text-slate-600">{formatDecimal(state.sellerShare)}%</span>
                      </li>
                    )}
                    {state.coOwners.map((c) => (
                      <li key={c.id} className="flex flex-wrap items-center gap-2">
                        <span className="font-medium text-slate-800">{c.fullName}</span>
                        <span className="text-slate-600">
                          {c.email} · {formatDecimal(c.share)}%
                        </span>
                        {c.badge && <Badge variant={c.badge === 'Verificato' ? 'success' : 'secondary'}>{c.badge}</Badge>}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-slate-700">Proprietà singola: nessun comproprietario.</p>
                )}
                {coOwnersStep.editable ? (
                  <Button variant="outline" size="sm" onClick={() => setEditing('coOwners')}>
                    Modifica
                  </Button>
                ) : (
                  <StepClosedNote />
                )}
              </div>
            )
          }
        >
          <CoOwnersStep
            propertyId={propertyId}
            sellerShare={state.sellerShare}
            coOwners={state.coOwners}
            singleOwner={state.singleOwner}
            onChanged={() => {
              setEditing(null);
              refresh();
            }}
          />
        </StepCard>
      )}

      {delegationsStep && (
        <StepCard
          step={delegationsStep}
          summary={
            editing === 'delegations' ? undefined : (
              <div className="space-y-3 text-sm" data-testid="delegations-summary">
                <ul className="space-y-1">
                  {state.delegations.map((d) => (
                    <li key={d.type} className="flex items-center gap-2">
                      <CheckCircle2 aria-hidden="true" className="size-4 text-green-700" />
                      {d.label} · {d.municipality} ({d.province})
                    </li>
                  ))}
                </ul>
                {delegationsStep.editable ? (
                  <Button variant="outline" size="sm" onClick={() => setEditing('delegations')}>
                    Gestisci deleghe
                  </Button>
                ) : (
                  <StepClosedNote />
                )}
              </div>
            )
          }
        >
          {identityLoading ? (
            <LoadingState label="Caricamento dei dati del documento verificato..." className="min-h-24" />
          ) : (
          <DelegationsStep
            propertyId={propertyId}
            delegations={state.delegations}
            canComplete={state.canCompleteDelegations}
            defaultProvince={state.property.province}
            defaultMunicipality={state.property.city}
            verified={verifiedDelegator}
            onChanged={() => {
              // stay open until 'Completa Fase' or 'Salva e Chiudi'
              setEditing('delegations');
              refresh();
            }}
            onDone={() => {
              setEditing(null);
              if (state.canCompleteDelegations) {
                toast.success('Fase completata', { description: 'Tutte le deleghe sono firmate.' });
                // 'Completa Fase' confirms and moves on: to the option's step, else to the final card
                const next = state.option ? 'kyc-step-option-title' : 'kyc-complete-title';
                requestAnimationFrame(() => {
                  const el = document.getElementById(next);
                  el?.scrollIntoView({ block: 'start', behavior: 'smooth' });
                  el?.focus({ preventScroll: true });
                });
              } else toast.info('Deleghe salvate', { description: 'Carica tutte le deleghe firmate per completare questa fase' });
              refresh();
            }}
          />
          )}
        </StepCard>
      )}

      {optionStep && state.option && (
        <StepCard step={optionStep}>
          <OptionStep propertyId={propertyId} option={state.option} coOwners={state.coOwners} onChanged={onReload} reloading={reloading} />
        </StepCard>
      )}

      {!state.option && (
        <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
          <p>L&apos;opzione di acquisto comparirà qui quando il nostro team l&apos;avrà preparata.</p>
          <Button variant="outline" size="sm" onClick={onReload} loading={reloading} data-testid="kyc-reload">
            <RotateCcw aria-hidden="true" className="size-4" />
            Ricarica
          </Button>
        </div>
      )}

      <IdentityDialog open={identityOpen} onClose={() => setIdentityOpen(false)} target={{ propertyId }} onVerified={refresh} />
    </div>
  );
}

/** A co-owner's link: their own identity check, with the same dialog as the owner's. */
function CoOwnerView({ state }: { state: CoOwnerKycState }) {
  const queryClient = useQueryClient();
  const [identityOpen, setIdentityOpen] = useState(false);
  const identityStep = state.steps.find((s) => s.id === 'identity');
  const verified = state.coOwner.badge === 'Verificato';
  const refresh = () => void queryClient.invalidateQueries({ queryKey: kycKeys.all });
  return (
    <div className="space-y-6" data-testid="kyc-coowner">
      <Welcome firstName={state.coOwner.fullName.split(/\s+/)[0]} address={state.property.address} city={state.property.city} />
      <ProgressList steps={state.steps} />
      <Card className="p-4 sm:p-6">
        <p className="text-slate-700">
          Sei stato indicato come comproprietario con una quota del {formatDecimal(state.coOwner.share)}%.
          {verified ? ' La tua identità è verificata.' : ' Verifica la tua identità per completare la tua parte.'}
        </p>
      </Card>
      {identityStep && (
        <StepCard
          step={identityStep}
          summary={
            <p className="flex items-center gap-2 text-sm text-slate-800" data-testid="identity-summary">
              <ShieldCheck aria-hidden="true" className="size-5 text-green-700" />
              Identità verificata{state.identity ? ` (corrispondenza ${formatDecimal(state.identity.confidence)}%)` : ''}.
              <Badge variant="success" data-testid="coowner-verified">
                Verificato
              </Badge>
            </p>
          }
        >
          <IdentityStepBody identity={state.identity} onOpen={() => setIdentityOpen(true)} />
        </StepCard>
      )}
      <IdentityDialog open={identityOpen} onClose={() => setIdentityOpen(false)} target={{ coOwnerToken: state.token }} onVerified={refresh} />
    </div>
  );
}

/**
 * The body of the identity step, the same for the owner and a co-owner: what the check asks
 * for, the check in review or refused, and the button that opens the dialog (none while an
 * admin reviews the check).
 */
function IdentityStepBody({ identity, onOpen }: { identity: { status: string; confidence: number; reason?: string | null } | null | undefined; onOpen: () => void }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">Scatta una foto del tuo volto e del tuo documento d&apos;identità: li confronteremo automaticamente.</p>
      {identity?.status === 'review' && (
        <div role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="identity-in-review">
          <p className="font-semibold">Verifica in corso</p>
          <p>
            La corrispondenza tra il volto e il documento ({formatDecimal(identity.confidence)}%) va controllata dal nostro staff: ti avviseremo appena
            la verifica sarà conclusa.
          </p>
        </div>
      )}
      {identity?.status === 'rejected' && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="identity-rejected">
          <p className="font-semibold">Verifica non riuscita</p>
          <p>{identity.reason || 'La foto del volto non corrisponde al documento o i dati non sono validi.'}</p>
        </div>
      )}
      {identity?.status !== 'review' && (
        <Button onClick={onOpen} data-testid="identity-open">
          <ShieldCheck aria-hidden="true" className="size-4" />
          {identity?.status === 'rejected' ? 'Riprova la verifica' : 'Verifica identità'}
        </Button>
      )}
    </div>
  );
}
