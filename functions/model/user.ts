/**
 * Gestione Utenti: profiles live in the table (keys.profile, every one in gsi1 PROFILES by
 * name), roles and logins in Cognito (the spec's admin role is the `admin` group). Cognito
 * admin calls take the user's `sub` as Username (accepted by Cognito for any user of the
 * pool and by the local emulator).
 */
import { randomUUID } from 'node:crypto';
import { activityPut } from './activity';
import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cognito } from '../lib/aws/cognito';
import { ddb, isConditionFailure, queryAll, table, transactWrite } from './db';
import { config, requireConfig } from '../lib/config';
import { ConflictError, NotFoundError } from '../lib/errors';
import { keys } from './keys';
import { logger } from '../lib/logger';
import { deliverOutbox, outboxPut } from './outbox';
import type { Group } from '../domain/roles';
import {
  agentStatusOf,
  sortUsers,
  USER_MESSAGES,
  type AgentDecision,
  type Role,
  type UpdateUserInput,
  type UserListItem,
} from '../domain/users';
import { renderAgentDecisionEmail } from '../domain/agent-decision-mail';
import { getProfile, toProfile, type StoredProfile } from './profile';
import { forgetSession, VALID_AFTER_ATTRIBUTE, validAfterNow } from './session';

const pool = () => requireConfig('USER_POOL_ID');
const ADMIN_GROUP: Group = 'admin';

const errorName = (err: unknown) => (err as { name?: string } | null)?.name ?? '';
/** Cognito's "no such user" (the emulator answers some admin calls with NotAuthorized instead). */
const isMissingUser = (err: unknown) => errorName(err) === 'UserNotFoundException';

function toItem(profile: StoredProfile, role: Role): UserListItem {
  return { ...profile, role, agentStatus: agentStatusOf(profile) };
}

/** The subs of every member of the admin group: ONE ListUsersInGroup, all its pages. */
async function adminSubs(): Promise<Set<string>> {
  const subs = new Set<string>();
  let next: string | undefined;
  do {
    const res = await cognito().send(new ListUsersInGroupCommand({ UserPoolId: pool(), GroupName: ADMIN_GROUP, Limit: 60, NextToken: next }));
    for (const u of res.Users ?? []) {
      const sub = u.Attributes?.find((a) => a.Name === 'sub')?.Value ?? u.Username;
      if (sub) subs.add(sub);
    }
    next = res.NextToken;
  } while (next);
  return subs;
}

async function groupsOf(userId: string): Promise<Group[]> {
  const groups: Group[] = [];
  let next: string | undefined;
  do {
    const res = await cognito().send(new AdminListGroupsForUserCommand({ UserPoolId: pool(), Username: userId, Limit: 60, NextToken: next }));
    for (const g of res.Groups ?? []) if (g.GroupName) groups.push(g.GroupName as Group);
    next = res.NextToken;
  } while (next);
  return groups;
}

async function roleOf(userId: string): Promise<Role> {
  try {
    return (await groupsOf(userId)).includes(ADMIN_GROUP) ? 'admin' : 'user';
  } catch (err) {
    if (isMissingUser(err)) return 'user';
    throw err;
  }
}

async function requireProfile(userId: string): Promise<StoredProfile> {
  const profile = await getProfile(userId);
  if (!profile) throw new NotFoundError(USER_MESSAGES.notFound);
  return profile;
}

/** GET /users: every profile (gsi1 PROFILES), the role from the admin group; pending agents first, then by name. */
export async function listUsers(): Promise<UserListItem[]> {
  const q = keys.allProfiles();
  const profiles: StoredProfile[] = [];
  const [admins] = await Promise.all([
    adminSubs(),
    queryAll(
      { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } },
      (item) => {
        profiles.push(toProfile(item));
      },
    ),
  ]);
  return sortUsers(profiles.map((p) => toItem(p, admins.has(p.id) ? 'admin' : 'user')));
}

/** The sub of another login that uses this e-mail, if any. */
async function otherLoginWithEmail(email: string, userId: string): Promise<string | undefined> {
  const res = await cognito().send(new ListUsersCommand({ UserPoolId: pool(), Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 2 }));
  for (const u of res.Users ?? []) {
    const sub = u.Attributes?.find((a) => a.Name === 'sub')?.Value ?? u.Username;
    if (sub && sub !== userId) return sub;
  }
  return undefined;
}

/**
 * PATCH /users/{userId}. A new e-mail is checked against the other logins (409) and set on
 * the Cognito login first (verified), then the profile is updated (condition: it exists),
 * keeping the gsi1 name key in step. A retry after a failure in between converges.
 */
