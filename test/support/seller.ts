/** Sellers for the integration tests: a fresh account each time, and a submitted request given to it. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { api, idTokenFor, signUp, stack, uniqueEmail } from './helpers';
import { apiFrom, fullBody, newClientIp, newId } from './submission';

export interface Seller {
  token: string;
  userId: string;
  email: string;
}

export const SELLER_PASSWORD = 'segreta1';

/** A new seller account (never the demo one: tests may change or delete it). */
export async function freshSeller(name = 'Mario Rossi'): Promise<Seller> {
  const email = uniqueEmail('venditore');
  await signUp({ email, password: SELLER_PASSWORD, userType: 'venditore', name });
  const token = await idTokenFor(email, SELLER_PASSWORD);
  const me = await api<{ id: string }>('GET', '/me', { token });
  return { token, userId: me.body.id, email };
}

/** Links a request to the seller as a claim does: userId and the seller index. */
export async function giveProperty(propertyId: string, userId: string): Promise<void> {
  const TABLE = stack().env.TABLE_NAME!;
  const item = (await ddb().send(new GetCommand({ TableName: TABLE, Key: keys.property(propertyId), ConsistentRead: true }))).Item!;
  const idx = keys.sellerIndex(userId, item.createdAt as string);
  await ddb().send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.property(propertyId),
      UpdateExpression: 'SET userId = :u, gsi1pk = :p, gsi1sk = :s',
      ExpressionAttributeValues: { ':u': userId, ':p': idx.gsi1pk, ':s': idx.gsi1sk },
    }),
  );
}

/** A request submitted through the public wizard route and given to the seller; answers its id. */
export async function ownedProperty(userId: string): Promise<string> {
  const id = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), email: uniqueEmail('contatto') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await giveProperty(id, userId);
  return id;
}

/** A property's catasto delegation item, generated and, with `signedAt`, signed (its files named, not uploaded). */
export function catastoDelegation(propertyId: string, signedAt: string | null) {
  return {
    ...keys.delegation(propertyId, 'catasto'),
    entity: 'delegation',
    propertyId,
    type: 'catasto',
    province: 'MI',
    municipality: 'Milano',
    generatedKey: `${propertyId}/delegations/catasto-1.pdf`,
    documentKey: signedAt ? `${propertyId}/delegations/signed-catasto-1.pdf` : null,
    signedAt,
  };
}
