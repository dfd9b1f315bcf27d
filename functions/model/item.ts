/** A stored item as DynamoDB returns it, and the readers of its loosely typed attributes. */
export type Item = Record<string, unknown>;

/** A non-empty string attribute, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A page count (a positive integer) attribute, else null. */
export const pageCount = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
