/**
 * The claim use case (spec 000 section 4, sign-in redirect), shared by POST /invitations/claim
 * and GET /seller/kyc: an invitation token (INVITE#{token}, not expired) names a property;
 * a seller who opens it becomes the property's owner when it has none. A property already
 * linked to another account stays theirs.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { keys } from './keys';
import { isExpired, tokenExpiryFields } from './tokens';
import { propertyCondition } from './property';

/** The property id of a valid (known, not expired) invitation token, else null. */
export async function invitedPropertyId(token: string): Promise<string | null> {
  const invite = await ddb().send(new GetCommand({ TableName: table(), Key: keys.invitation(token), ConsistentRead: true }));
  const propertyId = invite.Item?.propertyId as string | undefined;
  if (!propertyId || isExpired(invite.Item?.expiresAt as number | undefined)) return null;
  return propertyId;
}

/**
 * Links the property to the seller (userId and the gsi1 SELLER# index) under the property
 * guard (model/property.ts: exists, not being deleted) and, in the same condition, its
 * invitation token is `token` and it has no other owner. True when the property is now the
 * seller's; false when the condition failed (another owner, being deleted, or gone): the
 * callers answer all of these as an unknown link, never telling them apart.
 */
export async function linkPropertyToSeller(propertyId: string, token: string, userId: string, createdAt: string): Promise<boolean> {
  const seller = keys.sellerIndex(userId, createdAt);
  const condition = propertyCondition({
    propertyId,
    and: {
      expression: 'invitationToken = :token AND (attribute_not_exists(userId) OR userId = :null OR userId = :me)',
      values: { ':token': token, ':null': null, ':me': userId },
    },
  });
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.property(propertyId),
        UpdateExpression: 'SET userId = :me, gsi1pk = :g1pk, gsi1sk = :g1sk',
        ...condition,
        ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':g1pk': seller.gsi1pk, ':g1sk': seller.gsi1sk },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** A fresh invitation link for a notification to the seller: its token and the one it replaces. */
export interface InvitationChange {
  propertyId: string;
  /** the new token (model/tokens newToken) */
  token: string;
  /** the property's current invitation token, deleted (only the newest link works); null when it has none */
  oldToken: string | null;
  /** ISO time of the notification: the new link lives TOKEN_TTL_DAYS from it */
  at: string;
}

/**
 * Each notification to the seller carries a fresh link (docs/onboarding.md): the writes that
 * go with `SET invitationToken = :token` on the PROPERTY item (invitationCondition in its
 * condition): the new INVITE item and the old one deleted.
 */
export function invitationLinkItems(c: InvitationChange) {
  return [
    {
      Put: {
        TableName: table(),
        Item: { ...keys.invitation(c.token), entity: 'invitation', propertyId: c.propertyId, createdAt: c.at, ...tokenExpiryFields(Date.parse(c.at)) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(c.oldToken ? [{ Delete: { TableName: table(), Key: keys.invitation(c.oldToken) } }] : []),
  ];
}

/** "The property's invitation token is still the one read" (or it has none), with its own values: of two notifications at once one loses. */
export function invitationCondition(oldToken: string | null): { expression: string; values: Record<string, unknown> } {
  return oldToken
    ? { expression: 'invitationToken = :oldInvite', values: { ':oldInvite': oldToken } }
    : { expression: '(attribute_not_exists(invitationToken) OR invitationToken = :noInvite)', values: { ':noInvite': null } };
}
