import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface ControlProps {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

export interface FieldProps {
  label: ReactNode;
  /** the input, select or textarea; it receives id, aria-describedby and aria-invalid */
  children: ReactElement<ControlProps>;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  id?: string;
  className?: string;
}

/** Label + control + hint + error, tied together with ids and aria-describedby. */
export function Field({ label, children, error, hint, optional, id, className }: FieldProps) {
  const auto = useId();
  const controlId = id ?? children.props.id ?? `field-${auto}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, { id: controlId, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })
    : children;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-800">
        {label}
        {optional && <span className="ml-1 font-normal text-slate-600">(facoltativo)</span>}
      </label>
      {control}
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
