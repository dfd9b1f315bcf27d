/** Small building blocks of the Istruttoria page. */
import type { ReactNode } from 'react';
import { CheckCircle2, Circle, Download, Lock } from 'lucide-react';
import { Card, CardContent } from '@/components/ui';
import { cn } from '@/lib/cn';

export function StepCard({
  step,
  title,
  done,
  locked,
  lockedText,
  children,
  testId,
}: {
  step: number;
  title: string;
  done?: boolean;
  locked?: boolean;
  lockedText?: string;
  children: ReactNode;
  testId?: string;
}) {
  const headingId = `step-${step}-title`;
  return (
    <Card className={cn('mt-6', locked && 'bg-slate-50')} data-testid={testId}>
      <section aria-labelledby={headingId}>
        <CardContent>
          <h2 id={headingId} className="flex items-center gap-3 text-lg font-bold text-brand-navy sm:text-xl">
            <span
              aria-hidden="true"
              className={cn(
                'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
                done ? 'bg-green-700 text-white' : locked ? 'bg-slate-200 text-slate-600' : 'bg-brand-orange-dark text-white',
              )}
            >
              {done ? <CheckCircle2 className="size-5" /> : step}
            </span>
            <span>
              <span className="sr-only">Passo {step}: </span>
              {title}
            </span>
          </h2>
          {locked ? (
            <p className="mt-3 flex items-center gap-2 text-slate-600">
              <Lock aria-hidden="true" className="size-4" />
              {lockedText}
            </p>
          ) : (
            <div className="mt-4">{children}</div>
          )}
        </CardContent>
      </section>
    </Card>
  );
}

export interface Row {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** A label/value list, two columns from sm. */
export function Facts({ rows, className }: { rows: Row[]; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2', className)}>
      {rows.map((r) => (
        <div key={r.label} className="flex flex-wrap justify-between gap-x-3 border-b border-slate-100 pb-1.5">
          <dt className="text-sm text-slate-600">{r.label}</dt>
          <dd className="text-sm font-medium text-slate-900" data-testid={r.testId}>
            {r.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function SubStep({ n, title, done, current, children, testId }: { n: number; title: string; done: boolean; current: boolean; children?: ReactNode; testId?: string }) {
  return (
    <li className="relative border-l-2 border-slate-200 pb-6 pl-6 last:pb-0" data-testid={testId} data-done={done}>
      <span className="absolute -left-[11px] top-0 bg-white">
        {done ? (
          <CheckCircle2 aria-hidden="true" className="size-5 text-green-700" />
        ) : (
          <Circle aria-hidden="true" className={cn('size-5', current ? 'text-brand-orange-dark' : 'text-slate-400')} />
        )}
      </span>
      <h3 className="font-semibold text-slate-900">
        {n}. {title}
        <span className={cn('ml-2 text-sm font-normal', done ? 'text-green-800' : 'text-slate-600')}>{done ? '(completato)' : current ? '(in corso)' : '(da completare)'}</span>
      </h3>
      {children && <div className="mt-2 text-sm text-slate-700">{children}</div>}
    </li>
  );
}

export function DownloadLink({ href, children, testId }: { href: string; children: ReactNode; testId?: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1.5 rounded font-medium text-brand-navy underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
      data-testid={testId}
    >
      <Download aria-hidden="true" className="size-4" />
      {children}
    </a>
  );
}
