/**
 * The bulk writes of OMI data (import and clear): parallel BatchWriteItem (batch-writer.ts)
 * of zone-quotations and zone-description items, and deletes of the keys a semester and
 * province hold (semesters.ts forEachKeyOf).
 */
import type { OmiComuneRef } from '../../domain/omi/comune-match';
import type { OmiZoneRow } from '../../domain/omi/types';
import { BatchWriter, type BatchWriterStats } from '../batch-writer';
import { ddb, table } from '../db';
import type { OmiZoneId } from '../keys';
import { zoneQuotationsItem } from './quotations';
import { zoneItem } from './zones';

export class OmiWriter {
  private readonly writer: BatchWriter;

  /**
   * `concurrency`: BatchWriteItem calls in flight (16 by default); `onRowsWritten`: the file
   * rows each call stored (the `rows` given with each put), once DynamoDB took them
   */
  constructor(opts: { concurrency?: number; onRowsWritten?: (rows: number) => void } = {}) {
    const onRowsWritten = opts.onRowsWritten;
    this.writer = new BatchWriter(ddb(), table(), {
      concurrency: opts.concurrency ?? 16,
      onWritten: onRowsWritten ? (_items, rows) => onRowsWritten(rows) : undefined,
    });
  }

  get stats(): BatchWriterStats {
    return this.writer.stats;
  }

  /**
   * A zone's records of a semester, one published line each (the whole item: it replaces the
   * stored one); `rows`: the file rows it stores that no earlier write counted (all its lines by default).
   */
  putZoneQuotations(zone: OmiZoneId & { comune: OmiComuneRef }, lines: readonly string[], rows = lines.length): Promise<void> {
    return this.writer.put(zoneQuotationsItem(zone, lines), rows);
  }

  /** A zone's description of a semester. */
  putZone(row: OmiZoneRow, semester: string): Promise<void> {
    return this.writer.put(zoneItem(row, semester));
  }

  delete(key: { pk: string; sk: string }): Promise<void> {
    return this.writer.delete(key);
  }

  /** Drops what is buffered (never sent) and waits for every write in flight. */
  discard(): Promise<void> {
    return this.writer.discard();
  }

  /** Sends what is buffered and waits for every write in flight (throws the first failure). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
