import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api, stack, useStackEnv } from '../support/helpers';
import { ddb } from '../../functions/model/db';
import { s3 } from '../../functions/lib/aws/s3';
import { BatchWriter } from '../../functions/model/batch-writer';
import { omiKeys } from '../../functions/model/keys';
import { zoneQuotationsItem } from '../../functions/model/omi/quotations';
import { deleteSemesterManifest, getSemester, omiDataState, registerProvince, releaseAbandonedProvince, releaseProvince } from '../../functions/model/omi/semesters';
import { forEachDigestKeyOf } from '../../functions/model/omi/comune-digest';
import { formatValoriLine, parseOmiFile } from '../../functions/omi/parse-omi';
import { ABANDON_AFTER_MS, abandonJob, claimJob, createJob, updateJob, type OmiJob } from '../../functions/model/omi/jobs';
import { ABANDONED_IMPORT_MESSAGE, repairAbandonedImports } from '../../functions/omi/repair-imports';
import { runImport } from '../../functions/omi/run-import';
import {
  admin, clearAll, createUpload, importFile, postToS3, quotations, VALORI_2024, VALORI_2025, waitForJob, ZONE_2025,
} from './omi-support';

const TABLE = () => stack().env.TABLE_NAME!;
const OMI_BUCKET = () => stack().env.OMI_BUCKET!;

beforeAll(async () => {
  useStackEnv();
  await clearAll();
});

describe('OMI import: drop a file -> job completes -> rows queryable', () => {
  it('imports the Milano 2025/1 file: 446 read, 446 inserted, live job fields', async () => {
    const job = await importFile(VALORI_2025, '2025-S1');
    expect(job).toMatchObject({
      kind: 'import', status: 'completed', semester: '2025-S1', fileName: 'QI_1292013_1_20251_VALORI.csv', fileKind: 'valori',
      encoding: 'ascii', rowsRead: 446, inserted: 446, updated: 0, rejected: 0, rejectedReasons: [], progress: 100, error: null,
      rowsWritten: 446, rowsExpected: 446, phase: null, indexTotal: 1, indexDone: 1,
      // one province: its 446 records and an average province's (itself)
      indexWorkTotal: 892, indexWorkDone: 892,
    });
    expect(Date.parse(job.indexStartedAt!)).toBeGreaterThanOrEqual(Date.parse(job.startedAt!));
    expect(Date.parse(job.indexStartedAt!)).toBeLessThanOrEqual(Date.parse(job.finishedAt!));
    expect(job.bytesRead).toBe(readFileSync(VALORI_2025).length);
    const page = await quotations({ semestre: '2025-S1' });
    expect(page.body).toMatchObject({ total: 446, page: 1, pageSize: 50, pages: 9 });
    expect(page.body.items).toHaveLength(50);
  });

  it('re-importing the same file inserts nothing and updates every record', async () => {
    const job = await importFile(VALORI_2025, '2025-S1');
    expect(job).toMatchObject({ status: 'completed', rowsRead: 446, inserted: 0, updated: 446, rejected: 0 });
    expect((await quotations()).body.total).toBe(446);
  });

  it('another semester adds history: 2024/2 inserts 446 more', async () => {
    // a valuation now and after the import: what a container kept from the first is not reused after it
    const adminToken = await admin();
    const value = () => api<{ available: boolean; history: unknown[] }>('POST', '/valuations/evaluate', { token: adminToken, body: { address: 'Via Brera 1', province: 'MI', city: 'Milano', surfaceArea: 80 } });
    const before = await value();
    expect(before.body).toMatchObject({ available: true });
    expect((await value()).body.history).toEqual(before.body.history);
    const job = await importFile(VALORI_2024, '2024-S2');
    expect(job).toMatchObject({ status: 'completed', semester: '2024-S2', rowsRead: 446, inserted: 446, updated: 0 });
    const all = await quotations();
    expect(all.body).toMatchObject({ total: 892, pages: 18, semesters: ['2025-S1', '2024-S2'] });
    expect((await value()).body.history).toHaveLength(before.body.history.length + 1);
  });

  it('imports the ZONE file (zone descriptions for the valuation)', async () => {
    const job = await importFile(ZONE_2025, '2025-S1');
    expect(job).toMatchObject({ status: 'completed', fileKind: 'zone', rowsRead: 43, inserted: 43, updated: 0, rejected: 0 });
    expect((await quotations()).body.total).toBe(892); // zones are not quotations
  });
});

