/**
 * The co-owner's own identity check (spec 000 section 4, issue 10): the same use case as the
 * owner's (functions/identity/identity-check.ts), authorised by the co-owner's link token
 * instead of the property's ownership: the caller is signed in with the invited e-mail and
 * the token is not expired (requireInvitedCoOwner, the rule of GET /seller/kyc). Images go
 * under `{propertyId}/identity/coowner-{coOwnerId}-{kind}-{ts}.{ext}`; the outcome is stored
 * on the COOWNER item (verifiedAt when valid; the image keys in `...Key` attributes, which
 * the request deletion removes), with the property guard (model/co-owner.ts), in one transaction.
 * The owner's IDENTITY item is never touched.
 */
import type { IdentityCheckResult, IdentityUploadInput, VerifyIdentityInput } from '../../domain/identity';
import type { Caller } from '../../lib/auth';
import { coOwnerIdsOf, saveCoOwnerIdentity as writeCoOwnerIdentity } from '../../model/co-owner';
import { presignIdentityUpload, runIdentityCheck, type IdentityOutcome, type IdentitySubject } from '../identity/identity-check';
import type { PresignedUpload } from '../../domain/uploads';
import { requireInvitedCoOwner, type InvitedCoOwner } from '../state';

export const coOwnerNamePrefix = (coOwnerId: string) => `coowner-${coOwnerId}-`;

/** Stores the outcome on the COOWNER item (the co-owner still the invited e-mail) and checks the property is editable. */
async function saveCoOwnerIdentity(co: InvitedCoOwner, { result, input, sha256, engine, now }: IdentityOutcome): Promise<void> {
  // the other co-owners, whose documents the write checks
  const others = (await coOwnerIdsOf(co.propertyId)).filter((id) => id !== co.coOwnerId);
  await writeCoOwnerIdentity({
    propertyId: co.propertyId,
    coOwnerId: co.coOwnerId,
    email: co.email,
    checkedFullName: String(co.coOwner.fullName ?? ''),
    otherCoOwnerIds: others,
    status: result.status,
    reason: result.reason,
    confidence: result.confidence,
    documentType: input.documentType,
    documentNumber: input.documentNumber,
    fullName: input.fullName && input.fullName !== '' ? input.fullName : null,
    faceKey: input.faceKey,
    documentFrontKey: input.documentFrontKey,
    documentBackKey: input.documentBackKey ?? null,
    sha256,
    engine,
    now,
  });
}

function coOwnerSubject(co: InvitedCoOwner): IdentitySubject {
  return {
    propertyId: co.propertyId,
    namePrefix: coOwnerNamePrefix(co.coOwnerId),
    // the seller typed the co-owner's full name: any of its words (particles aside) is their surname
    surnames: [String(co.coOwner.fullName ?? '')],
    save: (outcome) => saveCoOwnerIdentity(co, outcome),
  };
}

/** POST /seller/kyc/identity/uploads?token=: a presigned POST for one of the co-owner's identity images. */
export async function createCoOwnerIdentityUpload(token: string, caller: Caller, input: IdentityUploadInput): Promise<PresignedUpload> {
  return presignIdentityUpload(coOwnerSubject(await requireInvitedCoOwner(token, caller)), input);
}

/**
 * POST /seller/kyc/identity?token=: the co-owner's check, stored on their COOWNER item; one in
 * review (60-70 %, or not completed by the engine) joins the admins' queue as an owner's does.
 */
export async function verifyCoOwnerIdentity(token: string, caller: Caller, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  return runIdentityCheck(coOwnerSubject(await requireInvitedCoOwner(token, caller)), input);
}