export async function updateUser(userId: string, input: UpdateUserInput): Promise<UserListItem> {
  const current = await requireProfile(userId);
  if (input.email !== current.email.toLowerCase()) {
    if (await otherLoginWithEmail(input.email, userId)) throw new ConflictError(USER_MESSAGES.emailTaken);
    try {
      await cognito().send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: pool(),
          Username: userId,
          UserAttributes: [
            { Name: 'email', Value: input.email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
    } catch (err) {
      const name = errorName(err);
      if (name === 'AliasExistsException' || name === 'UsernameExistsException') throw new ConflictError(USER_MESSAGES.emailTaken);
      if (isMissingUser(err)) throw new NotFoundError(USER_MESSAGES.notFound);
      throw err;
    }
  }
  const index = keys.profileIndex(input.fullName || input.email, userId);
  let updated: Record<string, unknown> | undefined;
  try {
    const res = await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression:
          'SET fullName = :fullName, email = :email, userType = :userType, companyName = :companyName, companyVat = :companyVat, ' +
          'companyRea = :companyRea, companyAddress = :companyAddress, companyCity = :companyCity, companyProvince = :companyProvince, ' +
          'gsi1pk = :g1pk, gsi1sk = :g1sk, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':fullName': input.fullName,
          ':email': input.email,
          ':userType': input.userType,
          ':companyName': input.companyName,
          ':companyVat': input.companyVat,
          ':companyRea': input.companyRea,
          ':companyAddress': input.companyAddress,
          ':companyCity': input.companyCity,
          ':companyProvince': input.companyProvince,
          ':g1pk': index.gsi1pk,
          ':g1sk': index.gsi1sk,
          ':now': new Date().toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    updated = res.Attributes;
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(USER_MESSAGES.notFound);
    throw err;
  }
  logger.info('User updated', { userId, emailChanged: input.email !== current.email });
  return toItem(toProfile(updated ?? {}), await roleOf(userId));
}

/**
 * Ends the user's sessions on the server's own record: tokens issued before now are refused
 * by route() (model/session.ts). Condition: the profile exists (a missing one is refused anyway).
 */
async function endSessions(userId: string): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression: 'SET #va = :va',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#va': VALID_AFTER_ATTRIBUTE },
        ExpressionAttributeValues: { ':va': validAfterNow() },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  } finally {
    forgetSession(userId);
  }
}

/**
 * Cognito's global sign-out: the user's refresh tokens stop working, so the SPA cannot get
 * new tokens and signs out. Best effort: the local emulator does not implement it, and the
 * valid-after check (endSessions) already refuses every token issued before the change.
 */
async function globalSignOut(userId: string): Promise<void> {
  try {
    await cognito().send(new AdminUserGlobalSignOutCommand({ UserPoolId: pool(), Username: userId }));
  } catch (err) {
    if (isMissingUser(err)) return;
    logger.warn('Global sign-out not done; the valid-after check still refuses the old tokens', { userId, error: err as Error });
  }
}

/**
 * PUT /users/{userId}/role: adds to or removes from the admin group. Nobody changes their own
 * role (409). After the group change the user's older tokens stop counting (valid-after, so a
 * demoted admin's token no longer reaches admin routes); a demotion also signs them out
 * everywhere (their refresh tokens are revoked).
 */
export async function setRole(userId: string, role: Role, callerId: string): Promise<UserListItem> {
  if (userId === callerId) throw new ConflictError(USER_MESSAGES.selfRoleChange);
  const profile = await requireProfile(userId);
  const input = { UserPoolId: pool(), Username: userId, GroupName: ADMIN_GROUP };
  try {
    await cognito().send(role === 'admin' ? new AdminAddUserToGroupCommand(input) : new AdminRemoveUserFromGroupCommand(input));
  } catch (err) {
    if (isMissingUser(err)) throw new NotFoundError(USER_MESSAGES.notFound);
    throw err;
  }
  // after the group change: a token issued from now on carries the new groups
  await endSessions(userId);
  if (role !== 'admin') await globalSignOut(userId);
  logger.info('User role changed', { userId, role, by: callerId });
  return toItem(profile, role);
}

/** A Cognito username of this pool is the user's sub (a UUID); anything else names no login. */
const SUB_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loginExists(userId: string): Promise<boolean> {
  // never ask for a name like __proto__: the local Cognito finds one on its object prototype
  if (!SUB_PATTERN.test(userId)) return false;
  try {
    await cognito().send(new AdminGetUserCommand({ UserPoolId: pool(), Username: userId }));
    return true;
  } catch (err) {
    if (isMissingUser(err)) return false;
    throw err;
  }
}

/**
 * Unlinks the user's properties (gsi1 SELLER#{userId}): they stay, without userId /
 * assignedUserId, and without the invitation link they were claimed with (its INVITE item
 * deleted in the same transaction): the link e-mailed to the deleted user claims nothing
 * any more; an admin sends a new one.
 */
