/**
 * The seller's account erasure (GET /me/erasure, DELETE /me). With no option signed or in an
 * agent's charge everything goes; a property whose option is signed ('opzione_firmata') or
 * assigned to an agent is kept, restricted, for its contract (model/erasure.ts keepForContract)
 * and the back office is told by e-mail. The login goes in every case.
 */
import { config } from '../lib/config';
import { ForbiddenError, NotFoundError } from '../lib/errors';
import { logger } from '../lib/logger';
import { erasedAccountMail, erasurePlan, SELLER_MESSAGES, type ErasurePlan } from '../domain/seller';
import {
  coOwnerInvitationsOf,
  deleteProfile,
  erasureStateOf,
  keepForContract,
  markUnsignedForErasure,
  readErasureFacts,
  recordErasure,
  type ErasureProperty,
} from '../model/erasure';
import { deliverOutbox, RETENTION_DAYS } from '../model/outbox';
import { purgeRequest } from '../model/request';
import { deleteLogin } from '../model/user';

const SELLER_TYPE = 'venditore';

/** GET /me/erasure: which case DELETE /me would be, and what it erases and keeps (404 without a profile, 403 for another user type). */
export async function erasurePlanOf(userId: string): Promise<ErasurePlan> {
  const facts = await readErasureFacts(userId);
  if (!facts.profile) throw new NotFoundError(SELLER_MESSAGES.profileNotFound);
  if (facts.profile.userType !== SELLER_TYPE) throw new ForbiddenError(SELLER_MESSAGES.sellersOnly);
  const kept = facts.properties.filter((p) => p.contract).map(({ id, address, city }) => ({ id, address, city }));
  return erasurePlan(kept, RETENTION_DAYS);
}

/** The back office mail of a kept property (one per property: its outbox id says which). */
function mailOf(p: ErasureProperty, now: Date) {
  const rendered = erasedAccountMail({
    propertyId: p.id,
    address: p.address,
    city: p.city,
    sellerName: p.sellerName,
    sellerEmail: p.sellerEmail,
    optionSigned: p.optionSigned,
    assignedAgentId: p.assignedAgentId,
    erasedAt: now.toISOString(),
  });
  return { outboxId: `erased-account-${p.id}`, message: { to: [config().BACKOFFICE_EMAIL], ...rendered } };
}

/**
 * DELETE /me, in an order a retry always finishes (each step tolerates being done already):
 * 1. the ids of every own property are written on the profile (`deletingPropertyIds`): both
 *    the erasure and the keeping take a property out of the seller index, so after a failure
 *    halfway the index alone would not find it again;
 * 2. each property without a contract is marked for deletion in one transaction whose
 *    condition says "the caller's, not signed, option not assigned" (with its co-owner
 *    invitations and the requests counter), then purged with its files and items (purgeRequest);
 *    a property signed or assigned in the meantime loses that condition and is kept instead;
 * 3. each property with a contract is kept in one transaction (marked as belonging to an
 *    erased account, out of the seller's reach, links and co-owner invitations deleted, the
 *    back office mail in the outbox); a retry finds it kept and skips it;
 * 4. the outbox mails are sent (a failure leaves them to the scheduled retry);
 * 5. the profile, only after every property is handled: while it exists a retry finds the list;
 * 6. the login last: while it exists the seller can sign in again and retry, and a retry
 *    without a profile goes straight here.
 * Only for user type venditore (403 otherwise).
 */
export async function deleteOwnAccount(userId: string, now: Date = new Date()): Promise<void> {
  const facts = await readErasureFacts(userId);
  const kept: string[] = [];
  const mails: string[] = [];
  if (facts.profile) {
    if (facts.profile.userType !== SELLER_TYPE) throw new ForbiddenError(SELLER_MESSAGES.sellersOnly);
    await recordErasure(userId, facts.properties.map((p) => p.id), now);
    const invitations = await coOwnerInvitationsOf(facts.properties.map((p) => p.id));
    for (const p of facts.properties) {
      const coInvites = invitations.get(p.id) ?? [];
      let contract = p.contract;
      if (!contract) {
        const marked = await markUnsignedForErasure(userId, p.id, coInvites, now);
        const state = marked === 'marked' ? 'deleting' : await erasureStateOf(userId, p.id);
        if (state === 'deleting') {
          try {
            await purgeRequest(p.id, now);
          } catch (err) {
            if (!(err instanceof NotFoundError)) throw err;
          }
          continue;
        }
        if (state !== 'owned') continue;
        // signed or assigned since it was read: it has a contract now
        contract = true;
      }
      if (contract) {
        const mail = mailOf({ ...p, contract: true }, now);
        if ((await keepForContract(userId, p.id, coInvites, mail, now)) === 'done') mails.push(mail.outboxId);
        kept.push(p.id);
      }
    }
    for (const id of mails) {
      try {
        await deliverOutbox(id);
      } catch (err) {
        logger.error('Erased account mail not sent now; the scheduled retry will send it', { userId, outboxId: id, error: err as Error });
      }
    }
    await deleteProfile(userId);
  }
  await deleteLogin(userId);
  logger.info('Seller account deleted', { userId, properties: facts.properties.length, kept: kept.length, hadProfile: facts.profile !== undefined });
}
