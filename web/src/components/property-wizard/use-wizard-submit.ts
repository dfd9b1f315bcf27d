import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { ComuniModule } from '@domain/places';
import { propertyFields } from '@domain/property/schema';
import type { SubmissionResult } from '@domain/property/submission';
import { api, GENERIC_ERROR_MESSAGE, isApiError, type ApiError } from '@/lib/api';
import { readSourceId } from '@/lib/source-id';
import type { ContactOutput } from './ContactDialog';
import type { ContactDraft } from './draft';
import { DEFAULT_VALUES, stepOfField, validateDetails, type WizardField, type WizardValues } from './form';
import type { RoomsStore } from './rooms-store';
import type { useWizardDraft } from './use-wizard-draft';
import type { useWizardSteps } from './use-wizard-steps';

export const SUCCESS_TOAST = ['Candidatura inviata!', 'Il tuo immobile è stato candidato con successo'] as const;
const UPLOADS_FAILED = 'Alcuni file non sono stati caricati: riprova il caricamento o rimuovili.';
const MEDIA_STEP = 3;

type SubmissionBody = Record<string, unknown>;
type ContactErrors = Partial<Record<keyof ContactDraft, string>>;

const CONTACT_KEYS = ['firstName', 'lastName', 'email', 'phone', 'privacyConsent'] as const;
const PROPERTY_KEYS = Object.keys(propertyFields).filter((k) => k !== 'rooms');

interface SubmitInput {
  store: RoomsStore;
  form: UseFormReturn<WizardValues>;
  draft: ReturnType<typeof useWizardDraft>;
  nav: ReturnType<typeof useWizardSteps>;
  currentPlaces: () => ComuniModule | undefined;
  skipContactDialog: boolean;
  submitPath: string;
  onSubmitted?: (result: SubmissionResult) => void;
}

/**
 * 'CANDIDA IL TUO IMMOBILE': validates, opens the contact dialog (unless skipped), waits
 * for the uploads, then POST /properties. A success starts a new draft; a failure keeps
 * everything (values, uploads, draft id) and shows each server error where it belongs.
 */
export function useWizardSubmit({ store, form, draft, nav, currentPlaces, skipContactDialog, submitPath, onSubmitted }: SubmitInput) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [waitingUploads, setWaitingUploads] = useState(false);
  const [contactErrors, setContactErrors] = useState<ContactErrors>();
  const { getValues, setError } = form;

  const reset = () => {
    draft.startNew();
    setContactErrors(undefined);
    setDialogOpen(false);
    nav.announce(0);
  };

  /** A 400 with errors per field: each shown where it belongs. */
  const showFieldErrors = (err: ApiError & { fields: Record<string, string> }) => {
    const contactFieldErrors: ContactErrors = {};
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
        firstStep = Math.min(firstStep ?? MEDIA_STEP, MEDIA_STEP);
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
    nav.setInvalidFields(Object.keys(err.fields).map((p) => p.split('.')[0]!));
    if (firstStep !== undefined) nav.goTo(firstStep, 'invalid');
  };

  const mutation = useMutation({
    mutationFn: (body: SubmissionBody) => api.post<SubmissionResult>(submitPath, body),
    onSuccess: (result) => {
      toast.success(SUCCESS_TOAST[0], { description: SUCCESS_TOAST[1] });
      reset();
      if (onSubmitted) onSubmitted(result);
      else requestAnimationFrame(nav.focusHeading);
    },
    onError: (err) => {
      // everything stays (values, uploads, draft id): the person can retry as it is
      if (isApiError(err, 400) && err.fields) {
        showFieldErrors(err as ApiError & { fields: Record<string, string> });
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
      if (draft.step !== MEDIA_STEP) nav.goTo(MEDIA_STEP);
      return;
    }
    const checked = validateDetails(getValues(), { places: currentPlaces() });
    if (!checked.ok) {
      // cannot happen after validateThen; kept as a guard against a changed contract
      setDialogOpen(false);
      void nav.validateThen(() => undefined);
      return;
    }
    const details = checked.details as Record<string, unknown>;
    const body: SubmissionBody = {
      propertyDraftId: draft.draftIdRef.current,
      sourceId: readSourceId(),
      website: getValues('website'),
      ...Object.fromEntries(PROPERTY_KEYS.map((k) => [k, details[k]])),
      rooms: store.body(),
      ...(who ?? { firstName: '', lastName: '', email: '', phone: '', privacyConsent: true }),
    };
    setContactErrors(undefined);
    mutation.mutate(body);
  };

  const openContact = () => {
    const { failed } = store.getSnapshot();
    if (failed) {
      toast.error('Errore', { description: UPLOADS_FAILED });
      requestAnimationFrame(() =>
        nav.refs.stepBody.current?.querySelector<HTMLElement>('[data-testid="wizard-media-retry"], [data-testid="wizard-media-remove"]')?.focus(),
      );
      return;
    }
    if (skipContactDialog) void send(null);
    else setDialogOpen(true);
  };

  const candidate = () => void nav.validateThen(openContact);

  return { dialogOpen, closeDialog: () => setDialogOpen(false), contactErrors, sending, send, candidate };
}