describe('OMI data page', () => {
  it('lists newest semester first, in pages of 50, every record exactly once', async () => {
    const ids = new Set<string>();
    let last: Record<string, unknown>[] = [];
    for (let page = 1; page <= 18; page++) {
      const res = await quotations({ page });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 892, page, pageSize: 50, pages: 18 });
      res.body.items.forEach((i) => ids.add(i.id as string));
      if (page === 1) {
        expect(res.body.items.every((i) => i.semestre === '2025-S1')).toBe(true);
        expect(res.body.items[0]).toMatchObject({ comuneDescrizione: 'MILANO', provincia: 'MI', zona: 'B12', fascia: 'B', linkZona: 'MI00003228' });
      }
      last = res.body.items;
    }
    expect(ids.size).toBe(892);
    expect(last).toHaveLength(42); // 892 - 17 x 50
    expect(last.every((i) => i.semestre === '2024-S2')).toBe(true);
    const beyond = await quotations({ page: 19 });
    expect(beyond.body).toMatchObject({ items: [], total: 892 });
  });

  it('returns the record columns the page shows', async () => {
    // 2025/1 line 4: MI00003228;20;Abitazioni civili;OTTIMO; ;11100;15300;L;35,1;50;L;
    const res = await quotations({ semestre: '2025-S1', tipologia: 20, stato: 'OTTIMO', comune: 'milano', provincia: 'MI' });
    const b12 = res.body.items.find((i) => i.linkZona === 'MI00003228');
    expect(b12).toEqual({
      id: '2025-S1|MI00003228|20|OTTIMO', semestre: '2025-S1', comuneDescrizione: 'MILANO', provincia: 'MI', zona: 'B12', fascia: 'B',
      fasciaDescr: 'Centrale', linkZona: 'MI00003228', codTip: 20, descrTipologia: 'Abitazioni civili', stato: 'OTTIMO', statoPrev: false,
      comprMin: 11100, comprMax: 15300, locMin: 35.1, locMax: 50, regione: 'LOMBARDIA',
    });
  });

  it('filters with exact totals (counted from the files)', async () => {
    const total = async (q: Record<string, string | number>) => (await quotations(q)).body.total;
    expect(await total({ comune: 'MILANO' })).toBe(892);
    expect(await total({ comune: 'ilan' })).toBe(892); // partial
    expect(await total({ comune: 'Milàno' })).toBe(892); // accent-insensitive
    expect(await total({ comune: 'roma' })).toBe(0);
    expect(await total({ provincia: 'mi' })).toBe(892); // forced upper case, exact
    expect(await total({ provincia: 'M' })).toBe(0);
    expect(await total({ tipologia: 20, stato: 'OTTIMO' })).toBe(84); // 42 + 42
    expect(await total({ tipologia: 'Negozi' })).toBe(128); // 64 + 64
    expect(await total({ stato: 'normale' })).toBe(519); // 260 + 259
    expect(await total({ semestre: '2025-S1', tipologia: 5 })).toBe(64);
    expect(await total({ tipologia: 'Tutte', stato: 'Tutti', semestre: '' })).toBe(892);
    const none = await quotations({ comune: 'roma' });
    expect(none.body).toMatchObject({ items: [], total: 0, pages: 1 });
  });

  it('refuses bad filters with Italian messages', async () => {
    expect((await quotations({ provincia: 'MIL' })).body).toMatchObject({ error: 'VALIDATION', message: 'La provincia deve avere al massimo 2 caratteri' });
    expect((await quotations({ stato: 'BUONO' })).body.message).toBe('Stato non valido: scegli Ottimo, Normale o Scadente');
    expect((await quotations({ semestre: '2025-3' })).body.message).toBe('Il semestre deve essere nel formato AAAA-S1 o AAAA-S2 (es. 2024-S2)');
    expect((await quotations({ tipologia: 'castelli' })).body.message).toBe('Tipologia non valida');
    expect((await quotations({ page: 0 })).status).toBe(400);
  });
});

