/** Purchase options in tests: the seller's signature as a shortcut where the signing itself is not what is tested. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { stack } from './helpers';

/**
 * The seller's signature written directly (a shortcut where the signing is not what is
 * tested: test/integration/kyc.test.ts and option-lifecycle.test.ts sign through the seller's
 * routes): the option signed (state, time, expiry) and the property's lifecycle fact.
 */
export async function markSigned(propertyId: string, at = new Date().toISOString()): Promise<void> {
  const TABLE = stack().env.TABLE_NAME!;
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.option(propertyId),
      UpdateExpression: 'SET #s = :signed, signedAt = :at, signatureType = :fisica, expiresAt = :exp',
      ConditionExpression: '#s IN (:created, :sent)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':signed': 'signed', ':at': at, ':fisica': 'fisica', ':exp': '2099-12-31', ':created': 'created', ':sent': 'sent' },
    }),
  );
  await ddb().send(
    new UpdateCommand({ TableName: TABLE, Key: keys.property(propertyId), UpdateExpression: 'SET optionSignedAt = :at, optionState = :signed', ExpressionAttributeValues: { ':at': at, ':signed': 'signed' } }),
  );
}
