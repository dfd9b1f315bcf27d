import { beforeAll, describe, expect, it } from 'vitest';
import { api, useStackEnv } from '../support/helpers';
import { MILANO } from '../support/omi-samples';
import type { QuotationPage } from '../../functions/domain/omi/api';
import type { ValuationAvailable } from '../../functions/domain/valuation';
import { getSemester } from '../../functions/model/omi/semesters';
import { handler as indexOmiHistory } from '../../functions/omi/index-history';
import { claimJob, createJob, updateJob } from '../../functions/model/omi/jobs';
import { admin, clearAll, importFile, markDirty, undigest, unindexHistory, VALORI_2024, VALORI_2025, ZONE_2025 } from './omi-support';

/**
 * The price trend over imported files: Milano 2024/2 and 2025/1 (VALORI, real), 2025/1 ZONE
 * (real) and 2024/2 ZONE crafted from it with B12 described as another area and B13 reworded
 * (test/fixtures/omi/README.md).
 */
async function list(query: Record<string, string>) {
  return api<QuotationPage & { message?: string }>('GET', `/omi/quotations?${new URLSearchParams(query)}`, { token: await admin() });
}

beforeAll(async () => {
  useStackEnv();
  await clearAll();
  for (const [file, sem] of [[VALORI_2024, '2024-S2'], [VALORI_2025, '2025-S1'], [ZONE_2025, '2025-S1'], [MILANO.zone2024Redrawn, '2024-S2']] as const) {
    expect((await importFile(file, sem)).status).toBe('completed');
  }
});