describe('OMI import: bad files', () => {
  const lines = readFileSync(VALORI_2025, 'latin1').split('\n');
  const title = 'Quotazioni Immobiliari : Valori di Mercato - Semestre 2023/1 - elaborazione del 23-NOV-25';

  it('reports bad rows with line and reason and imports the rest', async () => {
    const rows = lines.slice(2, 22);
    rows[7] = rows[7]!.replace(';9000;15000;', ';abc;15000;'); // line 10: kept, Compr_min empty
    rows.push(lines[2]!); // line 23: the same record as line 3
    rows.push(lines[30]!.slice(0, 60)); // line 24: cut after 60 bytes, "...;MILANO;B;B13;MI0" = 11 fields
    const job = await importFile('', '2023-S1', [title, lines[1], ...rows, ''].join('\n'), 'valori_20231.csv');
    expect(job).toMatchObject({ status: 'completed', semester: '2023-S1', rowsRead: 22, inserted: 20, updated: 0, rejected: 2, warnings: 1 });
    expect(job.rejectedReasons).toEqual([
      { line: 23, reason: 'Riga duplicata: stesso LinkZona, Cod_Tip e Stato della riga 3' },
      { line: 24, reason: 'Numero di campi errato: 11 invece di 21 (riga troncata o malformata)' },
    ]);
    expect(job.warningReasons).toEqual([{ line: 10, reason: 'Compr_min non numerico ("abc"), salvato vuoto' }]);
    expect((await quotations({ semestre: '2023-S1' })).body.total).toBe(20);
  });

  it('fails a file whose header lacks columns, naming them', async () => {
    const header = lines[1]!.replace('Compr_min;', '').replace('Compr_max;', '');
    const job = await importFile('', '2023-S1', [title, header, lines[2], ''].join('\n'), 'rotto_20231.csv');
    expect(job.status).toBe('failed');
    expect(job.error).toContain('mancano le colonne Compr_min, Compr_max');
  });

  it('fails when the chosen semester is not the file title semester', async () => {
    const job = await importFile(VALORI_2025, '2024-S1', undefined, 'QI_1292013_1_20241_VALORI.csv');
    expect(job.status).toBe('failed');
    expect(job.error).toBe(
      'Il semestre indicato (2024-S1) non corrisponde a quello del file (2025-S1, dalla riga del titolo). Correggi il semestre e ricarica il file.',
    );
  });

  it('validates the upload request', async () => {
    const token = await admin();
    const bad = async (body: unknown) => (await api<{ message: string }>('POST', '/omi/uploads', { token, body })).body.message;
    expect(await bad({ fileName: 'dati.xlsx', semester: '2025-S1' })).toBe('Il file deve essere in formato CSV');
    expect(await bad({ fileName: 'dati.csv', semester: '2025/1' })).toBe('Il semestre deve essere nel formato AAAA-S1 o AAAA-S2 (es. 2024-S2)');
    expect(await bad({ fileName: 'dati.csv' })).toBe('Seleziona un file e specifica il semestre');
    expect(await bad({ fileName: 'dati.csv', semester: '2025-S1', size: 60 * 1024 * 1024 })).toBe('Il file supera la dimensione massima di 50 MB');
    const ok = await api<{ key: string }>('POST', '/omi/uploads', { token, body: { fileName: '../../Valori Milano.csv', semester: '2025-s1' } });
    expect(ok.status).toBe(201);
    expect(ok.body.key).toMatch(/^imports\/[0-9a-f-]{36}\/2025-S1\/Valori_Milano\.csv$/);
  });

  it('the presigned POST allows one exact key and at most 50 MB', async () => {
    const up = await createUpload('grande.csv', '2025-S1');
    const policy = JSON.parse(Buffer.from(up.upload.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toEqual(expect.arrayContaining([['content-length-range', 1, 52_428_800], ['eq', '$key', up.key]]));
    expect(await postToS3(up, Buffer.alloc(50 * 1024 * 1024 + 1, 0x41))).toBe(400);
  });

  it('refuses a file over 50 MB that reached the bucket another way', async () => {
    const up = await createUpload('grande.csv', '2025-S1');
    await s3().send(new PutObjectCommand({ Bucket: OMI_BUCKET(), Key: up.key, Body: Buffer.alloc(50 * 1024 * 1024 + 1, 0x41) }));
    const job = await waitForJob(`/omi/imports/${up.jobId}`);
    expect(job).toMatchObject({ status: 'failed', error: 'Il file supera la dimensione massima di 50 MB', rowsRead: 0 });
  });

  it('fails a file that is not a CSV at all', async () => {
    const job = await importFile('', '2025-S1', Buffer.alloc(200_000, 0x41), 'finto.csv');
    expect(job).toMatchObject({ status: 'failed', error: 'Una riga supera 64 KB senza andare a capo: il file non è un CSV OMI' });
  });
});

describe('OMI import: the object read is the object uploaded', () => {
  // Milano 2025/1 with other prices, same length: imported, it would change what 2025-S1 holds
  const original = readFileSync(VALORI_2025);
  const changed = Buffer.from(original.toString('latin1').replace(/;11100;15300;/g, ';99100;99300;'), 'latin1');
  const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
  /** Every record of 2025-S1 as the data page lists it. */
  async function semester2025(): Promise<Record<string, unknown>[]> {
    const first = (await quotations({ semestre: '2025-S1' })).body;
    const all = [...first.items];
    for (let page = 2; page <= first.pages; page++) all.push(...(await quotations({ semestre: '2025-S1', page })).body.items);
    return all;
  }
  /** The object in the drop bucket under a key the trigger ignores, then the import of an event that says `announced`. */
  async function importAnnounced(stored: Buffer, announced: { size: number; etag: string }, fileName = 'QI_1292013_1_20251_VALORI.csv') {
    const key = `verifica/${randomUUID()}.bin`;
    await s3().send(new PutObjectCommand({ Bucket: OMI_BUCKET(), Key: key, Body: stored }));
    const jobId = randomUUID();
    const outcome = await runImport({ bucket: OMI_BUCKET(), key, jobId, semester: '2025-S1', fileName, ...announced });
    return { outcome, job: await waitForJob(`/omi/imports/${jobId}`) };
  }

  it('an event whose size says more than the object holds (a truncated body) fails with nothing written', async () => {
    expect(changed.length).toBe(original.length);
    const before = await semester2025();
    expect(before).toHaveLength(446);
    const cut = Math.floor(changed.length * 0.6);
    const { outcome, job } = await importAnnounced(changed.subarray(0, cut), { size: changed.length, etag: `"${md5(changed)}"` });
    expect(outcome.status).toBe('failed');
    expect(job).toMatchObject({
      status: 'failed', rowsRead: 0, rowsWritten: 0, inserted: 0, updated: 0, phase: null,
      error: `Il file letto non corrisponde a quello caricato (disponibili ${cut.toLocaleString('it-IT')} byte su ${changed.length.toLocaleString('it-IT')}): nessun dato è stato modificato. Ricarica il file.`,
    });
    expect(await semester2025()).toEqual(before);
  });

  it('an event whose ETag is not the stored bytes (same size, other content) fails with nothing written', async () => {
    const before = await semester2025();
    const { job } = await importAnnounced(changed, { size: changed.length, etag: `"${md5(original)}"` });
    expect(job).toMatchObject({
      status: 'failed', rowsRead: 0, inserted: 0, updated: 0,
      error: 'Il file letto non corrisponde a quello caricato (contenuto diverso da quello caricato): nessun dato è stato modificato. Ricarica il file.',
    });
    expect(await semester2025()).toEqual(before);
  });

  /** GetObject answers for the whole object but its stream ends after `cut` bytes. */
  function streamCutAt(bytes: Buffer, cut: number) {
    const client = s3();
    const send = client.send.bind(client);
    return vi.spyOn(client, 'send').mockImplementation((async (cmd: unknown) => {
      const res = (await send(cmd as never)) as unknown as Record<string, unknown>;
      if (!(cmd instanceof GetObjectCommand)) return res;
      (res.Body as Readable).destroy();
      return { ...res, Body: Readable.from([bytes.subarray(0, cut)]) };
    }) as never);
  }

  it('a body cut short in transfer (object and event agree) fails at the end of the stream', async () => {
    const before = await semester2025();
    const cut = Math.floor(original.length * 0.6);
    const spy = streamCutAt(original, cut);
    try {
      const { outcome, job } = await importAnnounced(original, { size: original.length, etag: `"${md5(original)}"` });
      expect(outcome.status).toBe('failed');
      expect(job.status).toBe('failed');
      expect(job.error).toBe(
        `Il file letto non corrisponde a quello caricato (letti ${cut.toLocaleString('it-IT')} byte su ${original.length.toLocaleString('it-IT')}): ` +
          "l'importazione è stata interrotta, ma alcune zone potrebbero essere già state riscritte. Ricarica il file.",
      );
      expect(job.rowsRead).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
    // the bytes read were the stored file's own: whatever was written holds the same records
    expect(await semester2025()).toEqual(before);
    // and the run did not leave Milano marked as being imported: its indexes follow the table
    const manifest = (await getSemester('2025-S1'))!;
    expect(manifest.dirty).toEqual([]);
    expect(manifest.digests.MI).toBeDefined();
    expect((await omiDataState()).importing).toBe(false);
  });

  it('a ZONE body cut short in transfer fails and leaves no province marked as being imported', async () => {
    const zone = readFileSync(ZONE_2025);
    const spy = streamCutAt(zone, Math.floor(zone.length * 0.6));
    try {
      const { outcome, job } = await importAnnounced(zone, { size: zone.length, etag: `"${md5(zone)}"` }, 'QI_1292013_1_20251_ZONE.csv');
      expect(outcome.status).toBe('failed');
      expect(job).toMatchObject({ status: 'failed', phase: null });
      expect(job.rowsRead).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
    expect((await getSemester('2025-S1'))!.dirty).toEqual([]);
    expect((await omiDataState()).importing).toBe(false);
  });
});

/**
 * A run that died: the upload's job, Milano registered in `semester` (as every run does before
 * its first write there), the first 100 records of the 2025/1 file written as that semester,
 * no index, and the job left "running" with a heartbeat `silentMs` old (by default past
 * ABANDON_AFTER_MS: the repair takes it).
 */
async function deadRun(fileName: string, semester: string, silentMs = ABANDON_AFTER_MS + 60_000) {
  const [y, half] = semester.split('-S');
  const parsed = await parseOmiFile(readFileSync(VALORI_2025, 'latin1').replace('Semestre 2025/1', `Semestre ${y}/${half}`));
  const up = await createUpload(fileName, semester);
  await registerProvince(semester, 'MI', up.jobId);
  const writer = new BatchWriter(ddb(), TABLE());
  const zones = new Map<string, string[]>();
  for (const { row } of parsed.valori.slice(0, 100)) zones.set(row.linkZona, [...(zones.get(row.linkZona) ?? []), formatValoriLine(row)]);
  for (const [linkZona, lines] of zones) {
    await writer.put(zoneQuotationsItem({ semester, prov: 'MI', linkZona, comune: parsed.valori[0]!.row }, lines));
  }
  await writer.flush();
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: omiKeys.job(up.jobId),
      UpdateExpression: 'SET #s = :running, heartbeatAt = :old, updatedAt = :oldAt, runId = :dead',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':running': 'running', ':old': Date.now() - silentMs, ':oldAt': new Date(Date.now() - silentMs).toISOString(), ':dead': 'dead-run' },
    }),
  );
  return up;
}

