/**
 * The zone-description items (keys in keys.ts, omiKeys): one per semester and LinkZona,
 * from a ZONE file, holding the row as a line of the published format (domain/omi/lines.ts).
 */
import { requireConfig } from '../../lib/config';
import { formatZoneLine, readZoneLine } from '../../domain/omi/lines';
import { comuneSearchKey } from '../../domain/omi/names';
import type { OmiZoneInfo, OmiZoneRow } from '../../domain/omi/types';
import { queryAll } from '../db';
import { omiKeys } from '../keys';

const table = () => requireConfig('TABLE_NAME');

export function zoneItem(row: OmiZoneRow, semester: string): Record<string, unknown> {
  const comuneKey = comuneSearchKey(row.comuneDescrizione);
  return {
    ...omiKeys.zone({ semester, prov: row.prov, linkZona: row.linkZona }),
    ...omiKeys.zoneIndex({ prov: row.prov, comuneKey, linkZona: row.linkZona, semester }),
    row: formatZoneLine(row),
  };
}

/** A comune's zone descriptions, every semester, newest first (one Query of gsi1). */
export async function zonesOfComune(prov: string, comuneKey: string): Promise<OmiZoneInfo[]> {
  const zones: OmiZoneInfo[] = [];
  const zq = omiKeys.zonesOfComune(prov, comuneKey);
  await queryAll(
    {
      TableName: table(),
      IndexName: zq.index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': zq.pk },
      ScanIndexForward: false,
      ProjectionExpression: 'gsi1sk, #row',
      ExpressionAttributeNames: { '#row': 'row' },
    },
    (item) => {
      const [semester] = String(item.gsi1sk).split('#');
      const z = readZoneLine(item.row as string);
      zones.push({ linkZona: z.linkZona, zona: z.zona, fascia: z.fascia, zonaDescr: z.zonaDescr, semester: semester! });
    },
  );
  return zones;
}
