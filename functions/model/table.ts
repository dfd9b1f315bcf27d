/**
 * The single table's shape, used by the CDK data stack and by the local setup so both
 * create the same table. Key attribute names are generic: what they hold per entity is
 * defined in keys.ts and nowhere else.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

export const TABLE_GSIS = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
] as const;

export type IndexName = (typeof TABLE_GSIS)[number]['indexName'];

/** Attribute holding an epoch-seconds expiry; DynamoDB TTL deletes expired items. */
export const TTL_ATTRIBUTE = 'expiresAt';
