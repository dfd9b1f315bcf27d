/**
 * One zone across semesters: its zone-quotations items (the price history) and its
 * zone-description items (what the price trend compares to see a redraw), in the given
 * semesters. Used by the valuation and by the OMI data page's zone history.
 *
 * The semesters whose manifest lists the province as history-indexed are read in one Query
 * of the zone's history index (gsi2, keys.ts); the others (items stored before the index
 * existed and not yet backfilled by history-index.ts) in one BatchGetItem of exactly their
 * keys, alongside. On the local stack the Query takes ~5 ms where the BatchGetItem of 30
 * semesters took ~18 (bench/omi-history.ts).
 */
import type { OmiZoneInfo } from '../../domain/omi/types';
import { readZoneLine } from '../../domain/omi/lines';
import { batchGet } from '../batch-get';
import { queryAll, table } from '../db';
import { omiKeys } from '../keys';
import type { Item } from '../item';
import { toQuotations, type OmiRecord } from './quotations';

const PROJECTION = { projection: 'pk, sk, #rows, #row', names: { '#rows': 'rows', '#row': 'row' } };

export async function loadZoneHistory(
  prov: string,
  linkZona: string,
  semesters: readonly string[],
  /** the semesters (of `semesters`) whose items of the province are all in the history index */
  indexed: ReadonlySet<string> = new Set(),
  /** only the records of this type (Cod_Tip), the others not even read */
  codTip?: number,
): Promise<{ records: OmiRecord[]; descriptions: OmiZoneInfo[] }> {
  const wanted = new Set(semesters);
  if (!wanted.size) return { records: [], descriptions: [] };
  const byQuery = [...wanted].filter((s) => indexed.has(s));
  const byKey = [...wanted].filter((s) => !indexed.has(s));
  const [queried, got] = await Promise.all([byQuery.length ? queryHistory(prov, linkZona, new Set(byQuery)) : [], byKeys(prov, linkZona, byKey)]);
  const records: OmiRecord[] = [];
  const descriptions: OmiZoneInfo[] = [];
  for (const item of [...queried, ...got]) {
    const sk = item.sk as string;
    if (sk.startsWith(omiKeys.quotationSkPrefix)) records.push(...toQuotations(item, codTip));
    else if (sk.startsWith(omiKeys.zoneSkPrefix)) {
      const { semester } = omiKeys.parseZoneQuotations(item.pk as string, sk);
      const z = readZoneLine(item.row as string);
      descriptions.push({ linkZona: z.linkZona, zona: z.zona, fascia: z.fascia, zonaDescr: z.zonaDescr, semester });
    }
  }
  return { records, descriptions };
}

/** The zone's items in the history index, of the given semesters only (the index holds every semester's). */
async function queryHistory(prov: string, linkZona: string, semesters: ReadonlySet<string>): Promise<Item[]> {
  const q = omiKeys.zoneHistory(prov, linkZona);
  const items: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': q.pk },
      ProjectionExpression: PROJECTION.projection,
      ExpressionAttributeNames: PROJECTION.names,
    },
    (item) => {
      if (semesters.has(omiKeys.parseZoneQuotations(item.pk as string, item.sk as string).semester)) items.push(item);
    },
  );
  return items;
}

/** The zone's items of semesters not in the index, by their keys: calls of 16 keys side by side. */
async function byKeys(prov: string, linkZona: string, semesters: readonly string[]): Promise<Item[]> {
  if (!semesters.length) return [];
  const keys = semesters.flatMap((semester) => [omiKeys.zoneQuotations({ semester, prov, linkZona }), omiKeys.zone({ semester, prov, linkZona })]);
  return [...(await batchGet(keys, { perCall: 16, ...PROJECTION })).values()];
}
