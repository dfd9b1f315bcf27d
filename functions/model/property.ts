/**
 * THE condition of every write that edits a request (dashboard, review, options): the
 * property exists and is not being deleted. The deletion (request-store.ts) marks the
 * property with `deletingAt` first, so from then on every edit loses its condition
 * (answer 404 'Immobile non trovato', REQUEST_MESSAGES.notFound).
 *
 *   new UpdateCommand({ Key: keys.property(id), ConditionExpression: PROPERTY_EDITABLE, ... })
 *
 * In a TransactWriteItems, put it on the property item (an Update or a ConditionCheck).
 */
export const PROPERTY_EDITABLE = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';
