import type { Ref } from 'react';
import { ArrowLeft, ArrowRight, Send } from 'lucide-react';
import { Button } from '@/components/ui';
import { cn } from '@/lib/cn';
import { STEP_COUNT, STEP_TITLES } from './form';

/** The navy band: "Passo n di 4", the step's title (focused on a step change) and the four marks. */
export function WizardHeader({ step, titleId, headingRef }: { step: number; titleId: string; headingRef: Ref<HTMLHeadingElement> }) {
  return (
    <div className="rounded-t-2xl bg-brand-navy px-5 py-4 sm:px-6">
      <p className="text-sm font-semibold text-orange-200" data-testid="wizard-progress">
        Passo {step + 1} di {STEP_COUNT}
      </p>
      <h3 ref={headingRef} id={titleId} tabIndex={-1} className="text-xl font-bold text-white focus:outline-none" data-testid="wizard-step-title">
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
  );
}

interface FooterProps {
  step: number;
  sending: boolean;
  /** uploads still running */
  pending: number;
  onBack: () => void;
  onCandidate: () => void;
}

/** 'Indietro', then 'Avanti' (the form's submit) or, on the last step, 'CANDIDA IL TUO IMMOBILE'. */
export function WizardFooter({ step, sending, pending, onBack, onCandidate }: FooterProps) {
  const last = step === STEP_COUNT - 1;
  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-5 py-4 sm:px-6">
      <div className={cn('gap-3 sm:flex sm:justify-between', last ? 'flex flex-col-reverse sm:flex-row' : 'grid grid-cols-2')}>
        <Button variant="outline" size="lg" onClick={onBack} disabled={step === 0 || sending} data-testid="wizard-back" className={cn(step === 0 && 'invisible')}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Indietro
        </Button>
        {last ? (
          <Button size="lg" onClick={onCandidate} loading={sending} data-testid="wizard-submit" className="h-auto min-h-12 px-3 py-2 text-[0.9375rem] tracking-tight sm:px-6 sm:text-base">
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
      {last && pending > 0 && (
        <p className="text-sm text-slate-600" aria-live="polite">
          Caricamento di {pending} file in corso: puoi già procedere, l&apos;invio attende la fine dei caricamenti.
        </p>
      )}
    </div>
  );
}
