/**
 * The bulk writes of OMI data (import and clear): parallel BatchWriteItem (batch-writer.ts)
 * of zone-quotations and zone-description items, and deletes of the keys a semester and
 * province hold (semesters.ts forEachKeyOf).
 */
import type { OmiComuneRef } from '../../domain/omi/comune-match';
import type { OmiZoneRow } from '../../domain/omi/types';
import { requireConfig } from '../../lib/config';
import { BatchWriter, type BatchWriterStats } from '../batch-writer';
import { ddb } from '../db';
import type { OmiZoneId } from '../keys';
import { zoneQuotationsItem } from './quotations';
import { zoneItem } from './zones';

export class OmiWriter {
  private readonly writer: BatchWriter;

  /** `concurrency`: BatchWriteItem calls in flight (16 by default) */
  constructor(opts: { concurrency?: number } = {}) {
    this.writer = new BatchWriter(ddb(), requireConfig('TABLE_NAME'), { concurrency: opts.concurrency ?? 16 });
  }

  get stats(): BatchWriterStats {
    return this.writer.stats;
  }

  /** A zone's records of a semester, one published line each (the whole item: it replaces the stored one). */
  putZoneQuotations(zone: OmiZoneId & { comune: OmiComuneRef }, lines: readonly string[]): Promise<void> {
    return this.writer.put(zoneQuotationsItem(zone, lines));
  }

  /** A zone's description of a semester. */
  putZone(row: OmiZoneRow, semester: string): Promise<void> {
    return this.writer.put(zoneItem(row, semester));
  }

  delete(key: { pk: string; sk: string }): Promise<void> {
    return this.writer.delete(key);
  }

  /** Sends what is buffered and waits for every write in flight (throws the first failure). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
