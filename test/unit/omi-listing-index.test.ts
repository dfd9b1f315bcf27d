import { describe, expect, it } from 'vitest';
import { buildChunk, chunkEntries, selectPage, type IndexEntry } from '../../functions/domain/omi/listing-index';
import { decodeChunk, encodeChunk } from '../../functions/model/omi/index-chunks';
import { comuneSearchKey } from '../../functions/domain/omi/names';

const e = (comune: string, linkZona: string, zona: string, codTip: number, stato: IndexEntry['stato']): IndexEntry => ({
  comune, comuneKey: comuneSearchKey(comune), linkZona, zona, codTip, stato,
});

// two provinces of one semester, given out of order
const mi = [
  e('MILANO', 'MI00000002', 'B12', 20, 'OTTIMO'),
  e('MILANO', 'MI00000001', 'B2', 20, 'NORMALE'),
  e('MILANO', 'MI00000001', 'B2', 5, 'NORMALE'),
  e('MILANO', 'MI00000001', 'B2', 20, 'OTTIMO'),
  e('CANTU`', 'MI00000009', 'B1', 20, null),
];
const pg = [e('SANT`ANATOLIA DI NARCO', 'PG00000001', 'R1', 20, 'NORMALE'), e('PERUGIA', 'PG00000002', 'B1', 19, 'SCADENTE')];

describe('listing index chunks', () => {
  it('keep the display order: comune, zone (B2 before B12), type, state (OTTIMO, NORMALE, SCADENTE, none)', () => {
    const chunk = buildChunk('2025-S1', 'MI', mi);
    expect([...chunkEntries(chunk)].map((x) => `${x.comune} ${x.zona} ${x.codTip} ${x.stato}`)).toEqual([
      'CANTU` B1 20 null',
      'MILANO B2 5 NORMALE',
      'MILANO B2 20 OTTIMO',
      'MILANO B2 20 NORMALE',
      'MILANO B12 20 OTTIMO',
    ]);
  });

  it('survive encoding, in parts when large', () => {
    const chunk = buildChunk('2025-S1', 'MI', mi);
    const parts = encodeChunk(chunk);
    expect(parts).toHaveLength(1);
    expect([...chunkEntries(decodeChunk(parts))]).toEqual([...chunkEntries(chunk)]);
    const many: IndexEntry[] = [];
    for (let i = 0; i < 120_000; i++) many.push(e(`COMUNE ${i % 5000} ${(i * 7919) % 104729}`, `RM${String(i).padStart(8, '0')}`, `D${i % 90}`, 1 + (i % 23), 'NORMALE'));
    const big = encodeChunk(buildChunk('2025-S1', 'RM', many));
    expect(big.length).toBeGreaterThan(1);
    expect(big.every((p) => p.length <= 350_000)).toBe(true);
    expect(decodeChunk(big).size).toBe(120_000);
  });

  it('count exactly and slice pages across chunks', () => {
    const chunks = [buildChunk('2025-S1', 'MI', mi), buildChunk('2025-S1', 'PG', pg), buildChunk('2024-S2', 'MI', mi)];
    expect(selectPage(chunks, {}, 0, 50).total).toBe(12);
    expect(selectPage(chunks, { codTip: 20 }, 0, 50).total).toBe(9);
    expect(selectPage(chunks, { stato: 'OTTIMO' }, 0, 50).total).toBe(4);
    expect(selectPage(chunks, { comuneKey: comuneSearchKey('cantù') }, 0, 50).total).toBe(2);
    expect(selectPage(chunks, { comuneKey: comuneSearchKey("sant'anatolia") }, 0, 50).hits).toEqual([
      { semester: '2025-S1', prov: 'PG', linkZona: 'PG00000001', codTip: 20, stato: 'NORMALE' },
    ]);
    // page of 3 starting at row 5: last row of MI 2025-S1, both PG rows
    const page = selectPage(chunks, {}, 4, 3);
    expect(page.total).toBe(12);
    expect(page.hits.map((h) => `${h.semester} ${h.linkZona} ${h.codTip}`)).toEqual([
      '2025-S1 MI00000002 20',
      '2025-S1 PG00000002 19',
      '2025-S1 PG00000001 20',
    ]);
    expect(selectPage(chunks, {}, 50, 50)).toEqual({ total: 12, hits: [] });
  });
});