async function unlinkProperties(userId: string): Promise<number> {
  const q = keys.propertiesOfSeller(userId);
  const linked: { key: { pk: string; sk: string }; invitation: string | null }[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': q.pk } },
    (item) => {
      linked.push({ key: { pk: item.pk as string, sk: item.sk as string }, invitation: typeof item.invitationToken === 'string' ? item.invitationToken : null });
    },
  );
  for (const { key, invitation } of linked) {
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table(),
                Key: key,
                UpdateExpression: 'REMOVE userId, assignedUserId, gsi1pk, gsi1sk, invitationToken SET updatedAt = :now',
                // only while still linked to this user (an assignment made meanwhile wins)
                ConditionExpression: 'gsi1pk = :pk',
                ExpressionAttributeValues: { ':pk': q.pk, ':now': new Date().toISOString() },
              },
            },
            ...(invitation ? [{ Delete: { TableName: table(), Key: keys.invitation(invitation) } }] : []),
          ],
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err, 0)) throw err;
    }
  }
  return linked.length;
}

/**
 * The Cognito login of a user: leaves every group one at a time (the emulator corrupts its
 * files when AdminDeleteUser removes groups in parallel), then AdminDeleteUser. A login
 * already gone is fine (retries). Also used by a seller deleting their own account.
 */
export async function deleteLogin(userId: string): Promise<void> {
  try {
    for (const group of await groupsOf(userId)) {
      await cognito().send(new AdminRemoveUserFromGroupCommand({ UserPoolId: pool(), Username: userId, GroupName: group }));
    }
    await cognito().send(new AdminDeleteUserCommand({ UserPoolId: pool(), Username: userId }));
  } catch (err) {
    if (!isMissingUser(err)) throw err;
  }
}

/**
 * DELETE /users/{userId}: profile, groups and login go; the user's requests stay, unlinked.
 * Order for a safe retry: (0) end the user's sessions (valid-after, global sign-out), (1) unlink the properties, (2) leave every group one at a time
 * (the emulator corrupts its files when AdminDeleteUser removes groups in parallel),
 * (3) delete the login, (4) delete the profile last. Each step tolerates being done
 * already, and while the profile exists a retry finds the user and finishes the job.
 */
export async function deleteUser(userId: string, callerId: string): Promise<void> {
  if (userId === callerId) throw new ConflictError(USER_MESSAGES.selfDelete);
  const profile = await getProfile(userId);
  if (!profile && !(await loginExists(userId))) throw new NotFoundError(USER_MESSAGES.notFound);

  // first of all the user's tokens stop counting (the profile deleted last refuses them too)
  if (profile) await endSessions(userId);
  await globalSignOut(userId);

  const unlinked = await unlinkProperties(userId);

  await deleteLogin(userId);

  await ddb().send(new DeleteCommand({ TableName: table(), Key: keys.profile(userId) }));
  logger.info('User deleted', { userId, by: callerId, unlinkedProperties: unlinked });
}

/** How long an admin's decision on an agent holds the agent against other decisions (well over the Lambda's run). */
export const AGENT_DECISION_HOLD_SECONDS = 60;
const DECIDING_ATTRIBUTE = 'agentDecidingUntil';

/**
 * POST /users/{userId}/agent-approval: only for a pending agent. The decision first takes the
 * agent with a conditional write (pending and held by no other decision, or by one whose hold
 * has run out: a Lambda that died), so of two admins or sixteen clicks deciding at once one
 * goes on and the others answer 409 before touching Cognito. Then approve adds the `agent`
 * group (idempotent), reject removes it (an approval that died halfway may have left it), so a
 * rejected agent's next token has no agent group whatever happens after; then ONE transaction
 * sets the status, ends the hold and writes the agent's e-mail in the outbox. The e-mail is
 * sent right after (retried by the schedule if SES fails). Any failure after the hold gives it
 * back, and a failed approval takes the group back unless the agent is approved after all.
 */
