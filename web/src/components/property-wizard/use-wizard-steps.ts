import { useEffect, useRef, useState } from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { STEP_COUNT, STEP_TITLES, stepOfField, type WizardValues } from './form';

export const ADDRESS_TOAST = ['Indirizzo richiesto', "Inserisci l'indirizzo dell'immobile per continuare"] as const;

type Focus = 'heading' | 'invalid';

interface StepsInput {
  step: number;
  setStep: (n: number) => void;
  form: UseFormReturn<WizardValues>;
  ensurePlaces: () => Promise<unknown>;
}

/**
 * Moving between the steps: validation of the steps shown so far, the step announced to
 * screen readers, and the focus after the render (the step's heading, or the first invalid
 * field, going to its step if needed).
 */
export function useWizardSteps({ step, setStep, form, ensurePlaces }: StepsInput) {
  const [announcement, setAnnouncement] = useState('');
  const invalidFields = useRef<string[]>([]);
  const [focusRequest, setFocusRequest] = useState<{ kind: Focus; n: number }>();
  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepBody = useRef<HTMLDivElement>(null);

  const announce = (n: number) => setAnnouncement(`Passo ${n + 1} di ${STEP_COUNT}: ${STEP_TITLES[n]}`);
  const requestFocus = (kind: Focus) => setFocusRequest((r) => ({ kind, n: (r?.n ?? 0) + 1 }));

  const goTo = (n: number, focus: Focus = 'heading') => {
    setStep(n);
    announce(n);
    requestFocus(focus);
  };

  const focusHeading = () => {
    heading.current?.focus({ preventScroll: true });
    root.current?.scrollIntoView({ block: 'start' });
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

  /** The fields the next 'invalid' focus looks for (known before their errors render). */
  const setInvalidFields = (fields: string[]) => {
    invalidFields.current = fields;
  };

  /** Focuses the first invalid field of the step that shows the first error (going there if needed). */
  const showErrors = (errors: FieldErrors<WizardValues>) => {
    const fields = Object.keys(errors);
    setInvalidFields(fields);
    if (fields.includes('address')) toast.error(ADDRESS_TOAST[0], { description: ADDRESS_TOAST[1], id: 'address-required' });
    const first = Math.min(...fields.map((f) => stepOfField(f) ?? step));
    if (first !== step) goTo(first, 'invalid');
    else requestFocus('invalid');
  };

  /** Validates the steps shown so far with the shared schema; calls `then` when they pass. */
  const validateThen = async (then: () => void) => {
    if (form.getValues('province')) await ensurePlaces();
    await form.handleSubmit(then, showErrors)();
  };

  const next = () => {
    if (step < STEP_COUNT - 1) void validateThen(() => goTo(step + 1));
  };

  const back = () => {
    if (step > 0) goTo(step - 1);
  };

  return { announcement, announce, goTo, setInvalidFields, focusHeading, validateThen, next, back, refs: { root, heading, stepBody } };
}
