import { useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import type { SubmissionResult } from '@domain/property/submission';
import { Card } from '@/components/ui';
import { ContactDialog } from './ContactDialog';
import { loadDraft, newDraft } from './draft';
import { STEP_COUNT } from './form';
import { StepBasics } from './steps/StepBasics';
import { StepDetails } from './steps/StepDetails';
import { StepLocation } from './steps/StepLocation';
import { StepMedia } from './steps/StepMedia';
import { useRoomsStore } from './use-rooms-store';
import { useWizardDraft } from './use-wizard-draft';
import { useWizardForm } from './use-wizard-form';
import { useWizardSteps } from './use-wizard-steps';
import { useWizardSubmit } from './use-wizard-submit';
import { WizardFooter, WizardHeader } from './WizardChrome';

export { ADDRESS_TOAST } from './use-wizard-steps';
export { SUCCESS_TOAST } from './use-wizard-submit';

export interface PropertyWizardProps {
  /**
   * The spec's wizard option: no contact dialog, the submission goes with empty contact
   * data and consent true (for callers that already know who the person is).
   */
  skipContactDialog?: boolean;
  /** where the submission goes: the public POST /properties, or a signed-in seller's own route */
  submitPath?: '/properties' | '/seller/properties';
  /** after a successful submission (e.g. close the dialog and reload the list) */
  onSubmitted?: (result: SubmissionResult) => void;
}

/**
 * The 4-step property submission wizard of the home page (spec 000 sections 2, 4, 5, 7).
 * Step 1-3 fields are a react-hook-form form validated step by step with the shared
 * schema (use-wizard-form); step 4's rooms and media live in a RoomsStore that uploads
 * straight to S3. The whole draft is kept in local storage until the submission succeeds
 * (use-wizard-draft); a failed one keeps everything (same draft id, uploads done) for a
 * retry (use-wizard-submit).
 */
export default function PropertyWizard({ skipContactDialog = false, submitPath = '/properties', onSubmitted }: PropertyWizardProps) {
  const [initial] = useState(() => loadDraft() ?? newDraft());
  const { store, snapshot } = useRoomsStore(initial.draftId, initial.rooms);
  /** the last step shown: the form validates the fields up to it */
  const stepRef = useRef(initial.step);
  const { form, places, currentPlaces, ensurePlaces, onProvinceChange } = useWizardForm(initial.values, stepRef);
  const draft = useWizardDraft(initial, form, store, stepRef);
  const { step } = draft;
  const nav = useWizardSteps({ step, setStep: draft.setStep, form, ensurePlaces });
  const submit = useWizardSubmit({ store, form, draft, nav, currentPlaces, skipContactDialog, submitPath, onSubmitted });

  const last = step === STEP_COUNT - 1;
  const titleId = 'wizard-step-title';

  return (
    <Card className="overflow-visible" data-testid="wizard" data-draft-id={draft.draftId} data-step={step + 1}>
      <div ref={nav.refs.root} className="scroll-mt-24">
        <WizardHeader step={step} titleId={titleId} headingRef={nav.refs.heading} />
        <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="wizard-announcer">
          {nav.announcement}
        </p>

        <FormProvider {...form}>
          <form
            noValidate
            aria-labelledby={titleId}
            onSubmit={(e) => {
              e.preventDefault();
              if (!last) nav.next();
            }}
          >
            <div ref={nav.refs.stepBody} className="px-5 py-6 sm:px-6">
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

            <WizardFooter step={step} sending={submit.sending} pending={snapshot.pending} onBack={nav.back} onCandidate={submit.candidate} />
          </form>
        </FormProvider>
      </div>

      <ContactDialog
        key={draft.draftId}
        open={submit.dialogOpen}
        onClose={submit.closeDialog}
        initial={draft.contact.current}
        onDraftChange={draft.onContactDraft}
        onConfirm={(who) => void submit.send(who)}
        sending={submit.sending}
        serverErrors={submit.contactErrors}
      />
    </Card>
  );
}