export async function decideAgent(userId: string, decision: AgentDecision, callerId: string): Promise<UserListItem> {
  const profile = await requireProfile(userId);
  if (profile.userType !== 'agente_immobiliare' || profile.agentStatus !== 'pending') throw new ConflictError(USER_MESSAGES.notPending);
  const status = decision === 'approve' ? 'approved' : 'rejected';
  const groupInput = { UserPoolId: pool(), Username: userId, GroupName: 'agent' satisfies Group };
  const hold = await holdAgentDecision(userId);

  const now = new Date().toISOString();
  const outboxId = `agent-${status}-${userId}`;
  const mail = renderAgentDecisionEmail({ fullName: profile.fullName, decision, signInUrl: `${config().APP_URL.replace(/\/+$/, '')}/auth` });
  try {
    try {
      await cognito().send(decision === 'approve' ? new AdminAddUserToGroupCommand(groupInput) : new AdminRemoveUserFromGroupCommand(groupInput));
    } catch (err) {
      if (isMissingUser(err)) throw new NotFoundError(USER_MESSAGES.notFound);
      throw err;
    }
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: table(),
            Key: keys.profile(userId),
            // approved: the tokens issued before the agent group was added stop counting; the SPA
            // refreshes them (the agent keeps working, now in the agent group)
            UpdateExpression:
              'SET agentStatus = :status, agentDecidedAt = :now, agentDecidedBy = :by, updatedAt = :now' +
              (decision === 'approve' ? ', #va = :va' : '') +
              ' REMOVE #hold',
            ConditionExpression: 'agentStatus = :pending AND #hold = :hold',
            ExpressionAttributeNames: { '#hold': DECIDING_ATTRIBUTE, ...(decision === 'approve' ? { '#va': VALID_AFTER_ATTRIBUTE } : {}) },
            ExpressionAttributeValues: {
              ':status': status,
              ':now': now,
              ':by': callerId,
              ':pending': 'pending',
              ':hold': hold,
              ...(decision === 'approve' ? { ':va': validAfterNow() } : {}),
            },
          },
        },
        outboxPut({ id: outboxId, kind: `agent-${status}`, ref: userId, now, mail: { to: [profile.email], ...mail } }) as never,
        activityPut({
          kind: decision === 'approve' ? 'agent.approved' : 'agent.rejected',
          actor: { id: callerId, role: 'admin', name: null },
          at: now,
          propertyId: null,
          propertyLabel: null,
          userId,
          before: 'pending',
          after: status,
          note: `${profile.fullName || profile.email}`,
        }) as never,
      ],
    });
  } catch (err) {
    await releaseAgentDecision(userId, hold);
    // the group follows the decision that stands: an approval that did not land takes the group
    // back unless the agent is approved after all; a reject that lost (a hold that ran out and
    // was taken by an approval) gives it back
    const after = await getProfile(userId).catch(() => undefined);
    if (decision === 'approve' && after?.agentStatus !== 'approved') {
      await cognito().send(new AdminRemoveUserFromGroupCommand(groupInput)).catch((e: unknown) => {
        logger.error('Agent group not taken back after a failed approval', { userId, error: e as Error });
      });
    }
    if (decision === 'reject' && after?.agentStatus === 'approved') {
      await cognito().send(new AdminAddUserToGroupCommand(groupInput)).catch((e: unknown) => {
        logger.error('Agent group not given back after a reject that lost to an approval', { userId, error: e as Error });
      });
    }
    if (isConditionFailure(err, 0) || isConditionFailure(err, 1)) throw new ConflictError(USER_MESSAGES.notPending);
    throw err;
  }
  forgetSession(userId);
  logger.info('Agent decided', { userId, decision, by: callerId });

  try {
    await deliverOutbox(outboxId);
  } catch (err) {
    logger.error('Agent decision e-mail not sent now; the scheduled retry will send it', { userId, outboxId, error: err as Error });
  }
  return toItem({ ...profile, agentStatus: status }, await roleOf(userId));
}

/**
 * Takes a pending agent for one decision until AGENT_DECISION_HOLD_SECONDS from now (the value
 * returned names this hold). 409 when the agent is no longer pending ('già stata decisa') or
 * another decision holds it ('sta decidendo').
 */
async function holdAgentDecision(userId: string): Promise<string> {
  const now = Date.now();
  // until when, then who: two holds never share a value, and the value still compares as a time
  const hold = `${new Date(now + AGENT_DECISION_HOLD_SECONDS * 1000).toISOString()}#${randomUUID()}`;
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression: 'SET #hold = :hold',
        ConditionExpression: 'agentStatus = :pending AND (attribute_not_exists(#hold) OR #hold < :now)',
        ExpressionAttributeNames: { '#hold': DECIDING_ATTRIBUTE },
        ExpressionAttributeValues: { ':hold': hold, ':pending': 'pending', ':now': new Date(now).toISOString() },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // still pending: another decision holds it (it may yet fail and give it back)
    const current = await getProfile(userId).catch(() => undefined);
    throw new ConflictError(current?.agentStatus === 'pending' ? USER_MESSAGES.beingDecided : USER_MESSAGES.notPending);
  }
  return hold;
}

/** Gives back a hold that decided nothing, so the admin can try again at once (a hold taken over or ended stays). */
async function releaseAgentDecision(userId: string, hold: string): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.profile(userId),
        UpdateExpression: 'REMOVE #hold',
        ConditionExpression: '#hold = :hold',
        ExpressionAttributeNames: { '#hold': DECIDING_ATTRIBUTE },
        ExpressionAttributeValues: { ':hold': hold },
      }),
    )
    .catch((err: unknown) => {
      if (!isConditionFailure(err)) logger.error('Agent decision hold not given back; it runs out by itself', { userId, error: err as Error });
    });
}
