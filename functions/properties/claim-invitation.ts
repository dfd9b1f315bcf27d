import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { ddb, isConditionFailure } from '../lib/aws/ddb';
import { requireConfig } from '../lib/config';
import { ConflictError, GoneError } from '../lib/errors';
import { route } from '../lib/http';
import { keys } from '../lib/keys';
import { isExpired, TOKEN_PATTERN } from './invitations';

const body = z.object({ token: z.string({ error: 'Link non valido' }).regex(TOKEN_PATTERN, 'Link non valido') });

/**
 * A seller who signs in from an invitation link becomes the owner of the property whose
 * invitation token matches (spec 000 section 4, sign-in redirect). A property already
 * linked to another account stays theirs.
 */
export const handler = route('claimInvitation', { body }, async ({ body, caller }) => {
  const me = caller!;
  const table = requireConfig('TABLE_NAME');
  const invite = await ddb().send(new GetCommand({ TableName: table, Key: keys.invitation(body.token), ConsistentRead: true }));
  const propertyId = invite.Item?.propertyId as string | undefined;
  if (!propertyId || isExpired(invite.Item?.expiresAt as number | undefined)) {
    throw new GoneError('Proprietà non trovata o link scaduto');
  }
  const property = await ddb().send(new GetCommand({ TableName: table, Key: keys.property(propertyId), ConsistentRead: true }));
  if (!property.Item) throw new GoneError('Proprietà non trovata o link scaduto');
  const createdAt = property.Item.createdAt as string;
  const seller = keys.sellerIndex(me.userId, createdAt);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table,
        Key: keys.property(propertyId),
        UpdateExpression: 'SET userId = :me, gsi1pk = :g1pk, gsi1sk = :g1sk',
        ConditionExpression: 'attribute_exists(pk) AND invitationToken = :token AND (attribute_not_exists(userId) OR userId = :null OR userId = :me)',
        ExpressionAttributeValues: { ':me': me.userId, ':g1pk': seller.gsi1pk, ':g1sk': seller.gsi1sk, ':token': body.token, ':null': null },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) {
      throw new ConflictError('Questo immobile è già collegato a un altro account');
    }
    throw err;
  }
  return { propertyId, token: body.token };
});
