/**
 * DynamoDB keys, defined once per entity. No handler builds a key string: it calls these.
 *
 * | entity            | pk                  | sk           | gsi1 (pk / sk)                  | gsi2 (pk / sk)          |
 * |-------------------|---------------------|--------------|---------------------------------|-------------------------|
 * | profile           | USER#{sub}          | PROFILE      | PROFILES / {name}#{sub}         |                         |
 * | property          | PROPERTY#{id}       | PROPERTY     | SELLER#{userId} / {createdAt}   | PROPERTIES / {createdAt}|
 * | invitation token  | INVITE#{token}      | INVITE       |                                 |                         |
 * | room              | PROPERTY#{id}       | ROOM#{roomId}|                                 |                         |
 * | room media        | PROPERTY#{id}       | MEDIA#{roomId}#{mediaId} |                     |                         |
 * | valuation         | PROPERTY#{id}       | VALUATION#{createdAt}    |                     |                         |
 * | mail outbox       | OUTBOX#{id}         | OUTBOX       | gsi3: OUTBOX#PENDING / {nextAttemptAt}#{id} (sparse: only while pending) |
 * | rate-limit window | RATE#{scope}#{client} | WINDOW#{windowStart} | (expiresAt = TTL)     |                         |
 *
 * A property's dossier (rooms, media, valuations, ...) lives under the same pk with
 * its own sk prefix, so one Query returns it whole.
 */
export const keys = {
  profile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  profileIndex: (fullName: string, userId: string) => ({
    gsi1pk: 'PROFILES',
    gsi1sk: `${normalizeForSort(fullName)}#${userId}`,
  }),
  allProfiles: () => ({ index: 'gsi1' as const, pk: 'PROFILES' }),

  property: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: 'PROPERTY' }),
  propertyDossier: (propertyId: string) => ({ pk: `PROPERTY#${propertyId}` }),
  propertyIndexes: (p: { userId?: string | null; createdAt: string }) => ({
    ...(p.userId ? { gsi1pk: `SELLER#${p.userId}`, gsi1sk: p.createdAt } : {}),
    gsi2pk: 'PROPERTIES',
    gsi2sk: p.createdAt,
  }),
  sellerIndex: (userId: string, createdAt: string) => ({ gsi1pk: `SELLER#${userId}`, gsi1sk: createdAt }),
  propertiesOfSeller: (userId: string) => ({ index: 'gsi1' as const, pk: `SELLER#${userId}` }),
  allProperties: () => ({ index: 'gsi2' as const, pk: 'PROPERTIES' }),

  invitation: (token: string) => ({ pk: `INVITE#${token}`, sk: 'INVITE' }),

  room: (propertyId: string, roomId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `ROOM#${roomId}` }),
  media: (propertyId: string, roomId: string, mediaId: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `MEDIA#${roomId}#${mediaId}` }),
  /** ISO createdAt: a property's valuations sort oldest first; the latest is the last */
  valuation: (propertyId: string, createdAt: string) => ({ pk: `PROPERTY#${propertyId}`, sk: `VALUATION#${createdAt}` }),
  dossierPrefixes: { room: 'ROOM#', media: 'MEDIA#', valuation: 'VALUATION#' } as const,

  /** a mail to send, written in the same transaction as what caused it (transactional outbox) */
  outbox: (id: string) => ({ pk: `OUTBOX#${id}`, sk: 'OUTBOX' }),
  outboxPendingIndex: (nextAttemptAt: string, id: string) => ({ gsi3pk: 'OUTBOX#PENDING', gsi3sk: `${nextAttemptAt}#${id}` }),
  pendingOutbox: () => ({ index: 'gsi3' as const, pk: 'OUTBOX#PENDING' }),

  /** fixed-window request counter of one client (hashed IP) for one scope */
  rateLimit: (scope: string, client: string, windowStart: number) => ({ pk: `RATE#${scope}#${client}`, sk: `WINDOW#${windowStart}` }),
};

/** Lower-case, accent-free text for sort keys and searches. */
export function normalizeForSort(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}
