import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ddb, isConditionFailure } from '../lib/aws/ddb';
import { cognito } from '../lib/aws/cognito';
import { requireConfig } from '../lib/config';
import { keys } from '../lib/keys';
import { groupForUserType, type Group, type UserType } from '../domain/roles';
import type { Profile } from '../domain/profile';

export type { Profile };

const FIELDS = [
  'id', 'email', 'fullName', 'userType', 'phone', 'companyName', 'companyVat', 'companyRea',
  'companyAddress', 'companyCity', 'companyProvince', 'createdAt',
] as const;

export function toProfile(item: Record<string, unknown>): Profile {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f] ?? null;
  return out as unknown as Profile;
}

export async function getProfile(userId: string): Promise<Profile | undefined> {
  const res = await ddb().send(
    new GetCommand({ TableName: requireConfig('TABLE_NAME'), Key: keys.profile(userId), ConsistentRead: true }),
  );
  return res.Item ? toProfile(res.Item) : undefined;
}

/**
 * Creates the profile once (a redelivered trigger changes nothing) and puts the user in
 * the group of their user type.
 */
export async function createProfile(input: {
  userId: string;
  email: string;
  fullName: string;
  userType: UserType;
  phone: string | null;
  userPoolId: string;
  username: string;
  /** groups to join; by default the group of the user type */
  groups?: Group[];
}): Promise<void> {
  const createdAt = new Date().toISOString();
  try {
    await ddb().send(
      new PutCommand({
        TableName: requireConfig('TABLE_NAME'),
        Item: {
          ...keys.profile(input.userId),
          ...keys.profileIndex(input.fullName || input.email, input.userId),
          entity: 'profile',
          id: input.userId,
          email: input.email.toLowerCase(),
          fullName: input.fullName,
          userType: input.userType,
          phone: input.phone,
          createdAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  for (const group of input.groups ?? [groupForUserType(input.userType)]) {
    await cognito().send(
      new AdminAddUserToGroupCommand({ UserPoolId: input.userPoolId, Username: input.username, GroupName: group }),
    );
  }
}
