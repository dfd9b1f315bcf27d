import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { clearDraft, EMPTY_CONTACT, newDraft, saveDraft, type ContactDraft, type WizardDraft } from './draft';
import { DEFAULT_VALUES, type WizardValues } from './form';
import type { RoomsStore } from './rooms-store';

/**
 * The whole draft (id, step, values, rooms, contact) kept in local storage until the
 * submission succeeds: saved 300 ms after a change of the form, at once on a step change
 * or a change of the rooms, and when the page is hidden or the wizard goes away.
 */
export function useWizardDraft(initial: WizardDraft, form: UseFormReturn<WizardValues>, store: RoomsStore, stepRef: RefObject<number>) {
  const [draftId, setDraftId] = useState(initial.draftId);
  const [step, setStepState] = useState(initial.step);
  const draftIdRef = useRef(draftId);
  draftIdRef.current = draftId;
  stepRef.current = step;
  const contact = useRef<ContactDraft>(initial.contact);
  const { getValues } = form;

  const saveTimer = useRef<number | undefined>(undefined);
  const saveNow = useCallback(() => {
    window.clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    saveDraft({ draftId: draftIdRef.current, step: stepRef.current, values: getValues(), rooms: store.stored(), contact: contact.current });
  }, [getValues, store, stepRef]);
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

  const onContactDraft = useCallback(
    (c: ContactDraft) => {
      contact.current = c;
      saveSoon();
    },
    [saveSoon],
  );

  /** Shows step `n` and saves it. */
  const setStep = useCallback(
    (n: number) => {
      setStepState(n);
      stepRef.current = n;
      saveNow();
    },
    [saveNow, stepRef],
  );

  /** After a submission: a new, empty draft at step 1. */
  const startNew = () => {
    clearDraft();
    const fresh = newDraft();
    setDraftId(fresh.draftId);
    draftIdRef.current = fresh.draftId;
    stepRef.current = 0;
    store.reset(fresh.draftId);
    form.reset(DEFAULT_VALUES);
    contact.current = { ...EMPTY_CONTACT };
    setStepState(0);
  };

  return { draftId, draftIdRef, step, setStep, contact, onContactDraft, startNew };
}
