/**
 * The zone-description items (keys in keys.ts, omiKeys): one per semester and LinkZona,
 * from a ZONE file, holding the row as a line of the published format (domain/omi/lines.ts).
 */
import { formatZoneLine, readZoneLine } from '../../domain/omi/lines';
import { omiComuneId } from '../../domain/omi/comune-match';
import type { OmiZoneInfo, OmiZoneRow } from '../../domain/omi/types';
import { queryAll, table } from '../db';
import { omiKeys } from '../keys';

export function zoneItem(row: OmiZoneRow, semester: string): Record<string, unknown> {
  return {
    ...omiKeys.zone({ semester, prov: row.prov, linkZona: row.linkZona }),
    ...omiKeys.zoneIndex({ comuneId: omiComuneId(row), linkZona: row.linkZona, semester }),
    ...omiKeys.zoneHistoryIndex({ semester, prov: row.prov, linkZona: row.linkZona }, 'description'),
    row: formatZoneLine(row),
  };
}

/**
 * A comune's zone descriptions of one semester (one Query of gsi1); when that semester has
 * none (its ZONE file was not imported), those of the newest semester that has them. Reads
 * only what the valuation shows, however many semesters are loaded.
 */
export async function zonesOfComune(comuneId: string, semester: string): Promise<OmiZoneInfo[]> {
  const own = await queryZones(comuneId, semester);
  return own.length ? own : newestZonesOfComune(comuneId);
}

/** A comune's zone descriptions of the newest semester that has them. */
export const newestZonesOfComune = (comuneId: string): Promise<OmiZoneInfo[]> => queryZones(comuneId, undefined);

/** A stored zone line as the valuation sees it. */
export function zoneInfoOfLine(line: string, semester: string): OmiZoneInfo {
  const z = readZoneLine(line);
  return { prov: z.prov, linkZona: z.linkZona, zona: z.zona, fascia: z.fascia, zonaDescr: z.zonaDescr, semester };
}

async function queryZones(comuneId: string, semester: string | undefined): Promise<OmiZoneInfo[]> {
  const zones: OmiZoneInfo[] = [];
  const zq = omiKeys.zonesOfComune(comuneId, semester);
  let first: string | undefined;
  await queryAll(
    {
      TableName: table(),
      IndexName: zq.index,
      KeyConditionExpression: zq.skPrefix ? 'gsi1pk = :pk AND begins_with(gsi1sk, :sem)' : 'gsi1pk = :pk',
      ExpressionAttributeValues: zq.skPrefix ? { ':pk': zq.pk, ':sem': zq.skPrefix } : { ':pk': zq.pk },
      ScanIndexForward: false,
      ProjectionExpression: 'gsi1sk, #row',
      ExpressionAttributeNames: { '#row': 'row' },
    },
    (item) => {
      const [sem] = String(item.gsi1sk).split('#');
      // without a semester: the newest one only
      if ((first ??= sem) !== sem) return false;
      zones.push(zoneInfoOfLine(item.row as string, sem!));
    },
  );
  return zones;
}
