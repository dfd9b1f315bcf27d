/**
 * The version of the OMI data state (keys.ts omiKeys.dataState): a new one after every change
 * of a semester manifest, so a valuation reads one small item, not every manifest, to know
 * whether what it read before is still true (semesters.ts omiDataState).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '../db';
import { omiKeys } from '../keys';

/** A new data state version, after a change of a manifest: a reader that sees it reads the changed manifests. */
export async function bumpDataState(): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: omiKeys.dataState(),
      UpdateExpression: 'SET entity = :e, v = :v, updatedAt = :now',
      ExpressionAttributeValues: { ':e': 'omiDataState', ':v': randomUUID(), ':now': new Date().toISOString() },
    }),
  );
}
