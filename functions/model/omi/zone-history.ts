/**
 * One zone across semesters: its zone-quotations items (the price history) and its
 * zone-description items (what the price trend compares to see a redraw), in the given
 * semesters, read together in one BatchGetItem of exactly those keys. Used by the
 * valuation and by the OMI data page's zone history.
 */
import type { OmiZoneInfo } from '../../domain/omi/types';
import { readZoneLine } from '../../domain/omi/lines';
import { batchGet } from '../batch-get';
import { omiKeys } from '../keys';
import { toQuotations, type OmiRecord } from './quotations';

export async function loadZoneHistory(
  prov: string,
  linkZona: string,
  semesters: readonly string[],
): Promise<{ records: OmiRecord[]; descriptions: OmiZoneInfo[] }> {
  const wanted = [...new Set(semesters)];
  if (!wanted.length) return { records: [], descriptions: [] };
  const keys = wanted.flatMap((semester) => [omiKeys.zoneQuotations({ semester, prov, linkZona }), omiKeys.zone({ semester, prov, linkZona })]);
  // calls of 16 keys side by side: the valuation waits on this read (4 calls for 30 semesters)
  const got = await batchGet(keys, { perCall: 16, projection: 'pk, sk, #rows, #row', names: { '#rows': 'rows', '#row': 'row' } });
  const records: OmiRecord[] = [];
  const descriptions: OmiZoneInfo[] = [];
  for (const item of got.values()) {
    const sk = item.sk as string;
    if (sk.startsWith(omiKeys.quotationSkPrefix)) records.push(...toQuotations(item));
    else if (sk.startsWith(omiKeys.zoneSkPrefix)) {
      const { semester } = omiKeys.parseZoneQuotations(item.pk as string, sk);
      const z = readZoneLine(item.row as string);
      descriptions.push({ linkZona: z.linkZona, zona: z.zona, fascia: z.fascia, zonaDescr: z.zonaDescr, semester });
    }
  }
  return { records, descriptions };
}
