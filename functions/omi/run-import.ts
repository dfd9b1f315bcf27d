/**
 * The OMI import use case, run by the S3 ObjectCreated trigger: streams the dropped file
 * from S3 through the parser, hands each row to the handler of the file's kind (VALORI:
 * rows gathered into one item per zone; ZONE: one item per zone description), writes in
 * parallel BatchWriteItem calls, keeps the job item's progress live (a heartbeat every
 * HEARTBEAT_MS, whatever the row rate: omi-jobs.ts startHeartbeat), then rebuilds the
 * listing index of every (semester, province) it touched.
 *
 * Exact counts: before writing the first record of a province, what the semester already
 * holds there is read (omi-store loadExisting: nothing for a new province, the listing
 * index for a clean one, the table itself for one an earlier run left dirty): a record
 * already present is "updated", else "inserted". Re-importing the same file inserts 0.
 * Idempotent: keys are the record's identity, so a re-run after a crash (or S3 delivering
 * the event twice) converges to the same items, and the index is rebuilt from what the
 * table holds plus the file.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { ddb } from '../model/db';
import { s3 } from '../lib/aws/s3';
import { BatchWriter } from '../model/batch-writer';
import { requireConfig } from '../lib/config';
import { omiKeys } from '../model/keys';
import { logger } from '../lib/logger';
import { activeJob, claimJob, MAX_STORED_REASONS, startHeartbeat, updateJob, type RejectedRow } from './omi-jobs';
import {
  getSemester, getZoneQuotations, indexEntryOf, loadExisting, readZoneRows, registerProvince, writeIndexChunk, zoneItem, zoneQuotationsItem,
  type SemesterManifest,
} from './omi-store';
import { isSemester } from '../domain/omi/semester';
import type { OmiValoriRow, OmiZoneRow } from '../domain/omi/types';
import { OMI_MAX_BYTES, tooLargeMessage } from '../domain/uploads';
import type { IndexEntry } from './listing-index';
import { formatValoriLine, OmiFormatError, parseOmiCsv, type OmiFileKind, type OmiParseSummary } from './parse-omi';

/** A problem with the file itself: the job fails with this message and is not retried. */
export class OmiImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OmiImportError';
  }
}

export interface ImportRequest {
  bucket: string;
  key: string;
  jobId: string;
  semester: string | undefined;
  fileName: string;
  etag?: string;
  size?: number;
}

export interface ImportOutcome {
  status: 'completed' | 'failed' | 'skipped';
  rowsRead: number;
  inserted: number;
  updated: number;
  rejected: number;
  warnings: number;
  error?: string;
  durationMs: number;
}

/** The file's records of one zone (VALORI): published lines and identities, in file order. */
interface ZoneRows {
  comune: string;
  lines: string[];
  ids: string[];
}

interface ProvinceState {
  prov: string;
  existing: Map<string, IndexEntry | null>;
  /** the file's records of this province, by identity, with the line they came from */
  fromFile: Map<string, { entry: IndexEntry | null; line: number }>;
  /** VALORI: the file's rows by LinkZona; zones written once and met again are re-put at the end */
  zones: Map<string, ZoneRows>;
  written: Set<string>;
  reopened: Set<string>;
  /** identities already stored, by LinkZona (built on first need) */
  existingByZone?: Map<string, Set<string>>;
}

/** What the import does with the rows of one kind of file. */
interface RowHandler<R> {
  /** identity of the row within its semester and province; the same twice in a file is a duplicate */
  identity(row: R): string;
  duplicate(firstLine: number): string;
  entry(row: R): IndexEntry | null;
  /** the row is new or updated (not a duplicate): store it (a promise only when it writes) */
  accept(row: R, st: ProvinceState, identity: string): Promise<void> | void;
  /** after the last row */
  finish(provinces: Iterable<ProvinceState>): Promise<void>;
}

