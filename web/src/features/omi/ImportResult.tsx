import { CircleCheck } from 'lucide-react';
import type { OmiJob } from './api';
import { formatDuration, formatNumber } from './format';

function Stat({ label, value, testId, tone }: { label: string; value: number; testId: string; tone?: 'danger' }) {
  return (
    <div className="rounded-xl bg-white/70 px-4 py-3">
      <dt className="text-sm text-green-900">{label}</dt>
      <dd className={tone === 'danger' ? 'text-2xl font-bold text-red-800' : 'text-2xl font-bold text-green-950'} data-testid={testId}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}

/** The green box after an import (spec 001): rows processed, inserted, updated, errors only when > 0. */
export function ImportResult({ job }: { job: OmiJob }) {
  const zone = job.fileKind === 'zone';
  const shown = job.rejectedReasons.length;
  return (
    <section
      aria-labelledby="omi-import-result-title"
      className="rounded-2xl border border-green-300 bg-green-50 p-5 sm:p-6"
      data-testid="omi-import-result"
    >
      <div className="flex items-start gap-3">
        <CircleCheck aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-green-700" />
        <div className="min-w-0">
          <h2 id="omi-import-result-title" className="text-lg font-bold text-green-900">
            Importazione completata
          </h2>
          <p className="mt-1 break-words text-sm text-green-900">
            {job.fileName && <span className="break-all">{job.fileName}</span>}
            {job.semester && <> · semestre {job.semester}</>}
            {zone && <> · descrizioni delle zone</>}
            {job.durationMs !== null && <> · in {formatDuration(job.durationMs)}</>}
          </p>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-[repeat(auto-fit,minmax(8.5rem,1fr))] gap-3">
        <Stat label="Righe elaborate" value={job.rowsRead} testId="omi-result-rows" />
        <Stat label="Nuovi record inseriti" value={job.inserted} testId="omi-result-inserted" />
        <Stat label="Record aggiornati" value={job.updated} testId="omi-result-updated" />
        {job.rejected > 0 && <Stat label="Errori" value={job.rejected} testId="omi-result-errors" tone="danger" />}
      </dl>
      {job.rejected > 0 && shown > 0 && (
        <details className="mt-4 rounded-xl bg-white/70 px-4 py-3 text-sm" data-testid="omi-result-rejected">
          <summary className="cursor-pointer font-semibold text-red-800">
            {shown < job.rejected
              ? `Mostra le prime ${formatNumber(shown)} righe scartate (su ${formatNumber(job.rejected)})`
              : `Mostra ${shown === 1 ? 'la riga scartata' : `le ${formatNumber(shown)} righe scartate`}`}
          </summary>
          <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto text-slate-800">
            {job.rejectedReasons.map((r) => (
              <li key={`${r.line}-${r.reason}`} className="break-words">
                <span className="font-semibold">Riga {formatNumber(r.line)}:</span> {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
