import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface ProgressBarProps {
  /** what is progressing (also the bar's accessible name) */
  label: string;
  /** 0..100 */
  value: number;
  /** spoken with the value, e.g. "1.200 righe lette" */
  valueText?: string;
  children?: ReactNode;
  tone?: 'brand' | 'danger';
  className?: string;
  'data-testid'?: string;
}

/** A determinate progress bar (role=progressbar with aria-valuenow) and its details. */
export function ProgressBar({ label, value, valueText, children, tone = 'brand', className, ...rest }: ProgressBarProps) {
  const labelId = useId();
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className={cn('space-y-2', className)} data-testid={rest['data-testid']}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id={labelId} className="font-semibold text-slate-900" aria-live="polite">
          {label}
        </span>
        <span className="tabular-nums font-semibold text-slate-700">{pct}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={valueText ? `${pct}% – ${valueText}` : `${pct}%`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', tone === 'danger' ? 'bg-red-700' : 'bg-brand-orange')}
          style={{ width: `${pct}%` }}
        />
      </div>
      {children && <div className="text-sm text-slate-700">{children}</div>}
    </div>
  );
}
