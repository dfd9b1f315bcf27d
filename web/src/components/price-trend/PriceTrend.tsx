import { lazy, Suspense, useId } from 'react';
import { formatNumber } from '@domain/format';
import type { PriceTrend as Trend } from '@domain/omi/trend';

const PriceTrendPlot = lazy(() => import('./PriceTrendPlot'));

const sqm = (v: number | null) => (v === null ? '—' : formatNumber(v));

/**
 * A zone's price trend (functions/domain/omi/trend.ts): the changes in words, the notes
 * (zone redraw, semesters not checked), the min-max band per semester drawn, and the same
 * figures in a table that opens under the chart (the drawing is hidden from screen readers).
 */
export function PriceTrend({
  trend,
  title,
  subtitle,
  headingLevel = 3,
  testId = 'price-trend',
}: {
  trend: Trend;
  title: string;
  subtitle?: string;
  /** the heading's level in the page's outline */
  headingLevel?: 2 | 3;
  testId?: string;
}) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const drawable = trend.points.filter((p) => p.mid !== null).length > 1;
  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-3 rounded-xl border border-slate-200 p-4" data-testid={testId}>
      <div>
        <Heading id={headingId} className="font-semibold text-slate-900">
          {title}
        </Heading>
        {subtitle && <p className="text-sm text-slate-700">{subtitle}</p>}
      </div>
      {trend.notes.map((n) => (
        <p key={n} role="note" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid={`${testId}-note`}>
          {n}
        </p>
      ))}
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" data-testid={`${testId}-changes`}>
        {trend.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      {drawable && (
        <div aria-hidden="true" className="h-[260px] w-full min-w-0 overflow-hidden" data-testid={`${testId}-chart`}>
          <Suspense fallback={<div className="h-full w-full animate-pulse rounded-lg bg-slate-100" />}>
            <PriceTrendPlot points={trend.points} />
          </Suspense>
        </div>
      )}
      {drawable && (
        <p className="flex flex-wrap gap-4 text-xs text-slate-700" aria-hidden="true">
          <span className="flex items-center gap-1">
            <span className="inline-block h-3 w-5 rounded-sm border border-brand-navy bg-brand-navy/20" /> minimo - massimo
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-0.5 w-5 bg-brand-orange" /> valore medio
          </span>
          <span>euro al m²</span>
        </p>
      )}
      <details className="text-sm" open={!drawable} data-testid={`${testId}-table`}>
        <summary className="cursor-pointer font-semibold text-brand-navy">Valori per semestre in tabella</summary>
        <div className="mt-2 overflow-x-auto" role="region" aria-label={`${title}: valori per semestre`} tabIndex={0}>
          <table className="w-full min-w-[360px] text-left text-sm">
            <caption className="sr-only">
              {title}
              {subtitle ? ` (${subtitle})` : ''}: quotazioni in euro al metro quadro per semestre, dal più vecchio
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="px-3 py-1">Semestre</th>
                <th scope="col" className="px-3 py-1 text-right">Minimo €/m²</th>
                <th scope="col" className="px-3 py-1 text-right">Massimo €/m²</th>
                <th scope="col" className="px-3 py-1 text-right">Medio €/m²</th>
              </tr>
            </thead>
            <tbody>
              {trend.points.map((p) => (
                <tr key={p.semester} className="border-t border-slate-100">
                  <th scope="row" className="px-3 py-1 font-medium">{p.semester}</th>
                  <td className="px-3 py-1 text-right tabular-nums">{sqm(p.min)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{sqm(p.max)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{sqm(p.mid)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
