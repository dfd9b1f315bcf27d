import { SignersList } from '@/components/signature/SignersList';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BellRing, CalendarClock, CheckCircle2, FilePlus2, Hourglass } from 'lucide-react';
import { formatDate, formatDateTime, formatDecimal, formatEuro } from '@domain/format';
import {
  DELEGATION_LABELS,
  DELEGATION_TYPES,
  type DossierFile,
  type PurchaseOption,
  type RequestDossier,
} from '@domain/requests';
import {
  latestAvailable,
  optionAmountLabel,
  optionExpiryLabel,
  OPTION_POLL_MS,
  paymentTermsOf,
  paymentTypeLabel,
  REVIEW_MESSAGES,
  salePriceOf,
  SIGNED_TOAST_MS,
  subStepsOf,
} from '@domain/review/rules';
import { createOptionSchema, type CreateOptionBody, type CreateOptionInput } from '@domain/review/schemas';
import { OPTION_DURATIONS, upfrontFee } from '@domain/fees';
import { Badge, Button, Field, Input, Select } from '@/components/ui';
import { errorMessage, isApiError } from '@/lib/api';
import { Link } from 'react-router-dom';
import { createOption, getOptionStatus, notifySeller, requestKeys, reviewKeys, sendAvailabilityLink } from './api';
import { DownloadLink, Facts, SubStep } from './parts';
import { IdentityDetails } from './IdentityReview';
import { OptionLifecycleActions } from './OptionLifecycle';
import { RUNNING_OPTION_STATES } from '@domain/option-lifecycle';
import { OptionStateBadge } from '@/components/option-state/OptionStateBadge';

const IDENTITY_LABELS = { pending: 'In verifica', verified: 'Verificata', rejected: 'Rifiutata' } as const;
const DOCUMENT_LABELS = { documentFront: 'Documento (fronte)', documentBack: 'Documento (retro)', facePhoto: 'Foto del volto' } as const;
const delegationLabel = (t: string) => DELEGATION_LABELS[t as keyof typeof DELEGATION_LABELS] ?? t;