describe('OMI import: idempotent and exact when a run dies mid-file', () => {
  it('a redelivered event for a completed file changes nothing', async () => {
    const jobs = (await api<{ items: OmiJob[] }>('GET', '/omi/jobs', { token: await admin() })).body.items;
    const done = jobs.find((j) => j.status === 'completed' && j.semester === '2024-S2')!;
    const head = await s3().send(new HeadObjectCommand({ Bucket: OMI_BUCKET(), Key: done.s3Key! }));
    const before = await waitForJob(`/omi/imports/${done.id}`);
    // S3 delivers at least once: the same object (same ETag) again
    const { handler } = await import('../../functions/omi/import-omi');
    await handler({
      Records: [{ eventName: 'ObjectCreated:Post', s3: { bucket: { name: OMI_BUCKET() }, object: { key: done.s3Key!, size: head.ContentLength, eTag: head.ETag } } }],
    } as never);
    expect(await waitForJob(`/omi/imports/${done.id}`)).toEqual(before);
  });

  it('a re-run after a crash converges: records left by the dead run count as updated', async () => {
    // The dead run: it registered Milano's province, wrote the first 100 records of 2025/1
    // as semester 2022-S2, then died (no index written, job still "running", heartbeat
    // minutes old). The re-run must read the table, not trust the (missing) index.
    const up = await deadRun('QI_crash_20222_VALORI.csv', '2022-S2');
    // ... and the redelivered event (here: the upload landing) takes the stale job over.
    const content = readFileSync(VALORI_2025, 'latin1').replace('Semestre 2025/1', 'Semestre 2022/2');
    expect(await postToS3(up, Buffer.from(content, 'latin1'))).toBe(204);
    const job = await waitForJob(`/omi/imports/${up.jobId}`);
    expect(job).toMatchObject({ status: 'completed', rowsRead: 446, inserted: 346, updated: 100, rejected: 0 });
    expect((await quotations({ semestre: '2022-S2' })).body.total).toBe(446);
  });

  it('an import that died for good (no retry came) is ended by the repair (every 15 minutes): failed with the reason, its province rebuilt from the table and clean', async () => {
    const up = await deadRun('QI_dead_20202_VALORI.csv', '2020-S2');
    const token = await admin();
    const job = () => api<OmiJob>('GET', `/omi/imports/${up.jobId}`, { token }).then((r) => r.body);
    expect(await job()).toMatchObject({ status: 'running' });
    expect((await getSemester('2020-S2'))!.dirty).toEqual(['MI']);
    expect((await omiDataState()).importing).toBe(true);

    // as it was 61 s after it went silent (less than ABANDON_AFTER_MS): Lambda may still retry it, nothing is touched
    const then = Date.now() - ABANDON_AFTER_MS + 1000;
    expect(await repairAbandonedImports(undefined, then)).toEqual({ abandoned: 0, rebuilt: 0, pending: 1 });
    expect(await abandonJob(up.jobId, ABANDONED_IMPORT_MESSAGE, new Date(then))).toBe(false);
    expect(await job()).toMatchObject({ status: 'running' });

    // while another job beats, nothing is touched: it may be the one writing there
    const busy = `import-${Date.now()}`;
    await createJob({ id: busy, kind: 'import' });
    expect(await claimJob(busy, { runId: 'busy-run', kind: 'import' })).toBe(true);
    try {
      expect(await repairAbandonedImports()).toEqual({ abandoned: 0, rebuilt: 0, pending: 1 });
      expect(await job()).toMatchObject({ status: 'running' });
      expect((await getSemester('2020-S2'))!.dirty).toEqual(['MI']);
      // nor while a job failed a moment ago still registered in a province (an internal error:
      // Lambda retries it within minutes); one that failed for good has released its provinces
      await updateJob(busy, 'busy-run', { status: 'failed', error: 'errore interno' });
      await registerProvince('2020-S2', 'MI', busy);
      expect(await repairAbandonedImports()).toEqual({ abandoned: 0, rebuilt: 0, pending: 1 });
      expect(await job()).toMatchObject({ status: 'running' });
      await releaseProvince('2020-S2', 'MI', busy);
    } finally {
      // failed a moment ago, for good (no province of its own left): it holds nothing back
      await updateJob(busy, 'busy-run', { status: 'failed', error: 'file non valido' });
    }

    // nothing beats: the scheduled repair ends the silent import and rebuilds its province from the table
    const { handler } = await import('../../functions/omi/repair-omi-imports');
    expect(await handler({}, undefined)).toEqual({ abandoned: 1, rebuilt: 1, pending: 0 });
    expect(await job()).toMatchObject({ status: 'failed', phase: null, error: ABANDONED_IMPORT_MESSAGE });
    const manifest = (await getSemester('2020-S2'))!;
    expect(manifest.dirty).toEqual([]);
    expect(manifest.digests.MI).toBeDefined();
    expect(manifest.index.MI).toMatchObject({ rows: 100 });
    expect((await omiDataState()).importing).toBe(false);
    expect((await quotations({ semestre: '2020-S2' })).body.total).toBe(100);
    // done: the next run finds nothing, and a job no longer running is never ended
    expect(await repairAbandonedImports()).toEqual({ abandoned: 0, rebuilt: 0, pending: 0 });
    expect(await abandonJob(busy, ABANDONED_IMPORT_MESSAGE)).toBe(false);
  });

  it('a province two jobs write at once (its VALORI and ZONE files) is clean only when both are released; the repair only while the jobs it read are the ones there', async () => {
    const sem = '2018-S1';
    const manifest = async () => (await getSemester(sem))!;
    await registerProvince(sem, 'MI', 'job-valori');
    await registerProvince(sem, 'MI', 'job-zone');
    await registerProvince(sem, 'MI', 'job-zone'); // a retry of the same job registers nothing new
    expect(await manifest()).toMatchObject({ dirty: ['MI'], registrations: { MI: ['job-valori', 'job-zone'] } });
    await releaseProvince(sem, 'MI', 'job-zone');
    await releaseProvince(sem, 'MI', 'job-zone'); // released twice: nothing more
    expect(await manifest()).toMatchObject({ dirty: ['MI'], registrations: { MI: ['job-valori'] } });
    expect((await omiDataState()).importing).toBe(true);
    await releaseProvince(sem, 'MI', 'job-valori');
    expect(await manifest()).toMatchObject({ dirty: [], registrations: {} });
    expect((await omiDataState()).importing).toBe(false);

    // a dead job's province: a job that registered after the repair read it keeps it dirty
    await registerProvince(sem, 'MI', 'job-dead');
    const read = await manifest();
    await registerProvince(sem, 'MI', 'job-new');
    expect(await releaseAbandonedProvince(read, 'MI')).toBe(false);
    expect(await manifest()).toMatchObject({ dirty: ['MI'], registrations: { MI: ['job-dead', 'job-new'] } });
    expect(await releaseAbandonedProvince(await manifest(), 'MI')).toBe(true);
    expect(await manifest()).toMatchObject({ dirty: [], registrations: {} });
    // a job released by the repair finds nothing of its own to release
    await releaseProvince(sem, 'MI', 'job-new');
    expect(await manifest()).toMatchObject({ dirty: [], registrations: {} });
    await deleteSemesterManifest(sem);
  });

  it("a semester's VALORI and ZONE files dropped at once both complete, and leave the province clean with its digests and listing index", async () => {
    const sem = '2016-S2';
    const relabel = (file: string) => Buffer.from(readFileSync(file, 'latin1').replace('Semestre 2025/1', 'Semestre 2016/2'), 'latin1');
    const [valori, zone] = await Promise.all([
      importFile(VALORI_2025, sem, relabel(VALORI_2025), 'QI_both_20162_VALORI.csv'),
      importFile(ZONE_2025, sem, relabel(ZONE_2025), 'QI_both_20162_ZONE.csv'),
    ]);
    expect(valori).toMatchObject({ status: 'completed', fileKind: 'valori', inserted: 446, rejected: 0 });
    expect(zone).toMatchObject({ status: 'completed', fileKind: 'zone', inserted: 43, rejected: 0 });
    const manifest = (await getSemester(sem))!;
    expect(manifest).toMatchObject({ dirty: [], registrations: {}, index: { MI: expect.objectContaining({ rows: 446 }) } });
    expect(manifest.digests.MI).toBeDefined();
    expect((await omiDataState()).importing).toBe(false);
    expect((await quotations({ semestre: sem })).body.total).toBe(446);
  });

  it("two VALORI files of one province and semester imported at once: the listing index holds both files' records", async () => {
    const sem = '2015-S1';
    const [title, header, ...data] = readFileSync(VALORI_2025, 'latin1').replace('Semestre 2025/1', 'Semestre 2015/1').split('\n');
    const rows = data.filter((l) => l.trim());
    // the file's zones in two halves (LinkZona, column 11), as two extracts of one province (e.g. two comuni)
    const zones = [...new Set(rows.map((l) => l.split(';')[10]))];
    const first = new Set(zones.slice(0, zones.length / 2));
    const half = (part: string[]) => Buffer.from([title, header, ...part, ''].join('\n'), 'latin1');
    const [a, b] = await Promise.all([
      importFile(VALORI_2025, sem, half(rows.filter((l) => first.has(l.split(';')[10]))), 'QI_half1_20151_VALORI.csv'),
      importFile(VALORI_2025, sem, half(rows.filter((l) => !first.has(l.split(';')[10]))), 'QI_half2_20151_VALORI.csv'),
    ]);
    expect(a).toMatchObject({ status: 'completed', rejected: 0 });
    expect(b).toMatchObject({ status: 'completed', rejected: 0 });
    expect(a.inserted + b.inserted).toBe(446);
    const manifest = (await getSemester(sem))!;
    expect(manifest).toMatchObject({ dirty: [], registrations: {}, index: { MI: expect.objectContaining({ rows: 446 }) } });
    expect((await quotations({ semestre: sem })).body.total).toBe(446);
  });

  it('a file dropped straight into the bucket is imported with its own job, and dropped again (same key, same bytes) with a new one', async () => {
    const content = readFileSync(VALORI_2024, 'latin1').replace('Semestre 2024/2', 'Semestre 2021/1');
    const drop = () => s3().send(new PutObjectCommand({ Bucket: OMI_BUCKET(), Key: 'manuale/QI_999_1_20211_VALORI.csv', Body: Buffer.from(content, 'latin1') }));
    const completed = async (except: string[]) => {
      let job: OmiJob | undefined;
      for (let i = 0; i < 300 && job?.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        job = (await api<{ items: OmiJob[] }>('GET', '/omi/jobs', { token: await admin() })).body.items.find((j) => j.fileName === 'QI_999_1_20211_VALORI.csv' && !except.includes(j.id));
      }
      return job;
    };
    await drop();
    const first = await completed([]);
    expect(first).toMatchObject({ status: 'completed', semester: '2021-S1', rowsRead: 446, inserted: 446 });
    expect(first!.id).toMatch(/^drop-/);
    // the same file again: a new job reads it (before, the job of the first drop answered "already done")
    await drop();
    const second = await completed([first!.id]);
    expect(second).toMatchObject({ status: 'completed', semester: '2021-S1', rowsRead: 446, inserted: 0 });
    expect(second!.id).toMatch(/^drop-/);
  });
});

