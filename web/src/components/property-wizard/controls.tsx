import { useId, useLayoutEffect, useRef, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { formatNumber, parseAmount } from '@domain/format';
import { controlClass } from '@/components/ui/Input';
import { cn } from '@/lib/cn';

/** A group of controls with a legend (radio groups, checkbox groups), its hint and error tied by id. */
export function Fieldset({
  legend,
  hint,
  error,
  errorId,
  children,
  className,
  legendClassName,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** id of the error text; the controls inside reference it with aria-describedby */
  errorId: string;
  children: ReactNode;
  className?: string;
  legendClassName?: string;
}) {
  const hintId = `${errorId}-hint`;
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} aria-describedby={[hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined}>
      <legend className={cn('mb-2 text-sm font-medium text-slate-800', legendClassName)}>{legend}</legend>
      {hint && (
        <p id={hintId} className="-mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

export interface ChoiceOption<V extends string> {
  value: V;
  label: string;
}

/** Radio buttons shown as segmented pills; native inputs, so arrows move and Space selects. */
export function RadioPills<V extends string>({
  legend,
  options,
  error,
  inputProps,
  testId,
  hint,
}: {
  legend: ReactNode;
  options: readonly ChoiceOption<V>[];
  error?: string;
  /** what register(name) returns */
  inputProps: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  testId?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Fieldset legend={legend} error={error} errorId={errorId} hint={hint}>
      <div className="flex flex-wrap gap-2" data-testid={testId}>
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              'relative inline-flex min-h-11 cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800',
              'has-[:checked]:border-brand-navy has-[:checked]:bg-brand-navy has-[:checked]:text-white',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-navy has-[:focus-visible]:ring-offset-2',
              error && 'border-red-700',
            )}
          >
            <input
              type="radio"
              value={o.value}
              className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              data-testid={testId ? `${testId}-${o.value}` : undefined}
              {...inputProps}
            />
            {o.label}
          </label>
        ))}
      </div>
    </Fieldset>
  );
}

/** A checkbox with its label on the right; big enough to hit with a thumb. */
export function Checkbox({
  label,
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; ref?: Ref<HTMLInputElement> }) {
  return (
    <label className={cn('flex min-h-11 cursor-pointer items-center gap-2.5 rounded-lg px-1 text-sm leading-snug text-slate-800', className)}>
      <input
        ref={ref}
        type="checkbox"
        className="size-5 shrink-0 cursor-pointer rounded border-slate-400 accent-brand-navy focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-navy"
        {...props}
      />
      <span>{label}</span>
    </label>
  );
}

/** An on/off toggle: a checkbox with role="switch", drawn as a switch. */
export function Switch({
  label,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; ref?: Ref<HTMLInputElement> }) {
  return (
    <label className="inline-flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-slate-800">
      <span className="relative inline-flex h-7 w-12 shrink-0 items-center">
        <input ref={ref} type="checkbox" role="switch" className="peer absolute inset-0 z-10 cursor-pointer opacity-0" {...props} />
        <span
          aria-hidden="true"
          className="absolute inset-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-brand-navy peer-focus-visible:ring-2 peer-focus-visible:ring-brand-navy peer-focus-visible:ring-offset-2"
        />
        <span aria-hidden="true" className="absolute left-1 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5" />
      </span>
      <span>{label}</span>
    </label>
  );
}

export function Textarea({ className, ref, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea ref={ref} className={cn(controlClass, 'min-h-24 py-2', className)} {...props} />;
}

/** Whole euros shown with Italian grouping ("250.000"); a pasted "250.000,00" stays 250.000. */
export function formatAmountInput(text: string): string {
  const value = parseAmount(text.replace(/[^\d.,€\s]/g, ''));
  if (value === null || Number.isNaN(value)) return '';
  return formatNumber(Number(String(value).slice(0, 10)));
}

/**
 * An amount input with a euro sign; the value is the formatted text (the schema parses it).
 * The caret stays after the same digit while the grouping dots come and go.
 */
export function AmountInput({
  value,
  onChange,
  className,
  ref,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & { value: string; onChange: (value: string) => void; ref?: Ref<HTMLInputElement> }) {
  const inner = useRef<HTMLInputElement | null>(null);
  const digitsBeforeCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = inner.current;
    const n = digitsBeforeCaret.current;
    digitsBeforeCaret.current = null;
    if (!el || n === null || document.activeElement !== el) return;
    let pos = 0;
    for (let seen = 0; pos < el.value.length && seen < n; pos++) if (/\d/.test(el.value[pos]!)) seen++;
    el.setSelectionRange(pos, pos);
  }, [value]);
  return (
    <div className="relative">
      <input
        ref={(el) => {
          inner.current = el;
          if (typeof ref === 'function') ref(el);
          else if (ref) ref.current = el;
        }}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        onChange={(e) => {
          const caret = e.target.selectionStart ?? e.target.value.length;
          digitsBeforeCaret.current = e.target.value.slice(0, caret).replace(/\D/g, '').length;
          onChange(formatAmountInput(e.target.value));
        }}
        className={cn(controlClass, 'h-11 pr-9 tabular-nums', className)}
        {...props}
      />
      <span aria-hidden="true" className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-slate-600">
        €
      </span>
    </div>
  );
}

/** A number input with a unit shown after it (m²). */
export function UnitInput({
  unit,
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { unit: string; ref?: Ref<HTMLInputElement> }) {
  return (
    <div className="relative">
      <input ref={ref} type="text" autoComplete="off" className={cn(controlClass, 'h-11 pr-12 tabular-nums', className)} {...props} />
      <span aria-hidden="true" className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-slate-600">
        {unit}
      </span>
    </div>
  );
}