/** Step 3: identity, co-owners, delegations (in order), then the option, its signature and the mails to the seller. */
export function OptionStep({ dossier }: { dossier: RequestDossier }) {
  const steps = subStepsOf(dossier, delegationLabel);
  const { identity, coOwners, delegations, option } = dossier;
  useSignaturePolling(dossier.property.id, option);

  return (
    <div className="space-y-6">
      <ol className="space-y-0" aria-label="Passaggi della verifica">
        <SubStep n={1} title="Verifica identità del venditore" done={steps.identityVerified} current={steps.current === 1} testId="substep-identity">
          {identity ? (
            <>
              <p>
                Stato: <strong data-testid="identity-status">{IDENTITY_LABELS[identity.status]}</strong>
                {identity.fullName ? ` - ${identity.fullName}` : ''}
                {identity.verifiedAt ? ` (il ${formatDateTime(identity.verifiedAt)})` : ''}
              </p>
              <IdentityDetails propertyId={dossier.property.id} identity={identity} />
            </>
          ) : (
            <p data-testid="identity-status">Il venditore non ha ancora avviato la verifica dell'identità.</p>
          )}
        </SubStep>
        <SubStep n={2} title="Comproprietari" done={steps.coOwnersDone} current={steps.current === 2} testId="substep-coowners">
          {coOwners.length ? (
            <ul className="list-disc pl-5">
              {coOwners.map((c) => (
                <li key={c.id}>
                  {c.fullName} ({c.email}) - quota {formatDecimal(c.share)}%
                  {c.verifiedAt ? ', identità verificata' : c.identityStatus === 'review' ? ', verifica da controllare' : ', in attesa di verifica'}
                  {!c.verifiedAt && c.identityStatus === 'review' && (
                    <>
                      {' '}
                      <Link className="font-medium text-brand-navy underline" to="/identity-reviews">
                        (apri le verifiche)
                      </Link>
                    </>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p>{steps.coOwnersDone ? 'Nessun comproprietario indicato.' : 'Il venditore non ha ancora indicato comproprietari o deleghe.'}</p>
          )}
        </SubStep>
        <SubStep n={3} title="Deleghe" done={steps.delegationsDone} current={steps.current === 3} testId="substep-delegations">
          <ul className="grid gap-2 sm:grid-cols-2" data-testid="delegations">
            {DELEGATION_TYPES.map((type) => {
              const d = delegations.find((x) => x.type === type);
              const signed = Boolean(d?.documentKey && d.signedAt);
              return (
                <li key={type} className="rounded-lg border border-slate-200 p-3" data-testid={`delegation-${type}`}>
                  <p className="font-medium text-slate-900">{DELEGATION_LABELS[type]}</p>
                  <p className={signed ? 'text-green-800' : 'text-slate-600'}>
                    {!d ? 'Non presente' : signed ? `${d.signatureType === 'digitale' ? 'Firmata digitalmente' : 'Firmata'} il ${formatDate(d.signedAt!)}` : 'Da firmare'}
                    {d?.municipality ? ` - ${d.municipality}${d.province ? ` (${d.province})` : ''}` : ''}
                  </p>
                  {signed && d?.signatureType === 'digitale' && d.signers.length > 0 && (
                    <SignersList signers={d.signers} testId={`delegation-${type}-signers`} />
                  )}
                  {d?.file && (
                    <DownloadLink href={d.file.url} testId={`delegation-${type}-download`}>
                      Scarica la delega
                    </DownloadLink>
                  )}
                </li>
              );
            })}
          </ul>
        </SubStep>
        <SubStep n={4} title="Opzione di acquisto" done={steps.optionSigned} current={steps.current >= 4} testId="substep-option">
          {option ? (
            <OptionSummary dossier={dossier} option={option} />
          ) : steps.canCreateOption ? (
            <OptionForm dossier={dossier} />
          ) : (
            <div role="note" className="rounded-lg bg-slate-50 p-3" data-testid="option-locked">
              <p className="font-medium">La creazione dell'opzione si sblocca quando i passaggi precedenti sono completi:</p>
              <ul className="mt-1 list-disc pl-5">
                {steps.missing.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </div>
          )}
        </SubStep>
      </ol>
      <SellerDocuments dossier={dossier} />
    </div>
  );
}

/**
 * While the option exists and is unsigned, GET .../option every 5 s; when the signature first
 * appears: toast 'Documento Firmato Ricevuto!' (10 s) and reload the dossier. The signature is
 * announced however the page learns of it after having shown the option unsigned: from the poll,
 * or from a reload of the dossier that arrives first (another action reloads it; the poll then
 * stops, since the dossier says signed).
 */
function useSignaturePolling(propertyId: string, option: PurchaseOption | null) {
  const queryClient = useQueryClient();
  const waiting = Boolean(option && !option.signedAt);
  const poll = useQuery({
    queryKey: reviewKeys.option(propertyId),
    queryFn: ({ signal }) => getOptionStatus(propertyId, signal),
    enabled: waiting,
    refetchInterval: waiting ? OPTION_POLL_MS : false,
  });
  const sawUnsigned = useRef(false);
  const announced = useRef(false);
  const signedAt = poll.data?.option?.signedAt ?? option?.signedAt;
  useEffect(() => {
    if (waiting) sawUnsigned.current = true;
  }, [waiting]);
  useEffect(() => {
    if (!sawUnsigned.current || !signedAt || announced.current) return;
    announced.current = true;
    toast.success(REVIEW_MESSAGES.signedReceived, { duration: SIGNED_TOAST_MS, description: `Firmato il ${formatDateTime(signedAt)}` });
    // the poll saw it first: the dossier does not know yet
    if (waiting) void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
  }, [waiting, signedAt, propertyId, queryClient]);
}

function OptionForm({ dossier }: { dossier: RequestDossier }) {
  const queryClient = useQueryClient();
  const propertyId = dossier.property.id;
  const suggested = latestAvailable(dossier.valuations)?.adjustedAvg;
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<CreateOptionInput, unknown, CreateOptionBody>({
    resolver: zodResolver(createOptionSchema),
    defaultValues: {
      propertyValue: suggested ?? Number.NaN,
      // the seller's choice (home simulator / wizard): the admin confirms or changes it
      optionDuration: dossier.property.optionDuration,
      hasKeys: false,
      agentCommissionPercentage: 3,
      minAgentCommissionPercentage: 2,
      salePricePercentage: 10,
      minMonthlySlots: 4,
    },
  });
  const value = Number(watch('propertyValue'));
  const hasKeys = Boolean(watch('hasKeys'));
  const months = watch('optionDuration') ?? dossier.property.optionDuration;
  const terms = paymentTermsOf(hasKeys);

  const create = useMutation({
    mutationFn: (input: CreateOptionBody) => createOption(propertyId, input),
    onSuccess: () => {
      toast.success(REVIEW_MESSAGES.optionCreated, { description: 'Opzione di acquisto creata' });
      void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
    onError: (err) => {
      toast.error("Errore nella creazione dell'opzione di acquisto", { description: errorMessage(err) });
      if (isApiError(err, 409)) void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
  });

  const pct = { valueAsNumber: true } as const;
  return (
    <form noValidate onSubmit={handleSubmit((v) => create.mutate(v))} aria-label="Crea l'opzione di acquisto" className="space-y-4 rounded-xl border border-slate-200 p-4" data-testid="option-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Valore dell'immobile (€)" error={errors.propertyValue?.message} hint={suggested ? `Proposto: valore prudenziale ${formatEuro(suggested)}` : undefined}>
          <Input type="number" min={1} step={1} inputMode="numeric" {...register('propertyValue', pct)} data-testid="option-value" />
        </Field>
        <Field
          label="Durata dell'opzione"
          error={errors.optionDuration?.message}
          hint={`Scelta dal venditore: ${dossier.property.optionDuration} mesi. Scade dopo la durata, dalla data della firma.`}
        >
          <Select {...register('optionDuration', pct)} data-testid="option-duration">
            {OPTION_DURATIONS.map((m) => (
              <option key={m} value={m}>
                {m} mesi
              </option>
            ))}
          </Select>
        </Field>
        <div className="rounded-lg bg-brand-cream p-3">
          <p className="text-sm text-slate-700" data-testid="option-amount-label">
            {optionAmountLabel(months)}
          </p>
          <p className="text-lg font-bold text-brand-navy tabular-nums" data-testid="option-amount-preview">
            {Number.isFinite(value) && value > 0 ? formatEuro(upfrontFee(value, months)) : '—'}
          </p>
          <p className="text-sm text-slate-700">
            {paymentTypeLabel(terms.paymentType)}
            {terms.installments ? ` in ${terms.installments} rate` : ' alla firma'}
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800 sm:col-span-2">
          <input type="checkbox" className="size-5 accent-brand-navy" {...register('hasKeys')} data-testid="option-has-keys" />
          Chiavi consegnate (pagamento anticipato; senza chiavi il venditore indica le disponibilità per le visite)
        </label>
        <Field label="Condivisione Agenti (%)" error={errors.agentCommissionPercentage?.message}>
          <Input type="number" min={0} max={100} step={0.1} {...register('agentCommissionPercentage', pct)} data-testid="option-agent" />
        </Field>
        <Field label="Condivisione Minima Agenti (%)" error={errors.minAgentCommissionPercentage?.message}>
          <Input type="number" min={0} max={100} step={0.1} {...register('minAgentCommissionPercentage', pct)} data-testid="option-min-agent" />
        </Field>
        <Field label="Percentuale Prezzo di Vendita (%)" error={errors.salePricePercentage?.message}>
          <Input type="number" min={0} max={100} step={0.1} {...register('salePricePercentage', pct)} data-testid="option-sale" />
        </Field>
        <Field label="Slot di visita minimi al mese" error={errors.minMonthlySlots?.message}>
          <Input type="number" min={1} max={100} step={1} {...register('minMonthlySlots', pct)} data-testid="option-slots" />
        </Field>
      </div>
      <Button type="submit" loading={create.isPending} data-testid="option-create">
        {!create.isPending && <FilePlus2 aria-hidden="true" className="size-4" />}
        Crea opzione di acquisto
      </Button>
    </form>
  );
}

function OptionSummary({ dossier, option }: { dossier: RequestDossier; option: PurchaseOption }) {
  const queryClient = useQueryClient();
  const propertyId = dossier.property.id;
  const pdf = dossier.documents.find((d) => d.key === option.documentKey);
  const notify = useMutation({
    mutationFn: () => notifySeller(propertyId),
    onSuccess: () => {
      toast.success(REVIEW_MESSAGES.notifySent);
      void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
    onError: (err) => toast.error(REVIEW_MESSAGES.notifyFailed, { description: errorMessage(err) }),
  });
  return (
    <div className="space-y-4" data-testid="option-summary">
      <div className="flex flex-wrap items-center gap-2">
        <OptionStateBadge status={option.status} />
        {option.signedAt ? (
          <Badge variant="success" data-testid="option-signed">
            <CheckCircle2 aria-hidden="true" className="mr-1 size-3.5" />
            Firmata il {formatDate(option.signedAt)}
          </Badge>
        ) : (
          <Badge variant="warning" data-testid="option-waiting">
            <Hourglass aria-hidden="true" className="mr-1 size-3.5" />
            In attesa del documento firmato
          </Badge>
        )}
      </div>
      {option.signedAt && <p className="font-semibold text-green-800">{option.signatureType === 'digitale' ? 'Firmata digitalmente' : 'Firmata'}</p>}
      {option.signedAt && option.signatureType === 'digitale' && option.signatureData && (
        <SignersList
          signers={option.signatureData.signers}
          title={`Firma digitale verificata${option.signatureData.format ? ` (${option.signatureData.format})` : ''}`}
          testId="option-signers"
        />
      )}
      <Facts
        rows={[
          { label: 'Valore immobile', value: formatEuro(option.propertyValue) },
          { label: optionAmountLabel(option.optionDuration), value: formatEuro(option.optionAmount), testId: 'option-amount' },
          { label: 'Durata', value: option.optionDuration ? `${option.optionDuration} mesi dalla firma` : 'Non registrata', testId: 'option-months' },
          { label: 'Scadenza', value: optionExpiryLabel(option), testId: 'option-expiry' },
          { label: 'Pagamento', value: `${paymentTypeLabel(option.paymentType)}${option.installments ? ` (${option.installments} rate)` : ''}` },
          { label: 'Chiavi consegnate', value: option.hasKeys ? 'Sì' : 'No' },
          { label: 'Condivisione agenti', value: `${formatDecimal(option.agentCommissionPercentage)}% (minima ${formatDecimal(option.minAgentCommissionPercentage)}%)` },
          { label: 'Prezzo di vendita', value: `${formatEuro(salePriceOf(option.propertyValue, option.salePricePercentage))} (+${formatDecimal(option.salePricePercentage)}%)` },
          { label: 'Creata il', value: formatDateTime(option.createdAt) },
          ...(option.status === 'cancelled' && option.cancelReason ? [{ label: 'Motivo dell\'annullamento', value: option.cancelReason, testId: 'option-cancel-reason-shown' }] : []),
          { label: 'Notifica al venditore', value: option.notifiedAt ? `Inviata il ${formatDateTime(option.notifiedAt)}` : 'Non inviata' },
        ]}
      />
      <div className="flex flex-wrap items-center gap-3">
        {pdf && (
          <DownloadLink href={pdf.url} testId="option-pdf">
            Scarica l'opzione (PDF)
          </DownloadLink>
        )}
        {(option.status === 'created' || option.status === 'sent') && (
          <Button variant="secondary" onClick={() => notify.mutate()} loading={notify.isPending} data-testid="option-notify">
            {!notify.isPending && <BellRing aria-hidden="true" className="size-4" />}
            Invia notifica al venditore
          </Button>
        )}
      </div>
      <OptionLifecycleActions propertyId={propertyId} option={option} />
      {option.signedAt && !option.hasKeys && RUNNING_OPTION_STATES.includes(option.status) && <AvailabilityPanel propertyId={propertyId} option={option} />}
    </div>
  );
}

function AvailabilityPanel({ propertyId, option }: { propertyId: string; option: PurchaseOption }) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => sendAvailabilityLink(propertyId),
    onSuccess: () => {
      toast.success('Link inviato', { description: 'Il venditore ha ricevuto il link per indicare le disponibilità' });
      void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
    onError: (err) => toast.error("Errore nell'invio del link", { description: errorMessage(err) }),
  });
  return (
    <section aria-labelledby="availability-title" className="rounded-xl border border-brand-orange/50 bg-brand-cream p-4" data-testid="availability-panel">
      <h4 id="availability-title" className="flex items-center gap-2 font-semibold text-brand-navy">
        <CalendarClock aria-hidden="true" className="size-5" />
        Invio Link Disponibilità
      </h4>
      <p className="mt-1 text-sm text-slate-700">
        Le chiavi restano al venditore: inviagli il link per indicare almeno {option.minMonthlySlots} slot di visita al mese.
      </p>
      {option.availabilityLinkSentAt && <p className="mt-1 text-sm font-medium text-green-800">Ultimo invio: {formatDateTime(option.availabilityLinkSentAt)}</p>}
      <Button className="mt-3" onClick={() => send.mutate()} loading={send.isPending} data-testid="availability-send">
        {option.availabilityLinkSentAt ? 'Invia di nuovo il link' : 'Invia link disponibilità'}
      </Button>
    </section>
  );
}

function SellerDocuments({ dossier }: { dossier: RequestDossier }) {
  const files: (DossierFile & { label: string })[] = [];
  const id = dossier.identity?.files ?? {};
  for (const k of ['documentFront', 'documentBack', 'facePhoto'] as const) {
    const f = id[k];
    if (f) files.push({ ...f, label: DOCUMENT_LABELS[k] });
  }
  for (const d of dossier.delegations) if (d.file) files.push({ ...d.file, label: `Delega: ${delegationLabel(d.type)}` });
  for (const d of dossier.documents) files.push({ ...d, label: d.kind === 'option' ? 'Opzione di acquisto (PDF)' : d.fileName });
  return (
    <div>
      <h3 className="font-semibold text-slate-900">Documenti del venditore</h3>
      {files.length ? (
        <ul className="mt-2 space-y-1" data-testid="seller-documents">
          {files.map((f) => (
            <li key={f.key}>
              <DownloadLink href={f.url}>{f.label}</DownloadLink>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600">Nessun documento caricato.</p>
      )}
    </div>
  );
}