describe('every real row is kept', () => {
  /** The Milano 2025/1 file as another semester, with its data lines edited by `edit` (index 0 = line 3). */
  function variant(semester: string, edit: (lines: string[]) => string[] = (l) => l): string {
    const [title, header, ...data] = readFileSync(VALORI_2025, 'latin1').split('\n');
    const [y, s2] = semester.split('-S');
    return [title!.replace('Semestre 2025/1', `Semestre ${y}/${s2}`), header!, ...edit(data)].join('\n');
  }

  it('rents as AdE writes them (",9") are read, and an unreadable rent keeps the row with a warning', async () => {
    const content = variant('2019-S1', (lines) =>
      lines.map((l, i) => {
        if (i === 0) return l.replace(/;L;[^;]*;([^;]*);L;$/, ';L;,9;$1;L;'); // line 3: Loc_min ,9
        if (i === 7) return l.replace(/;L;([^;]*);[^;]*;L;$/, ';L;$1;5x;L;'); // line 10: Loc_max 5x
        return l;
      }),
    );
    const job = await importFile(VALORI_2025, '2019-S1', content, 'QI_rents_20191_VALORI.csv');
    expect(job).toMatchObject({
      status: 'completed', rowsRead: 446, inserted: 446, rejected: 0, rejectedReasons: [], warnings: 1,
      warningReasons: [{ line: 10, reason: 'Loc_max non numerico ("5x"), salvato vuoto' }],
    });
    const all = (await quotations({ semestre: '2019-S1', page: 1 })).body;
    expect(all.total).toBe(446);
    const firstLine = content.split('\n')[2]!.split(';');
    const listed = [];
    for (let page = 1; page <= all.pages; page++) listed.push(...(await quotations({ semestre: '2019-S1', page })).body.items);
    const first = listed.find((q) => q.linkZona === firstLine[10] && q.codTip === Number(firstLine[11]) && (q.stato ?? '') === firstLine[13]);
    expect(first).toMatchObject({ locMin: 0.9 });
    const tenth = content.split('\n')[9]!.split(';');
    const warned = listed.find((q) => q.linkZona === tenth[10] && q.codTip === Number(tenth[11]) && (q.stato ?? '') === tenth[13]);
    expect(warned).toMatchObject({ locMax: null, comprMin: Number(tenth[15]) });
  });

  it('a later file of the same semester that lacks rows updates the others and keeps those', async () => {
    expect(await importFile(VALORI_2025, '2019-S2', variant('2019-S2'), 'QI_full_20192_VALORI.csv')).toMatchObject({ inserted: 446 });
    const dropped = variant('2019-S2').split('\n').slice(2, 5); // lines 3-5: same zone or the next
    const job = await importFile(VALORI_2025, '2019-S2', variant('2019-S2', (l) => l.slice(3)), 'QI_part_20192_VALORI.csv');
    expect(job).toMatchObject({ status: 'completed', rowsRead: 443, inserted: 0, updated: 443 });
    const page = await quotations({ semestre: '2019-S2', comune: 'milano' });
    expect(page.body.total).toBe(446);
    const listed = [];
    for (let p = 1; p <= page.body.pages; p++) listed.push(...(await quotations({ semestre: '2019-S2', page: p })).body.items);
    for (const line of dropped) {
      const f = line.split(';');
      const kept = listed.filter((q) => q.linkZona === f[10] && q.codTip === Number(f[11]) && (q.stato ?? '') === f[13]);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.comprMax).toBe(Number(f[16]) || null);
    }
  });
});

