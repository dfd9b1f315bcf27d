import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, ArrowRight, Send } from 'lucide-react';
import { loadComuni, type ComuniModule } from '@domain/places';
import { propertyFields } from '@domain/property/schema';
import { Button, Card } from '@/components/ui';
import { api, GENERIC_ERROR_MESSAGE, isApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { readSourceId } from '../source-id';
import { ContactDialog, type ContactOutput } from './ContactDialog';
import { clearDraft, EMPTY_CONTACT, loadDraft, newDraft, saveDraft, type ContactDraft } from './draft';
import { DEFAULT_VALUES, STEP_COUNT, STEP_TITLES, stepOfField, validateDetails, wizardResolver, type WizardField, type WizardValues } from './form';
import { RoomsStore } from './rooms-store';
import { StepBasics } from './steps/StepBasics';
import { StepDetails } from './steps/StepDetails';
import { StepLocation } from './steps/StepLocation';
import { StepMedia } from './steps/StepMedia';

export const ADDRESS_TOAST = ['Indirizzo richiesto', "Inserisci l'indirizzo dell'immobile per continuare"] as const;
export const SUCCESS_TOAST = ['Candidatura inviata!', 'Il tuo immobile è stato candidato con successo'] as const;
const UPLOADS_FAILED = 'Alcuni file non sono stati caricati: riprova il caricamento o rimuovili.';

interface SubmissionResult {
  propertyId: string;
  createdAt: string;
  status: 'submitted';
}

type SubmissionBody = Record<string, unknown>;

const CONTACT_KEYS = ['firstName', 'lastName', 'email', 'phone', 'privacyConsent'] as const;
const PROPERTY_KEYS = Object.keys(propertyFields).filter((k) => k !== 'rooms');

export interface PropertyWizardProps {
  /**
   * The spec's wizard option: no contact dialog, the submission goes with empty contact
   * data and consent true (for callers that already know who the person is).
   */
  skipContactDialog?: boolean;
}

/**
 * The 4-step property submission wizard of the home page (spec 000 sections 2, 4, 5, 7).
 * Step 1-3 fields are a react-hook-form form validated step by step with the shared
 * schema; step 4's rooms and media live in a RoomsStore that uploads straight to S3. The
 * whole draft is kept in local storage until the submission succeeds; a failed one keeps
 * everything (same draft id, uploads done) for a retry.
 */
export default function PropertyWizard({ skipContactDialog = false }: PropertyWizardProps) {
  const [initial] = useState(() => loadDraft() ?? newDraft());
  const [draftId, setDraftId] = useState(initial.draftId);
  const [step, setStep] = useState(initial.step);
  const [store] = useState(() => new RoomsStore(initial.draftId, initial.rooms));
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const contact = useRef<ContactDraft>(initial.contact);
  const [places, setPlaces] = useState<ComuniModule>();
  const placesRef = useRef<ComuniModule | undefined>(undefined);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [waitingUploads, setWaitingUploads] = useState(false);
  const [contactErrors, setContactErrors] = useState<Partial<Record<keyof ContactDraft, string>>>();
  const [announcement, setAnnouncement] = useState('');
  const invalidFields = useRef<string[]>([]);
  const [focusRequest, setFocusRequest] = useState<{ kind: 'heading' | 'invalid'; n: number }>();
  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepBody = useRef<HTMLDivElement>(null);

  const stepRef = useRef(step);
  stepRef.current = step;
  const resolver = useMemo(() => wizardResolver(() => ({ places: placesRef.current }), () => stepRef.current), []);
  // errors appear when 'Avanti' is pressed (no layout jump under the pointer on blur), then
  // follow each change until fixed
  const form = useForm<WizardValues>({ defaultValues: initial.values, mode: 'onSubmit', reValidateMode: 'onChange', resolver, shouldFocusError: false });
  const { getValues, setValue, clearErrors, setError } = form;

  // ---- places: the comuni chunk is loaded once a province is chosen -----------------------

  const ensurePlaces = useCallback(async () => {
    if (placesRef.current) return placesRef.current;
    const m = await loadComuni();
    placesRef.current = m;
    setPlaces(m);
    return m;
  }, []);

  useEffect(() => {
    if (initial.values.province) void ensurePlaces();
  }, [initial.values.province, ensurePlaces]);

  const onProvinceChange = useCallback(
    (code: string) => {
      if (!code) {
        setValue('city', '');
        return;
      }
      // the comune typed before this change; one typed while the list loads is the person's new choice
      const city = getValues('city');
      void ensurePlaces().then((m) => {
        if (city && getValues('city') === city && getValues('province') === code && !m.findComune(code, city)) {
          setValue('city', '');
          clearErrors('city');
        }
      });
    },
    [ensurePlaces, getValues, setValue, clearErrors],
  );

  // ---- the draft in local storage ----------------------------------------------------------

  const state = useRef({ draftId, step });
  state.current = { draftId, step };
  const saveTimer = useRef<number | undefined>(undefined);
  const saveNow = useCallback(() => {
    window.clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    saveDraft({ draftId: state.current.draftId, step: state.current.step, values: getValues(), rooms: store.stored(), contact: contact.current });
  }, [getValues, store]);
  const saveSoon = useCallback(() => {
    window.clearTimeout(saveTimer.current);
    saveTimer.current = window.setTimeout(saveNow, 300);
  }, [saveNow]);

  useEffect(() => {
    const sub = form.watch(() => saveSoon());
    const offRooms = store.onPersistableChange(saveNow);
    const flush = () => {
      if (saveTimer.current !== undefined) saveNow();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      sub.unsubscribe();
      offRooms();
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [form, store, saveNow, saveSoon]);

  useEffect(() => () => store.dispose(), [store]);

  const onContactDraft = useCallback(
    (c: ContactDraft) => {
      contact.current = c;
      saveSoon();
    },
    [saveSoon],
  );

  // ---- steps -------------------------------------------------------------------------------

  const goTo = (n: number, focus: 'heading' | 'invalid' = 'heading') => {
    setStep(n);
    state.current.step = n;
    saveNow();
    setAnnouncement(`Passo ${n + 1} di ${STEP_COUNT}: ${STEP_TITLES[n]}`);
    setFocusRequest((r) => ({ kind: focus, n: (r?.n ?? 0) + 1 }));
  };

  // focus after the render that shows the new step or the errors
  useEffect(() => {
    if (!focusRequest) return;
    // the first control, in page order, of a field with an error (names are known before the errors render)
    const names = invalidFields.current;
    const invalid =
      focusRequest.kind === 'invalid'
        ? ([...(stepBody.current?.querySelectorAll<HTMLElement>('[name]') ?? [])].find((el) => names.includes(el.getAttribute('name') ?? '')) ??
          stepBody.current?.querySelector<HTMLElement>('[aria-invalid="true"]'))
        : null;
    if (invalid) {
      invalid.focus();
      invalid.scrollIntoView({ block: 'center' });
    } else {
      heading.current?.focus({ preventScroll: true });
      root.current?.scrollIntoView({ block: 'start' });
    }
  }, [focusRequest]);

  /** Focuses the first invalid field of the step that shows the first error (going there if needed). */
  const showErrors = (errors: FieldErrors<WizardValues>) => {
    const fields = Object.keys(errors);
    invalidFields.current = fields;
    if (fields.includes('address')) toast.error(ADDRESS_TOAST[0], { description: ADDRESS_TOAST[1], id: 'address-required' });
    const first = Math.min(...fields.map((f) => stepOfField(f) ?? step));
    if (first !== step) goTo(first, 'invalid');
    else setFocusRequest((r) => ({ kind: 'invalid', n: (r?.n ?? 0) + 1 }));
  };

  /** Validates the steps shown so far with the shared schema; calls `then` when they pass. */
  const validateThen = async (then: () => void) => {
    if (getValues('province')) await ensurePlaces();
    await form.handleSubmit(then, showErrors)();
  };

  const next = () => {
    if (step < STEP_COUNT - 1) void validateThen(() => goTo(step + 1));
  };

  const back = () => {
    if (step > 0) goTo(step - 1);
  };

  // ---- submission --------------------------------------------------------------------------

  const reset = () => {
    clearDraft();
    const fresh = newDraft();
    setDraftId(fresh.draftId);
    state.current = { draftId: fresh.draftId, step: 0 };
    store.reset(fresh.draftId);
    form.reset(DEFAULT_VALUES);
    contact.current = { ...EMPTY_CONTACT };
    setContactErrors(undefined);
    setDialogOpen(false);
    setStep(0);
    setAnnouncement(`Passo 1 di ${STEP_COUNT}: ${STEP_TITLES[0]}`);
  };

  const mutation = useMutation({
    mutationFn: (body: SubmissionBody) => api.post<SubmissionResult>('/properties', body),
    onSuccess: () => {
      toast.success(SUCCESS_TOAST[0], { description: SUCCESS_TOAST[1] });
      reset();
      requestAnimationFrame(() => {
        heading.current?.focus({ preventScroll: true });
        root.current?.scrollIntoView({ block: 'start' });
      });
    },
    onError: (err) => {
      // everything stays (values, uploads, draft id): the person can retry as it is
      if (isApiError(err, 400) && err.fields) {
        const contactFieldErrors: Partial<Record<keyof ContactDraft, string>> = {};
        let firstStep: number | undefined;
        for (const [path, message] of Object.entries(err.fields)) {
          const field = path.split('.')[0]!;
          if ((CONTACT_KEYS as readonly string[]).includes(field)) {
            if (field !== 'privacyConsent') contactFieldErrors[field as keyof ContactDraft] = message;
            continue;
          }
          const m = /^rooms\.(\d+)\.media\.(\d+)\.key$/.exec(path);
          if (m) {
            const key = store.body()[Number(m[1])]?.media[Number(m[2])]?.key;
            if (key) store.markFailed(key, message);
            firstStep = Math.min(firstStep ?? 3, 3);
            continue;
          }
          const s = stepOfField(field);
          if (s !== undefined && field in DEFAULT_VALUES) setError(field as WizardField, { type: 'server', message });
          if (s !== undefined) firstStep = Math.min(firstStep ?? s, s);
        }
        toast.error('Errore', { description: err.message });
        if (Object.keys(contactFieldErrors).length && firstStep === undefined) {
          setContactErrors(contactFieldErrors);
          return;
        }
        setDialogOpen(false);
        invalidFields.current = Object.keys(err.fields).map((p) => p.split('.')[0]!);
        if (firstStep !== undefined) goTo(firstStep, 'invalid');
        return;
      }
      const description = isApiError(err, 429) ? err.message : GENERIC_ERROR_MESSAGE;
      toast.error('Errore', { description });
    },
  });

  const sending = waitingUploads || mutation.isPending;

  const send = async (who: ContactOutput | null) => {
    setWaitingUploads(true);
    const settled = await store.whenSettled();
    setWaitingUploads(false);
    if (settled.failed) {
      toast.error('Errore', { description: UPLOADS_FAILED });
      setDialogOpen(false);
      if (step !== 3) goTo(3);
      return;
    }
    const checked = validateDetails(getValues(), { places: placesRef.current });
    if (!checked.ok) {
      // cannot happen after validateThen; kept as a guard against a changed contract
      setDialogOpen(false);
      void validateThen(() => undefined);
      return;
    }
    const details = checked.details as Record<string, unknown>;
    const body: SubmissionBody = {
      propertyDraftId: state.current.draftId,
      sourceId: readSourceId(),
      website: getValues('website'),
      ...Object.fromEntries(PROPERTY_KEYS.map((k) => [k, details[k]])),
      rooms: store.body(),
      ...(who ?? { firstName: '', lastName: '', email: '', phone: '', privacyConsent: true }),
    };
    setContactErrors(undefined);
    mutation.mutate(body);
  };

  const candidate = () => void validateThen(openContact);

  const openContact = () => {
    const { failed } = store.getSnapshot();
    if (failed) {
      toast.error('Errore', { description: UPLOADS_FAILED });
      requestAnimationFrame(() => stepBody.current?.querySelector<HTMLElement>('[data-testid="wizard-media-retry"], [data-testid="wizard-media-remove"]')?.focus());
      return;
    }
    if (skipContactDialog) void send(null);
    else setDialogOpen(true);
  };

  const last = step === STEP_COUNT - 1;
  const titleId = 'wizard-step-title';

  return (
    <Card className="overflow-visible" data-testid="wizard" data-draft-id={draftId} data-step={step + 1}>
      <div ref={root} className="scroll-mt-24">
        <div className="rounded-t-2xl bg-brand-navy px-5 py-4 sm:px-6">
          <p className="text-sm font-semibold text-orange-200" data-testid="wizard-progress">
            Passo {step + 1} di {STEP_COUNT}
          </p>
          <h3 ref={heading} id={titleId} tabIndex={-1} className="text-xl font-bold text-white focus:outline-none" data-testid="wizard-step-title">
            {STEP_TITLES[step]}
          </h3>
          <ol className="mt-3 grid grid-cols-4 gap-1.5" aria-label="Avanzamento">
            {STEP_TITLES.map((t, i) => (
              <li key={t} aria-current={i === step ? 'step' : undefined}>
                <span className={cn('block h-1.5 rounded-full', i <= step ? 'bg-brand-orange' : 'bg-white/25')} />
                <span className="sr-only">
                  Passo {i + 1}: {t}
                  {i < step ? ' (completato)' : ''}
                </span>
              </li>
            ))}
          </ol>
        </div>
        <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="wizard-announcer">
          {announcement}
        </p>

        <FormProvider {...form}>
          <form
            noValidate
            aria-labelledby={titleId}
            onSubmit={(e) => {
              e.preventDefault();
              if (!last) next();
            }}
          >
            <div ref={stepBody} className="px-5 py-6 sm:px-6">
              {step === 0 && <StepLocation places={places} onProvinceChange={onProvinceChange} />}
              {step === 1 && <StepBasics />}
              {step === 2 && <StepDetails />}
              {step === 3 && <StepMedia store={store} snapshot={snapshot} />}
            </div>

            {/* honeypot: people never see it; bots fill it */}
            <div aria-hidden="true" className="absolute -left-[10000px] top-auto size-px overflow-hidden">
              <label htmlFor="wizard-website">Sito web (lascia vuoto)</label>
              <input id="wizard-website" type="text" tabIndex={-1} autoComplete="off" {...form.register('website')} />
            </div>

            <div className="flex flex-col gap-3 border-t border-slate-200 px-5 py-4 sm:px-6">
              <div className={cn('gap-3 sm:flex sm:justify-between', last ? 'flex flex-col-reverse sm:flex-row' : 'grid grid-cols-2')}>
                <Button variant="outline" size="lg" onClick={back} disabled={step === 0 || sending} data-testid="wizard-back" className={cn(step === 0 && 'invisible')}>
                  <ArrowLeft aria-hidden="true" className="size-4" />
                  Indietro
                </Button>
                {last ? (
                  <Button size="lg" onClick={candidate} loading={sending} data-testid="wizard-submit" className="h-auto min-h-12 px-3 py-2 text-[0.9375rem] tracking-tight sm:px-6 sm:text-base">
                    {sending ? 'Generazione in corso...' : 'CANDIDA IL TUO IMMOBILE'}
                    {!sending && <Send aria-hidden="true" className="hidden size-4 sm:block" />}
                  </Button>
                ) : (
                  <Button type="submit" size="lg" data-testid="wizard-next">
                    Avanti
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Button>
                )}
              </div>
              {last && snapshot.pending > 0 && (
                <p className="text-sm text-slate-600" aria-live="polite">
                  Caricamento di {snapshot.pending} file in corso: puoi già procedere, l&apos;invio attende la fine dei caricamenti.
                </p>
              )}
            </div>
          </form>
        </FormProvider>
      </div>

      <ContactDialog
        key={draftId}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        initial={contact.current}
        onDraftChange={onContactDraft}
        onConfirm={(who) => void send(who)}
        sending={sending}
        serverErrors={contactErrors}
      />
    </Card>
  );
}
