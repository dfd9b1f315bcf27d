import type { ReactNode } from 'react';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import type { OmiJob, RejectedRow, UnmatchedComune } from '@domain/omi/api';
import { formatDuration, formatNumber } from './format';

const STAT_TONES = { default: 'text-green-950', danger: 'text-red-800', warning: 'text-amber-800' } as const;

function Stat({ label, value, testId, tone = 'default' }: { label: string; value: number; testId: string; tone?: keyof typeof STAT_TONES }) {
  return (
    <div className="rounded-xl bg-white/70 px-4 py-3">
      <dt className="text-sm text-green-900">{label}</dt>
      <dd className={`text-2xl font-bold ${STAT_TONES[tone]}`} data-testid={testId}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}

/** "1 riga" / "12 righe" */
function rows(n: number, one: string, many: string): string {
  return n === 1 ? `1 ${one}` : `${formatNumber(n)} ${many}`;
}

/**
 * The success toast's description: the spec's "{imported} nuovi record, {updated} aggiornati",
 * then, each on its own line, the rows kept with a warning and the rows rejected.
 */
export function importSummary(job: OmiJob): ReactNode {
  const summary = `${formatNumber(job.inserted)} nuovi record, ${formatNumber(job.updated)} aggiornati`;
  if (job.warnings === 0 && job.rejected === 0) return summary;
  return (
    <>
      <span className="block">{summary}</span>
      {job.warnings > 0 && (
        <span className="block">{rows(job.warnings, 'riga importata con avviso', 'righe importate con avviso')} (valore non leggibile salvato vuoto)</span>
      )}
      {job.rejected > 0 && <span className="block">{rows(job.rejected, 'riga scartata', 'righe scartate')}</span>}
    </>
  );
}

/** The first rows of a list (capped by the server), behind a "Mostra ..." disclosure. */
function RowList({ items, total, what, testId, tone }: { items: RejectedRow[]; total: number; what: [string, string]; testId: string; tone: 'danger' | 'warning' }) {
  const shown = items.length;
  if (shown === 0) return null;
  const capped = shown < total;
  // "Mostra la riga scartata", "Mostra le prime 20 righe scartate (su 1.234)"
  const summary =
    (shown === 1 ? `Mostra la ${capped ? 'prima ' : ''}${what[0]}` : `Mostra le ${capped ? 'prime ' : ''}${formatNumber(shown)} ${what[1]}`) +
    (capped ? ` (su ${formatNumber(total)})` : '');
  return (
    <details className={tone === 'danger' ? 'mt-4 rounded-xl bg-white/70 px-4 py-3 text-sm' : 'mt-2'} data-testid={testId}>
      <summary className={`cursor-pointer font-semibold ${tone === 'danger' ? 'text-red-800' : 'text-amber-900'}`}>
        {summary}
      </summary>
      <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto text-slate-800">
        {items.map((r) => (
          <li key={`${r.line}-${r.reason}`} className="break-words">
            <span className="font-semibold">Riga {formatNumber(r.line)}:</span> {r.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The green box after an import (spec 001): rows processed, inserted, updated, errors only
 * when > 0; apart from the errors (rows not imported), the rows imported with a warning.
 */
export function ImportResult({ job }: { job: OmiJob }) {
  const zone = job.fileKind === 'zone';
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
        {job.warnings > 0 && <Stat label="Importate con avviso" value={job.warnings} testId="omi-result-warnings" tone="warning" />}
      </dl>
      {job.rejected > 0 && (
        <RowList items={job.rejectedReasons} total={job.rejected} what={['riga scartata', 'righe scartate']} testId="omi-result-rejected" tone="danger" />
      )}
      {job.warnings > 0 && (
        <Notice id="omi-import-warnings-title" testId="omi-result-warning-rows" title="Righe importate con avviso">
          <p className="mt-1 text-slate-800">
            {job.warnings === 1 ? 'Una riga è stata importata' : `${formatNumber(job.warnings)} righe sono state importate`}, ma un
            valore secondario (per esempio un canone di locazione o l&apos;indicazione della superficie) non era leggibile ed è stato
            salvato vuoto. Il motivo è indicato riga per riga.
          </p>
          <RowList items={job.warningReasons} total={job.warnings} what={['riga con avviso', 'righe con avviso']} testId="omi-result-warning-list" tone="warning" />
        </Notice>
      )}
      <UnmatchedComuni comuni={job.unmatchedComuni ?? []} />
    </section>
  );
}

/**
 * The file's comuni tied to no comune the form offers (usually comuni merged since the
 * file's semester): stored and listed on the data page, never found by a valuation.
 */
function UnmatchedComuni({ comuni }: { comuni: UnmatchedComune[] }) {
  if (comuni.length === 0) return null;
  const n = comuni.length;
  return (
    <Notice
      id="omi-import-unmatched-title"
      testId="omi-result-unmatched"
      title={n === 1 ? 'Un comune non abbinato' : `${formatNumber(n)} comuni non abbinati`}
    >
      <p className="mt-1 text-slate-800">
        {n === 1 ? 'Questo comune del file non corrisponde' : 'Questi comuni del file non corrispondono'} a nessun comune attuale
        dell&apos;elenco ISTAT (di solito comuni fusi o soppressi dopo il semestre del file): le quotazioni sono salvate e visibili
        nei Dati OMI, ma le valutazioni non le useranno.
      </p>
      <details className="mt-2" data-testid="omi-result-unmatched-list">
        <summary className="cursor-pointer font-semibold text-amber-900">Mostra i comuni</summary>
        <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto text-slate-800">
          {comuni.map((c) => (
            <li key={`${c.prov}-${c.istat}-${c.comune}`} className="break-words">
              <span className="font-semibold">{c.comune}</span> ({c.prov}) · codice ISTAT {c.istat || '—'} · codice catastale {c.cadastral || '—'}
            </li>
          ))}
        </ul>
      </details>
    </Notice>
  );
}

/** An amber box inside the result, with its heading (h3) and a warning icon. */
function Notice({ id, testId, title, children }: { id: string; testId: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-4 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid={testId}>
      <h3 id={id} className="flex items-center gap-2 font-semibold text-amber-900">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        {title}
      </h3>
      {children}
    </section>
  );
}
