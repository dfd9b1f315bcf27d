/**
 * The zone-quotations items (keys in keys.ts, omiKeys): one per semester and LinkZona,
 * holding that zone's records of the semester as lines of the published format
 * (domain/omi/lines.ts), one per line. One item per zone: the import writes ~24,400 items
 * for a national semester, not ~162,000.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readValoriLine, readValoriLineOfType } from '../../domain/omi/lines';
import type { IndexEntry } from '../../domain/omi/listing-index';
import { omiComuneId, type OmiComuneRef } from '../../domain/omi/comune-match';
import { comuneSearchKey } from '../../domain/omi/names';
import { descrTipologia, type Stato } from '../../domain/omi/tipologia';
import type { OmiQuotation, OmiValoriRow } from '../../domain/omi/types';
import { batchGet } from '../batch-get';
import { ddb, queryAll, table } from '../db';
import { omiKeys, type OmiZoneId } from '../keys';

/** A stored record with the semester of its item. */
export type OmiRecord = OmiValoriRow & { semester: string };

/**
 * A zone-quotations item: its keys and the zone's records of the semester, one published
 * line each. `comune` is one of the zone's rows: it ties the item to its current comune.
 */
export function zoneQuotationsItem(zone: OmiZoneId & { comune: OmiComuneRef }, lines: readonly string[]): Record<string, unknown> {
  const id = { semester: zone.semester, prov: zone.prov, linkZona: zone.linkZona };
  return {
    ...omiKeys.zoneQuotations(id),
    ...omiKeys.zoneQuotationsIndex({ ...id, comuneId: omiComuneId(zone.comune) }),
    ...omiKeys.zoneHistoryIndex(id, 'quotations'),
    rows: lines.join('\n'),
  };
}

/** The rows of a zone's stored item, read strongly consistent (the import merges rows a file lacks); none when there is no item. */
export async function storedZoneRows(zone: OmiZoneId): Promise<OmiValoriRow[]> {
  const res = await ddb().send(new GetCommand({ TableName: table(), Key: omiKeys.zoneQuotations(zone), ConsistentRead: true }));
  return res.Item ? readZoneRows(res.Item) : [];
}

/** comuneSearchKey of a comune's name, computed once per name (an import meets each ~20 times). */
const comuneKeys = new Map<string, string>();
function comuneKeyOf(name: string): string {
  let key = comuneKeys.get(name);
  if (key === undefined) {
    if (comuneKeys.size > 50_000) comuneKeys.clear();
    comuneKeys.set(name, (key = comuneSearchKey(name)));
  }
  return key;
}

/** A record's entry in the listing index of its semester and province. */
export function indexEntryOf(row: { comuneDescrizione: string; linkZona: string; zona: string; codTip: number; stato: Stato | null }): IndexEntry {
  return {
    comune: row.comuneDescrizione,
    comuneKey: comuneKeyOf(row.comuneDescrizione),
    linkZona: row.linkZona,
    zona: row.zona,
    codTip: row.codTip,
    stato: row.stato,
  };
}

/** The rows stored in a zone-quotations item, through the parser's reader; only those of one type (Cod_Tip) when given. */
export function readZoneRows(item: Record<string, unknown>, codTip?: number): OmiValoriRow[] {
  const lines = String(item.rows ?? '').split('\n').filter(Boolean);
  if (codTip === undefined) return lines.map(readValoriLine);
  const rows: OmiValoriRow[] = [];
  for (const line of lines) {
    const row = readValoriLineOfType(line, codTip);
    if (row) rows.push(row);
  }
  return rows;
}

/** A zone-quotations item back as records (of one type when given), with the semester from its keys. */
export function toQuotations(item: Record<string, unknown>, codTip?: number): OmiRecord[] {
  const { semester } = omiKeys.parseZoneQuotations(item.pk as string, item.sk as string);
  return asRecords(readZoneRows(item, codTip), semester);
}

/** A zone's stored lines (an item's `rows`, or a comune digest's) as records of one type of a semester. */
export function quotationsOfLines(lines: string, semester: string, codTip: number): OmiRecord[] {
  return asRecords(readZoneRows({ rows: lines }, codTip), semester);
}

const asRecords = (rows: OmiValoriRow[], semester: string): OmiRecord[] =>
  rows.map((row) => ({ ...row, descrTipologia: row.descrTipologia || descrTipologia(row.codTip), semester }));

/** Every record of the given zones (each zone item once, one BatchGetItem); none without a BatchGetItem when no zone is given. */
export async function loadZonesRecords(zones: readonly OmiZoneId[]): Promise<OmiRecord[]> {
  const keyList = new Map(zones.map((z) => omiKeys.zoneQuotations(z)).map((k) => [`${k.pk}|${k.sk}`, k]));
  if (!keyList.size) return [];
  const items = await batchGet([...keyList.values()]);
  return [...items.values()].flatMap((item) => toQuotations(item));
}

const usable = (q: OmiQuotation) => (q.comprMin ?? 0) > 0 && (q.comprMax ?? 0) > 0;
export const hasUsable = (rows: readonly OmiQuotation[]) => rows.some(usable);

/** The newest semester a comune (by its id, comune-match.ts) has quotations of; one key read. */
export async function newestSemesterOf(comuneId: string): Promise<string | undefined> {
  const cq = omiKeys.quotationsOfComune(comuneId);
  const res = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: cq.index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': cq.pk },
      ScanIndexForward: false,
      Limit: 1,
      ProjectionExpression: 'gsi1sk',
    }),
  );
  const sk = res.Items?.[0]?.gsi1sk;
  return sk === undefined ? undefined : String(sk).split('#')[0];
}

/** A comune's quotations of one type in one semester: one Query of that semester's zone items. */
export async function quotationsOfSemester(comuneId: string, semester: string, codTip: number): Promise<OmiQuotation[]> {
  const rows: OmiQuotation[] = [];
  const cq = omiKeys.quotationsOfComune(comuneId);
  await queryAll(
    {
      TableName: table(),
      IndexName: cq.index,
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :sem)',
      ExpressionAttributeValues: { ':pk': cq.pk, ':sem': `${semester}#` },
    },
    (item) => {
      rows.push(...toQuotations(item, codTip));
    },
  );
  return rows;
}

/**
 * A comune's quotations of one type in the semesters before `before`, newest first,
 * stopping after the newest semester that has usable values (so the valuation can say
 * which newer semesters held only 0s). One Query, paged.
 */
export async function quotationsBefore(comuneId: string, codTip: number, before: string): Promise<OmiQuotation[]> {
  const rows: OmiQuotation[] = [];
  const cq = omiKeys.quotationsOfComune(comuneId);
  let usableSemester: string | undefined;
  await queryAll(
    {
      TableName: table(),
      IndexName: cq.index,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
      ExpressionAttributeValues: { ':pk': cq.pk, ':before': `${before}#` },
      ScanIndexForward: false,
      Limit: 200,
    },
    (item) => {
      const semester = String(item.gsi1sk).split('#')[0]!;
      if (usableSemester && semester < usableSemester) return false;
      for (const q of toQuotations(item, codTip)) {
        rows.push(q);
        if (!usableSemester && usable(q)) usableSemester = q.semester;
      }
    },
  );
  return rows;
}