export async function runImport(req: ImportRequest, opts: { concurrency?: number } = {}): Promise<ImportOutcome> {
  const started = Date.now();
  const runId = randomUUID();
  const claimed = await claimJob(req.jobId, {
    runId,
    kind: 'import',
    etag: req.etag,
    fileName: req.fileName,
    semester: req.semester,
    s3Key: req.key,
    bytesTotal: req.size ?? null,
  });
  if (!claimed) {
    logger.info('OMI import already done or running: event ignored', { jobId: req.jobId, key: req.key });
    return { status: 'skipped', rowsRead: 0, inserted: 0, updated: 0, rejected: 0, warnings: 0, durationMs: 0 };
  }

  const counts = { rowsRead: 0, inserted: 0, updated: 0, rejected: 0, warnings: 0 };
  const reasons: RejectedRow[] = [];
  const warningReasons: RejectedRow[] = [];
  let bytesRead = 0;
  let bytesTotal = req.size ?? null;
  let semester = req.semester;
  let fileKind: OmiFileKind | undefined;
  const provinces = new Map<string, ProvinceState>();
  const table = requireConfig('TABLE_NAME');
  const writer = new BatchWriter(ddb(), table, { concurrency: opts.concurrency ?? 16 });

  const reject = (line: number, reason: string) => {
    counts.rejected++;
    if (reasons.length < MAX_STORED_REASONS) reasons.push({ line, reason });
  };
  const warn = (line: number, reason: string) => {
    counts.warnings++;
    if (warningReasons.length < MAX_STORED_REASONS) warningReasons.push({ line, reason });
  };
  const progress = (extra: Record<string, unknown> = {}) =>
    updateJob(req.jobId, runId, {
      ...counts,
      rejectedReasons: reasons,
      warningReasons,
      bytesRead,
      bytesTotal,
      progress: bytesTotal ? Math.min(99, Math.floor((bytesRead / bytesTotal) * 100)) : 0,
      ...extra,
    });

  let manifest: SemesterManifest | undefined;
  const existingFrom = { none: 0, index: 0, table: 0 };
  async function province(prov: string): Promise<ProvinceState> {
    let st = provinces.get(prov);
    if (!st) {
      // read what the semester holds first (the manifest as it was before this run), then register
      const kind = fileKind === 'zone' ? 'zones' : 'quotations';
      const existing = await loadExisting(manifest, prov, kind);
      existingFrom[existing.source]++;
      await registerProvince(semester!, prov, kind);
      st = { prov, existing: existing.entries, fromFile: new Map(), zones: new Map(), written: new Set(), reopened: new Set() };
      provinces.set(prov, st);
    }
    return st;
  }

  /**
   * VALORI: a zone's rows are gathered and written as one item when the file moves on to
   * another zone (the files list a zone's rows together). A zone met again later is written
   * whole once more at the end. Rows an earlier import stored in the zone and this file
   * lacks are kept (merged from the stored item): an import adds and updates, never removes.
   */
  function valoriHandler(): RowHandler<OmiValoriRow> {
    let open: { st: ProvinceState; linkZona: string } | undefined;

    async function zoneLines(st: ProvinceState, linkZona: string): Promise<string[]> {
      const zone = st.zones.get(linkZona)!;
      if (!st.existingByZone) {
        st.existingByZone = new Map();
        for (const [id, e] of st.existing) {
          if (!e) continue;
          let set = st.existingByZone.get(e.linkZona);
          if (!set) st.existingByZone.set(e.linkZona, (set = new Set()));
          set.add(id);
        }
      }
      const stored = st.existingByZone.get(linkZona);
      if (!stored || stored.size === 0) return zone.lines;
      const inFile = new Set(zone.ids);
      if ([...stored].every((id) => inFile.has(id))) return zone.lines;
      const item = await getZoneQuotations({ semester: semester!, prov: st.prov, linkZona });
      const kept = (item ? readZoneRows(item) : []).filter((r) => !inFile.has(omiKeys.quotationIdentity(r)));
      return [...zone.lines, ...kept.map(formatValoriLine)];
    }

    async function write(st: ProvinceState, linkZona: string): Promise<void> {
      const zone = st.zones.get(linkZona)!;
      await writer.put(zoneQuotationsItem({ semester: semester!, prov: st.prov, linkZona, comune: zone.comune }, await zoneLines(st, linkZona)));
      st.written.add(linkZona);
    }

    async function closeZone({ st, linkZona }: { st: ProvinceState; linkZona: string }): Promise<void> {
      if (st.written.has(linkZona)) st.reopened.add(linkZona);
      else await write(st, linkZona);
    }

    return {
      identity: (row) => omiKeys.quotationIdentity(row),
      duplicate: (first) => `Riga duplicata: stesso LinkZona, Cod_Tip e Stato della riga ${first}`,
      entry: (row) => indexEntryOf(row),
      accept(row, st, identity) {
        let zone = st.zones.get(row.linkZona);
        if (!zone) st.zones.set(row.linkZona, (zone = { comune: row.comuneDescrizione, lines: [], ids: [] }));
        zone.lines.push(formatValoriLine(row));
        zone.ids.push(identity);
        if (open && open.st === st && open.linkZona === row.linkZona) return undefined;
        // a new zone begins: the previous one is complete (its rows were pushed before this one)
        const previous = open;
        open = { st, linkZona: row.linkZona };
        return previous ? closeZone(previous) : undefined;
      },
      async finish(all) {
        if (open) await closeZone(open);
        open = undefined;
        await writer.flush(); // a zone's second write never shares a batch with its first
        for (const st of all) for (const linkZona of st.reopened) await write(st, linkZona);
      },
    };
  }

  function zoneHandler(): RowHandler<OmiZoneRow> {
    return {
      identity: (row) => omiKeys.zoneIdentity(row),
      duplicate: (first) => `Riga duplicata: stessa LinkZona della riga ${first}`,
      entry: () => null,
      accept: (row) => writer.put(zoneItem(row, semester!)),
      finish: async () => undefined,
    };
  }

  // the job item is touched every HEARTBEAT_MS whatever the row rate, until the final update
  const heartbeat = startHeartbeat(() => progress());
  try {
    if (await activeJob('clear')) {
      throw new OmiImportError('È in corso la cancellazione dei dati OMI: ricarica il file al termine');
    }
    const obj = await s3().send(new GetObjectCommand({ Bucket: req.bucket, Key: req.key }));
    bytesTotal = obj.ContentLength ?? bytesTotal;
    // S3 enforces the upload policy's size limit; a file that got in another way is refused here
    if (bytesTotal !== null && bytesTotal > OMI_MAX_BYTES) {
      obj.Body?.transformToWebStream?.().cancel().catch(() => undefined);
      throw new OmiImportError(tooLargeMessage(OMI_MAX_BYTES));
    }
    const body = obj.Body as Readable;
    const events = parseOmiCsv(body, { onBytes: (n) => (bytesRead = n) });
    const handlers = { valori: valoriHandler(), zone: zoneHandler() } as const;
    let summary: OmiParseSummary | undefined;
    for (;;) {
      const next = await events.next();
      if (next.done) {
        summary = next.value;
        break;
      }
      for (const ev of next.value) {
        if (ev.type === 'meta') {
          fileKind = ev.meta.kind;
          const fromTitle = ev.meta.semester;
          if (semester && fromTitle && semester !== fromTitle) {
            throw new OmiImportError(
              `Il semestre indicato (${semester}) non corrisponde a quello del file (${fromTitle}, dalla riga del titolo). Correggi il semestre e ricarica il file.`,
            );
          }
          semester ??= fromTitle;
          if (!semester || !isSemester(semester)) {
            throw new OmiImportError('Semestre non indicato: specifica il semestre nel formato AAAA-S1 o AAAA-S2');
          }
          manifest = await getSemester(semester);
          await updateJob(req.jobId, runId, { semester, fileKind, bytesTotal });
          continue;
        }
        counts.rowsRead++;
        if (ev.type === 'rejected') {
          reject(ev.line, ev.reason);
        } else {
          // one handler per file kind; the event's row matches it
          const handler = handlers[ev.type] as RowHandler<OmiValoriRow | OmiZoneRow>;
          const st = provinces.get(ev.row.prov) ?? (await province(ev.row.prov));
          const identity = handler.identity(ev.row);
          const first = st.fromFile.get(identity);
          if (first) {
            reject(ev.line, handler.duplicate(first.line));
          } else {
            if (st.existing.has(identity)) counts.updated++;
            else counts.inserted++;
            if (ev.warning) warn(ev.line, ev.warning);
            st.fromFile.set(identity, { entry: handler.entry(ev.row), line: ev.line });
            const writing = handler.accept(ev.row, st, identity);
            if (writing) await writing; // only when a write had to wait for room
          }
        }
      }
    }
    if (fileKind) await handlers[fileKind].finish(provinces.values());
    await writer.flush();

    if (fileKind === 'valori') {
      const version = runId.slice(0, 8);
      const work = [...provinces.entries()];
      // a few at a time: each is a handful of small writes
      for (let i = 0; i < work.length; i += 8) {
        await Promise.all(
          work.slice(i, i + 8).map(([prov, st]) => {
            const merged = new Map<string, IndexEntry>();
            for (const [id, e] of st.existing) if (e) merged.set(id, e);
            for (const [id, f] of st.fromFile) if (f.entry) merged.set(id, f.entry);
            return writeIndexChunk(semester!, prov, merged.values(), version);
          }),
        );
      }
    }
    const durationMs = Date.now() - started;
    await heartbeat.stop();
    await progress({
      status: 'completed',
      progress: 100,
      encoding: summary.encoding,
      finishedAt: new Date().toISOString(),
      durationMs,
    });
    logger.info('OMI import completed', { jobId: req.jobId, ...counts, durationMs, writer: writer.stats, existingFrom });
    return { status: 'completed', ...counts, durationMs };
  } catch (err) {
    const known = err instanceof OmiFormatError || err instanceof OmiImportError;
    // an internal failure's own message (SDK, network) stays in the logs, never on the admin's page
    const message = known ? (err as Error).message : "Errore durante l'importazione: si è verificato un errore interno. Riprova; se il problema persiste contatta l'assistenza.";
    const durationMs = Date.now() - started;
    await writer.flush().catch(() => undefined);
    await heartbeat.stop();
    await progress({ status: 'failed', error: message, finishedAt: new Date().toISOString(), durationMs }).catch((e: unknown) =>
      logger.error('OMI job update failed', { error: e as Error }),
    );
    logger.error('OMI import failed', { jobId: req.jobId, error: err as Error });
    // a bad file fails for good; anything else is thrown so Lambda retries the event
    if (!known) throw err;
    return { status: 'failed', ...counts, error: message, durationMs };
  } finally {
    await heartbeat.stop();
  }
}
