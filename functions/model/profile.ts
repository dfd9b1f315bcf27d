import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ddb, isConditionFailure, table } from './db';
import { cognito } from '../lib/aws/cognito';
import { keys } from './keys';
import { groupForUserType, type Group, type UserType } from '../domain/roles';
import type { Profile } from '../domain/profile';
import { AGENT_STATUSES, type AgentStatus } from '../domain/users';

export type { Profile };

/** A stored profile: the shared shape plus the agent's approval state as stored (absent on older agents). */
export interface StoredProfile extends Profile {
  agentStatus: AgentStatus | null;
}

const FIELDS = [
  'id', 'email', 'fullName', 'userType', 'phone', 'companyName', 'companyVat', 'companyRea',
  'companyAddress', 'companyCity', 'companyProvince', 'createdAt',
] as const;

export function toProfile(item: Record<string, unknown>): StoredProfile {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = item[f] ?? null;
  const status = item.agentStatus;
  out.agentStatus = (AGENT_STATUSES as readonly unknown[]).includes(status) ? status : null;
  return out as unknown as StoredProfile;
}

export async function getProfile(userId: string): Promise<StoredProfile | undefined> {
  const res = await ddb().send(
    new GetCommand({ TableName: table(), Key: keys.profile(userId), ConsistentRead: true }),
  );
  return res.Item ? toProfile(res.Item) : undefined;
}

/**
 * Creates the profile once (a redelivered trigger changes nothing) and puts the user in
 * the group of their user type. A self-registered agent (agente_immobiliare without
 * explicit groups) is the exception: the profile says agentStatus 'pending' and no group is
 * added until an admin approves (POST /users/{userId}/agent-approval).
 */
export async function createProfile(input: {
  userId: string;
  email: string;
  fullName: string;
  userType: UserType;
  phone: string | null;
  userPoolId: string;
  username: string;
  /** groups to join; by default the group of the user type (none for a pending agent) */
  groups?: Group[];
  /** agents only; by default 'approved' when `groups` has `agent`, otherwise 'pending' */
  agentStatus?: AgentStatus;
}): Promise<void> {
  const createdAt = new Date().toISOString();
  const isAgent = input.userType === 'agente_immobiliare';
  const agentStatus: AgentStatus | undefined = isAgent
    ? (input.agentStatus ?? (input.groups?.includes('agent') ? 'approved' : 'pending'))
    : undefined;
  const groups = input.groups ?? (agentStatus === 'pending' || agentStatus === 'rejected' ? [] : [groupForUserType(input.userType)]);
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...keys.profile(input.userId),
          ...keys.profileIndex(input.fullName || input.email, input.userId),
          entity: 'profile',
          id: input.userId,
          email: input.email.toLowerCase(),
          fullName: input.fullName,
          userType: input.userType,
          phone: input.phone,
          ...(agentStatus ? { agentStatus } : {}),
          createdAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  for (const group of groups) {
    await cognito().send(
      new AdminAddUserToGroupCommand({ UserPoolId: input.userPoolId, Username: input.username, GroupName: group }),
    );
  }
}