describe('Cancella Tutti i Dati', () => {
  it('deletes every OMI record in the background with progress, then nothing is listed or valued', async () => {
    const before = (await quotations()).body.total;
    // 2025-S1, 2024-S2, 2023-S1 (20 rows), 2022-S2 (crash), 2021-S1 (dropped), 2020-S2 (died: 100 rows), 2019-S1, 2019-S2, 2016-S2 (VALORI and ZONE at once), 2015-S1 (two halves at once)
    expect(before).toBe(892 + 20 + 446 + 446 + 100 + 446 + 446 + 446 + 446);
    // one item per (semester, zone), counted from the files, + the 43 zone descriptions of 2025-S1 and of 2016-S2
    const zonesOf = (file: string, from = 2, to?: number) => new Set(readFileSync(file, 'latin1').split('\n').slice(from, to).filter(Boolean).map((l) => l.split(';')[10])).size;
    const items = 6 * zonesOf(VALORI_2025) + 2 * zonesOf(VALORI_2024) + zonesOf(VALORI_2025, 2, 22) + zonesOf(VALORI_2025, 2, 102) + 2 * 43;
    // valued before the clear (and kept by the container): after it, not available
    const brera = { address: 'Via Brera 1', province: 'MI', city: 'Milano', surfaceArea: 80 };
    expect((await api('POST', '/valuations/evaluate', { token: await admin(), body: brera })).body).toMatchObject({ available: true });
    const digestKeys = async () => {
      let n = 0;
      for (const sem of ['2025-S1', '2024-S2']) await forEachDigestKeyOf(sem, 'MI', async () => void n++);
      return n;
    };
    expect(await digestKeys()).toBeGreaterThan(0);
    const job = await clearAll();
    // the digests go with the records (not counted among them)
    expect(await digestKeys()).toBe(0);
    expect(job).toMatchObject({ kind: 'clear', status: 'completed', deleted: items, total: items, progress: 100, error: null });
    expect((await quotations()).body).toMatchObject({ items: [], total: 0, semesters: [] });
    const v = await api('POST', '/valuations/evaluate', { token: await admin(), body: { address: 'Via Brera 1', province: 'MI', city: 'Milano', surfaceArea: 80 } });
    expect(v.body).toMatchObject({ available: false });
  });

  it('refuses uploads while a clear runs, and a second clear', async () => {
    const id = `clear-${Date.now()}`;
    await createJob({ id, kind: 'clear' });
    expect(await claimJob(id, { runId: 'test-run', kind: 'clear' })).toBe(true); // running, heartbeat now
    const token = await admin();
    const up = await api<{ message: string }>('POST', '/omi/uploads', { token, body: { fileName: 'a.csv', semester: '2025-S1' } });
    expect(up).toMatchObject({ status: 409, body: { message: 'È in corso la cancellazione dei dati OMI: attendi che finisca prima di importare' } });
    const again = await api<{ message: string }>('POST', '/omi/clear', { token, body: { confirm: true } });
    expect(again).toMatchObject({ status: 409, body: { message: 'È già in corso la cancellazione dei dati OMI' } });
    await updateJob(id, 'test-run', { status: 'completed', progress: 100 });
    expect((await api('POST', '/omi/uploads', { token, body: { fileName: 'a.csv', semester: '2025-S1' } })).status).toBe(201);
  });

  it('asks for confirmation and reports unknown jobs', async () => {
    const token = await admin();
    expect((await api('POST', '/omi/clear', { token, body: {} })).body).toMatchObject({ message: 'Conferma la cancellazione di tutti i dati OMI' });
    expect((await api('GET', '/omi/clear/00000000-0000-0000-0000-000000000000', { token })).body).toMatchObject({ message: 'Cancellazione non trovata' });
    expect((await api('GET', '/omi/imports/00000000-0000-0000-0000-000000000000', { token })).body).toMatchObject({ message: 'Importazione non trovata' });
  });
});
