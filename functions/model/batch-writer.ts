import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** A request's table key (pk, sk): matches an UnprocessedItems entry with the request it came from. */
function keyOf(req: WriteRequest): string {
  const k = (req.PutRequest?.Item ?? req.DeleteRequest?.Key ?? {}) as Record<string, unknown>;
  return `${String(k.pk)}\u0000${String(k.sk)}`;
}

const CLIENT_ERRORS = new Set([
  'ValidationException',
  'ResourceNotFoundException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'ItemCollectionSizeLimitExceededException',
  'SerializationException',
]);

/** Throttling, server errors and network failures are retried; a request DynamoDB refuses is not. */
function isRetryable(err: unknown): boolean {
  const e = err as { name?: string; $fault?: string };
  if (e.name && CLIENT_ERRORS.has(e.name)) return false;
  return e.$fault !== 'client' || /Throughput|Throttl|RequestLimit/.test(e.name ?? '');
}

export interface BatchWriterStats {
  items: number;
  batches: number;
  /** BatchWriteItem calls repeated for UnprocessedItems or a throttling error */
  retries: number;
  unprocessedItems: number;
}

/**
 * Parallel BatchWriteItem (25 requests per call, `concurrency` calls in flight) with
 * retry of UnprocessedItems, throttling, server and network errors, exponential backoff with full jitter
 * (base 25 ms, cap 3 s, up to `maxAttempts` per batch). `put`/`delete` wait when the
 * window is full, so memory stays bounded and the producer (a file stream) is paused.
 * The first failure that survives the retries is thrown by the next `put`/`delete`/`flush`.
 */
export class BatchWriter {
  private buffer: WriteRequest[] = [];
  /** what each buffered or in-flight request stands for (`put`'s weight; 1 by default), by table key */
  private weights = new Map<string, number>();
  private inFlight = new Set<Promise<void>>();
  private failure: unknown;
  readonly stats: BatchWriterStats = { items: 0, batches: 0, retries: 0, unprocessedItems: 0 };

  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    /** `onWritten(items, weight)`: after each call that wrote something, what it wrote and their added weights */
    private readonly opts: { concurrency?: number; maxAttempts?: number; onWritten?: (n: number, weight: number) => void } = {},
  ) {}

  /** `weight`: what the item stands for to the caller (e.g. the file rows it holds), reported by onWritten once written */
  async put(item: Record<string, unknown>, weight = 1): Promise<void> {
    const req: WriteRequest = { PutRequest: { Item: item } };
    if (weight !== 1) this.weights.set(keyOf(req), weight);
    await this.add(req);
  }

  async delete(key: Record<string, unknown>): Promise<void> {
    await this.add({ DeleteRequest: { Key: key } });
  }

  private async add(req: WriteRequest): Promise<void> {
    if (this.failure) throw this.failure;
    this.buffer.push(req);
    if (this.buffer.length >= 25) await this.dispatch();
  }

  private async dispatch(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (!batch.length) return;
    while (this.inFlight.size >= (this.opts.concurrency ?? 16)) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
    const p: Promise<void> = this.write(batch)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async write(batch: WriteRequest[]): Promise<void> {
    const maxAttempts = this.opts.maxAttempts ?? 10;
    let pending = batch;
    for (let attempt = 0; ; attempt++) {
      try {
        this.stats.batches++;
        const res = await this.ddb.send(new BatchWriteCommand({ RequestItems: { [this.table]: pending } }));
        const left = res.UnprocessedItems?.[this.table] ?? [];
        const done = pending.length - left.length;
        this.stats.items += done;
        if (done) this.opts.onWritten?.(done, this.writtenWeight(pending, left));
        if (!left.length) return;
        this.stats.unprocessedItems += left.length;
        pending = left;
      } catch (err) {
        if (!isRetryable(err) || attempt + 1 >= maxAttempts) throw err;
      }
      if (attempt + 1 >= maxAttempts) {
        throw new Error(`BatchWriteItem: ${pending.length} scritture non eseguite dopo ${maxAttempts} tentativi`);
      }
      this.stats.retries++;
      const cap = Math.min(3000, 25 * 2 ** attempt);
      await new Promise((r) => setTimeout(r, Math.random() * cap));
    }
  }

  /** The weights of `pending` less those of `left` (UnprocessedItems: sent again), forgotten once written. */
  private writtenWeight(pending: WriteRequest[], left: WriteRequest[]): number {
    if (!this.weights.size) return pending.length - left.length;
    const unprocessed = new Set(left.map(keyOf));
    let weight = 0;
    for (const req of pending) {
      const key = keyOf(req);
      if (unprocessed.has(key)) continue;
      weight += this.weights.get(key) ?? 1;
      this.weights.delete(key);
    }
    return weight;
  }

  /** Drops what is buffered (never sent) and waits for every write in flight; throws no failure. */
  async discard(): Promise<void> {
    for (const req of this.buffer) this.weights.delete(keyOf(req));
    this.buffer = [];
    while (this.inFlight.size) await Promise.race(this.inFlight);
  }

  /** Sends what is buffered and waits for every write in flight. */
  async flush(): Promise<void> {
    await this.dispatch();
    while (this.inFlight.size) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
  }
}
