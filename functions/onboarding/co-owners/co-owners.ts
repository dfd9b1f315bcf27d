/**
 * Co-owners of the seller's property (spec 000 sections 4 and 5): the list is replaced as a
 * whole (shares > 0 totalling 100), each co-owner is invited by e-mail to their own identity
 * step, or the seller declares single ownership ('Salta (Proprietà Singola)'). Every write
 * (model/co-owner.ts) carries the property guard with the caller as owner.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../lib/config';
import { ConflictError, ValidationError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { deliverOutbox } from '../../model/outbox';
import { CO_OWNER_INVITATION_MESSAGES as INVITE, renderCoOwnerInvitation } from '../../domain/onboarding/co-owner-email';
import { ONBOARDING_MESSAGES as M, ownershipShares, sameCoOwnerName, shareWarning } from '../../domain/onboarding/rules';
import type { ReplaceCoOwnersBody, SavedCoOwners, SellerCoOwner } from '../../domain/onboarding/schemas';
import { newToken } from '../../model/tokens';
import { deliverNow } from '../../model/review';
import { requireOwnedDossier } from '../../model/owned-property';
import { declareSingleOwner, recordCoOwnerInvitations, replaceCoOwners as writeCoOwners, sellerShareOf, toCoOwner, type CoOwnerInvitationWrite } from '../../model/co-owner';

/**
 * PUT .../co-owners: the seller's own share and the new list (together 100) replace the old;
 * a co-owner kept (same e-mail) keeps id, invitation and identity check, unless the name
 * changed: then the check starts again (model/co-owner.ts replaceCoOwners).
 */
export async function replaceCoOwners(propertyId: string, caller: { userId: string; email: string }, body: ReplaceCoOwnersBody, now = new Date()): Promise<SavedCoOwners> {
  const userId = caller.userId;
  const warning = shareWarning(ownershipShares(body.sellerShare, body.coOwners));
  if (warning) throw new ValidationError(warning, { coOwners: warning });
  const raw = await requireOwnedDossier(propertyId, userId);
  // the seller's own addresses (the account's, the request's): a co-owner invited there would be the seller
  const own = new Set([caller.email, String(raw.property.email ?? '')].map((e) => e.trim().toLowerCase()).filter(Boolean));
  const seller = body.coOwners.findIndex((c) => own.has(c.email.trim().toLowerCase()));
  if (seller >= 0) throw new ValidationError(M.coOwnerIsSeller, { [`coOwners.${seller}.email`]: M.coOwnerIsSeller });
  const existing = new Map(raw.coOwners.map(toCoOwner).map((c) => [c.email.toLowerCase(), c]));
  const next: SellerCoOwner[] = body.coOwners.map((c) => {
    const old = existing.get(c.email);
    const renamed = old !== undefined && !sameCoOwnerName(old.fullName, c.fullName);
    return {
      id: old ? old.id : randomUUID(),
      email: c.email,
      fullName: c.fullName,
      share: c.share,
      invitedAt: old ? old.invitedAt : null,
      verifiedAt: old && !renamed ? old.verifiedAt : null,
    };
  });
  await writeCoOwners({ propertyId, owner: userId }, body.sellerShare, next, raw.coOwners, now.toISOString());
  return { sellerShare: body.sellerShare, coOwners: next };
}

/**
 * POST .../co-owners/invitations: every co-owner not yet invited nor verified gets a new link
 * token (COINVITE item, expiring after TOKEN_TTL_DAYS) and an Italian e-mail with a fixed
 * subject; invitedAt, the tokens, the outbox mails and the daily quotas (per property, per
 * seller) are written in ONE transaction whose conditions also require the seller's own
 * identity verified (409) and the quotas not spent (429), then the mails are delivered.
 */
export async function inviteCoOwners(
  propertyId: string,
  userId: string,
  now = new Date(),
): Promise<{ coOwners: SellerCoOwner[]; invited: number; delivery: ('sent' | 'pending')[] }> {
  const raw = await requireOwnedDossier(propertyId, userId);
  // the answer without writing anything; the transaction's own condition is the rule
  if (raw.identity?.status !== 'verified') throw new ConflictError(INVITE.identityNotVerified);
  const list = raw.coOwners.map(toCoOwner);
  const warning = shareWarning(ownershipShares(sellerShareOf(raw.property), list));
  if (list.length && warning) throw new ValidationError(warning, { coOwners: warning });
  const toInvite = list.filter((c) => !c.invitedAt && !c.verifiedAt);
  if (!toInvite.length) throw new ConflictError(M.noCoOwnersToInvite);
  const at = now.toISOString();
  const property = raw.property;
  const sellerName = `${(property.firstName as string) ?? ''} ${(property.lastName as string) ?? ''}`.trim();
  const invitations: CoOwnerInvitationWrite[] = toInvite.map((c, i) => {
    const token = newToken();
    const mail = renderCoOwnerInvitation({
      coOwnerName: c.fullName,
      sellerName,
      propertyAddress: (property.address as string) ?? '',
      propertyCity: (property.city as string | null) ?? null,
      share: c.share,
      token,
      appUrl: config().APP_URL,
    });
    return {
      coOwnerId: c.id,
      email: c.email,
      token,
      outbox: { id: `coowner-${propertyId}-${c.id}-${now.getTime()}-${i}`, kind: 'coOwnerInvitation', ref: propertyId, mail: { to: [c.email], ...mail } },
    };
  });
  await recordCoOwnerInvitations({ propertyId, owner: userId }, invitations, now);
  logger.info('Co-owners invited', { propertyId, count: invitations.length });
  const delivery: ('sent' | 'pending')[] = [];
  for (const inv of invitations) delivery.push(await deliverNow(inv.outbox.id, deliverOutbox));
  const invitedIds = new Set(invitations.map((i) => i.coOwnerId));
  return {
    coOwners: list.map((c) => (invitedIds.has(c.id) ? { ...c, invitedAt: at } : c)),
    invited: invitations.length,
    delivery,
  };
}

/**
 * POST .../co-owners/skip: 'Salta (Proprietà Singola)' (property.singleOwner = true): the
 * co-owners saved before are removed with their shares in the same write, so their links stop
 * working and the option never lists them beside a declaration of single ownership.
 */
export async function skipCoOwners(propertyId: string, userId: string, now = new Date()): Promise<{ singleOwner: true }> {
  const raw = await requireOwnedDossier(propertyId, userId);
  await declareSingleOwner({ propertyId, owner: userId }, raw.coOwners, now.toISOString());
  return { singleOwner: true };
}