describe('GET /omi/quotations with the zone filter', () => {
  it('a Zona code within the comune: that zone\'s rows of every semester and its history, cut where the zone was redrawn', async () => {
    const res = await list({ comune: 'Milano', zona: 'b12' });
    expect(res.status).toBe(200);
    const page = res.body;
    expect(page.items.length).toBeGreaterThan(0);
    expect(new Set(page.items.map((i) => i.linkZona))).toEqual(new Set(['MI00003228']));
    expect(new Set(page.items.map((i) => i.semestre))).toEqual(new Set(['2025-S1', '2024-S2']));
    expect(page.zoneMatches).toEqual([{ linkZona: 'MI00003228', zona: 'B12', comune: 'MILANO', prov: 'MI' }]);
    const h = page.zoneHistory!;
    expect(h).toMatchObject({ linkZona: 'MI00003228', zona: 'B12', codTip: 20, descrTipologia: 'Abitazioni civili', stato: 'NORMALE' });
    // 2024-S2 was another area (the crafted ZONE file): not joined
    expect(h.trend.points.map((p) => p.semester)).toEqual(['2025-S1']);
    expect(h.trend.redraw).toMatchObject({ semester: '2025-S1', dropped: 1, previous: { semester: '2024-S2', zonaDescr: 'PERIFERIA/BAGGIO, QUINTO ROMANO, MUGGIANO' } });
    expect(h.trend.notes[0]).toContain("Zone OMI ridisegnate dall'Agenzia delle Entrate nel semestre 2025-S1");
    expect(h.trend.sinceFirst).toBeNull();
  });

  it('a LinkZona alone (no comune): a reworded description is not a redraw, the history spans both semesters', async () => {
    const res = await list({ zona: 'MI00003232', tipologia: '20', stato: 'NORMALE' });
    expect(res.status).toBe(200);
    const h = res.body.zoneHistory!;
    expect(h).toMatchObject({ zona: 'B13', stato: 'NORMALE', basis: '' });
    expect(h.trend.redraw).toBeNull();
    expect(h.trend.notes).toEqual([]);
    expect(h.trend.points.map((p) => p.semester)).toEqual(['2024-S2', '2025-S1']);
    for (const p of h.trend.points) expect(p.min! > 0 && p.max! >= p.min!).toBe(true);
    expect(h.trend.sinceFirst).toMatchObject({ from: '2024-S2', to: '2025-S1' });
    expect(h.trend.yearChange).toBeNull();
    expect(h.trend.summary[0]).toBe('Variazione in un anno non disponibile: manca il semestre 2024-S1 con valori.');
    expect(res.body.items.every((i) => i.linkZona === 'MI00003232' && i.codTip === 20 && i.stato === 'NORMALE')).toBe(true);
  });

  it('the semester filter narrows the rows, not the history; an unknown zone matches nothing', async () => {
    const one = await list({ zona: 'MI00003232', semestre: '2025-S1' });
    expect(one.body.items.every((i) => i.semestre === '2025-S1')).toBe(true);
    expect(one.body.zoneHistory?.trend.points).toHaveLength(2);
    const none = await list({ comune: 'Milano', zona: 'Z99' });
    expect(none.body).toMatchObject({ total: 0, items: [], zoneHistory: null, zoneMatches: [] });
    // without the zone filter the page carries no history
    expect((await list({ comune: 'Milano' })).body.zoneHistory).toBeUndefined();
  });

  it('validates the zone in Italian', async () => {
    const bad = await list({ zona: 'B 12;' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Zona non valida');
  });
});

describe('the valuation carries the trend', () => {
  it('of the chosen zone, with the redraw note', async () => {
    const res = await api<ValuationAvailable>('POST', '/valuations/evaluate', {
      token: await admin(),
      body: { address: '', province: 'MI', city: 'Milano', surfaceArea: 80, condition: 'buono', linkZona: 'MI00003228' },
    });
    expect(res.status).toBe(200);
    expect(res.body.history.map((h) => h.semester)).toEqual(['2025-S1', '2024-S2']);
    expect(res.body.trend?.redraw?.semester).toBe('2025-S1');
    expect(res.body.trend?.points.map((p) => p.semester)).toEqual(['2025-S1']);
  });
});

describe('OMI data stored before the zones\' history index', () => {
  const history = async () => (await list({ zona: 'MI00003232', tipologia: '20', stato: 'NORMALE' })).body.zoneHistory!.trend.points.map((p) => p.semester);
  const valuation = async () =>
    (
      await api<ValuationAvailable>('POST', '/valuations/evaluate', {
        token: await admin(),
        body: { address: '', province: 'MI', city: 'Milano', surfaceArea: 80, condition: 'buono', linkZona: 'MI00003232' },
      })
    ).body.history.map((h) => h.semester);

  it('is read by key until the daily job indexes it (and digests it); the job waits for an import under way, then lists the province', async () => {
    // an import registers a province new to a semester as indexed
    expect((await getSemester('2024-S2'))!.historyIndexed).toEqual(['MI']);
    const stored = await unindexHistory('2024-S2', 'MI');
    expect(stored).toBeGreaterThan(40); // Milano's zones, quotations and descriptions
    expect((await getSemester('2024-S2'))!.historyIndexed).toEqual([]);
    await undigest('2024-S2', 'MI');
    // the unindexed semester is still in the zone's history and in the valuation's
    expect(await history()).toEqual(['2024-S2', '2025-S1']);
    expect(await valuation()).toEqual(['2025-S1', '2024-S2']);

    // a quotations import under way there (its job beating): left for the next run
    const importId = `import-${Date.now()}`;
    await createJob({ id: importId, kind: 'import' });
    expect(await claimJob(importId, { runId: 'test-run', kind: 'import' })).toBe(true);
    await markDirty('2024-S2', 'MI', true);
    try {
      expect(await indexOmiHistory({}, undefined)).toEqual({ indexed: 0, items: 0, pending: 1, digests: { built: 0, pending: 1 } });
    } finally {
      await markDirty('2024-S2', 'MI', false);
      await updateJob(importId, 'test-run', { status: 'completed', progress: 100 });
    }
    // a clear under way: no digests built for what it deletes
    const clearId = `clear-${Date.now()}`;
    await createJob({ id: clearId, kind: 'clear' });
    expect(await claimJob(clearId, { runId: 'test-run', kind: 'clear' })).toBe(true);
    try {
      expect((await indexOmiHistory({}, undefined)).digests).toEqual({ built: 0, pending: 1 });
    } finally {
      await updateJob(clearId, 'test-run', { status: 'completed', progress: 100 });
    }
    await unindexHistory('2024-S2', 'MI'); // the run above indexed the history: back as it was

    expect(await indexOmiHistory({}, undefined)).toEqual({ indexed: 1, items: stored, pending: 0, digests: { built: 1, pending: 0 } });
    expect((await getSemester('2024-S2'))!.historyIndexed).toEqual(['MI']);
    expect((await getSemester('2024-S2'))!.digests.MI).toMatchObject({ n: 1 });
    expect(await history()).toEqual(['2024-S2', '2025-S1']);
    expect(await valuation()).toEqual(['2025-S1', '2024-S2']);
    // nothing left: the next run only reads the manifests
    expect(await indexOmiHistory({}, undefined)).toEqual({ indexed: 0, items: 0, pending: 0, digests: { built: 0, pending: 0 } });
  });
});
