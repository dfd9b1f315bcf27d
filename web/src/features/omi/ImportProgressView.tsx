import { useState } from 'react';
import { describeImportSpeed, formatTimeLeftPhrase, importSpeedNow, rebuildDone } from '@domain/omi/progress';
import { SILENT_AFTER_MS, type OmiJob } from './api';
import { formatBytes, formatNumber } from './format';
import { ProgressBar } from './ProgressBar';
import type { ImportProgress } from './use-omi-import';

/** Screen readers hear the progress at these steps (percent), not at every poll. */
const ANNOUNCE_EVERY = 25;

/**
 * The text of a polite live region that changes only when `step` changes: the value at
 * that moment is announced once, later polls do not interrupt.
 */
function useStepAnnouncement(step: number, text: string): string {
  const [spoken, setSpoken] = useState({ step, text: '' });
  if (spoken.step !== step) {
    setSpoken({ step, text });
    return text;
  }
  return spoken.text;
}

function UploadView({ progress }: { progress: Extract<ImportProgress, { phase: 'upload' }> }) {
  const pct = progress.total ? (progress.loaded / progress.total) * 100 : 0;
  return (
    <ProgressBar
      className="mt-6"
      label="Caricamento del file (1/2)"
      value={pct}
      valueText={`${formatBytes(progress.loaded)} di ${formatBytes(progress.total)}`}
      data-testid="omi-import-progress"
    >
      <span className="break-all">{progress.fileName}</span> · {formatBytes(progress.loaded)} di {formatBytes(progress.total)}
    </ProgressBar>
  );
}

/** The file being imported: a followed import (another tab, a reload) leaves the file field above empty. */
function JobFile({ name }: { name: string | null | undefined }) {
  if (!name) return null;
  return (
    <span className="block break-all font-medium text-slate-900" data-testid="omi-import-file">
      {name}
    </span>
  );
}

/** After a file's rows: the rebuild (comune digests, and for VALORI the data page's listing index), province by province. */
function IndexView({ job, silent, sinceBeatS }: { job: OmiJob; silent: boolean; sinceBeatS: number }) {
  const total = job.indexTotal ?? 0;
  const done = Math.min(job.indexDone, total);
  // a silent run's pace is no pace: no time left
  const left = silent ? null : describeImportSpeed(job, sinceBeatS);
  // the work done (a large province weighs more than a small one), the provinces in words
  const pct = rebuildDone(job) * 100;
  return (
    <ProgressBar
      className="mt-6"
      label="Ricostruzione dell'indice"
      value={pct}
      valueText={`${formatNumber(done)} di ${formatNumber(total)} province`}
      data-testid="omi-import-progress"
    >
      <JobFile name={job.fileName} />
      <span data-testid="omi-import-rows">{formatNumber(job.rowsWritten)} righe salvate</span> · indice di {formatNumber(done)} di{' '}
      {formatNumber(total)} province
      {left && (
        <span className="block text-slate-600" data-testid="omi-import-speed">
          {left}
        </span>
      )}
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        Ricostruzione dell'indice in corso
      </span>
    </ProgressBar>
  );
}

/** `sinceBeatS`: seconds of the page's own time since the job's heartbeat last moved (the time left counts down meanwhile). */
function ProcessingView({ job, silent, sinceBeatS }: { job: OmiJob | null; silent: boolean; sinceBeatS: number }) {
  const running = job?.status === 'running';
  return (
    <>
      {job && running && job.phase === 'index' ? (
        <IndexView job={job} silent={silent} sinceBeatS={sinceBeatS} />
      ) : (
        <RowsView job={job} silent={silent} sinceBeatS={sinceBeatS} />
      )}
      {running && silent && (
        <p role="status" className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="omi-import-silent">
          {SILENT_MESSAGE}
        </p>
      )}
    </>
  );
}

/** A run that stopped beating: a retry may take it over (from the start of the file), or nothing comes and the repair (every 15 minutes) ends it. */
const SILENT_MESSAGE =
  "Nessun aggiornamento dall'elaborazione da più di un minuto: potrebbe essersi interrotta. Se riprende, ricomincia dall'inizio del file senza duplicare le righe già salvate; se non riprende, ricarica il file.";

function RowsView({ job, silent, sinceBeatS }: { job: OmiJob | null; silent: boolean; sinceBeatS: number }) {
  const running = job?.status === 'running';
  const rows = job?.rowsRead ?? 0;
  const value = job?.progress ?? 0;
  const speed = job && running && !silent ? describeImportSpeed(job, sinceBeatS) : null;
  const left = job && running && !silent ? importSpeedNow(job, sinceBeatS).secondsLeft : null;
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  const announcement = useStepAnnouncement(
    Math.floor(pct / ANNOUNCE_EVERY),
    running && pct > 0 ? `Elaborazione al ${pct}%${left !== null ? `, ${formatTimeLeftPhrase(left)}` : ''}` : '',
  );
  return (
    <ProgressBar
      className="mt-6"
      label={running ? 'Elaborazione delle righe (2/2)' : "In attesa dell'elaborazione (2/2)"}
      value={value}
      valueText={`${formatNumber(rows)} righe lette`}
      data-testid="omi-import-progress"
    >
      <JobFile name={job?.fileName} />
      <span data-testid="omi-import-rows">{formatNumber(rows)} righe lette</span>
      {job && job.rowsWritten > 0 && <> · {formatNumber(job.rowsWritten)} salvate</>}
      {job && (job.inserted > 0 || job.updated > 0) && (
        <>
          {' '}· {formatNumber(job.inserted)} nuove · {formatNumber(job.updated)} aggiornate
        </>
      )}
      {job && job.rejected > 0 && <> · {formatNumber(job.rejected)} scartate</>}
      {job && job.warnings > 0 && <> · {formatNumber(job.warnings)} con avviso</>}
      {job?.bytesTotal ? (
        <span className="block text-slate-600">
          {formatBytes(job.bytesRead)} di {formatBytes(job.bytesTotal)} elaborati
        </span>
      ) : null}
      {speed && (
        <span className="block text-slate-600" data-testid="omi-import-speed">
          {speed}
        </span>
      )}
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </span>
    </ProgressBar>
  );
}

/**
 * The import's progress: the upload (1/2), then the rows processed on the server (2/2) with
 * speed and time left, then (VALORI) the rebuild of the listing index as a phase of its own.
 */
export function ImportProgressView({ progress }: { progress: ImportProgress }) {
  if (progress.phase === 'upload') return <UploadView progress={progress} />;
  const sinceBeatMs = progress.sinceBeatMs ?? 0;
  // the running job's heartbeat has not moved for a minute of this page's time: it may have stopped
  const silent = progress.job?.status === 'running' && sinceBeatMs >= SILENT_AFTER_MS;
  return <ProcessingView job={progress.job} silent={silent} sinceBeatS={sinceBeatMs / 1000} />;
}

export function ClearProgressView({ job }: { job: OmiJob | null }) {
  const total = job?.total ?? null;
  const deleted = job?.deleted ?? 0;
  return (
    <ProgressBar
      className="mt-6"
      tone="danger"
      label="Cancellazione dei dati OMI"
      value={job?.progress ?? 0}
      valueText={total !== null ? `${formatNumber(deleted)} di ${formatNumber(total)} record` : undefined}
      data-testid="omi-clear-progress"
    >
      {total !== null ? `${formatNumber(deleted)} di circa ${formatNumber(total)} record eliminati` : 'Avvio della cancellazione...'}
    </ProgressBar>
  );
}
