/**
 * The co-owner's own identity check (spec 000 section 4, issue 10): the same use case as the
 * owner's (functions/identity/identity-check.ts), authorised by the co-owner's link token
 * instead of the property's ownership: the caller is signed in with the invited e-mail and
 * the token is not expired (requireInvitedCoOwner, the rule of GET /seller/kyc). Images go
 * under `{propertyId}/identity/coowner-{coOwnerId}-{kind}-{ts}.{ext}`; the outcome is stored
 * on the COOWNER item (verifiedAt when valid; the image keys in `...Key` attributes, which
 * the request deletion removes), with PROPERTY_EDITABLE on the property, in one transaction.
 * The owner's IDENTITY item is never touched.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../../model/db';
import type { Caller } from '../../lib/auth';
import { NotFoundError } from '../../lib/errors';
import { keys } from '../../model/keys';
import { PROPERTY_EDITABLE } from '../../model/property';
import { table } from '../../model/owned-property';
import { presignIdentityUpload, runIdentityCheck, type IdentityOutcome, type IdentitySubject } from '../identity/identity-check';
import type { IdentityCheckResult, IdentityUploadInput, VerifyIdentityInput } from '../../domain/identity';
import type { PresignedUpload } from '../../domain/uploads';
import { KYC_MESSAGES } from '../../domain/onboarding/kyc';
import { requireInvitedCoOwner, type InvitedCoOwner } from '../state';

export const coOwnerNamePrefix = (coOwnerId: string) => `coowner-${coOwnerId}-`;

/** Stores the outcome on the COOWNER item (the co-owner still the invited e-mail) and checks the property is editable. */
async function saveCoOwnerIdentity(co: InvitedCoOwner, { result, input, engine, now }: IdentityOutcome): Promise<void> {
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: T, Key: keys.property(co.propertyId), ConditionExpression: PROPERTY_EDITABLE } },
          {
            Update: {
              TableName: T,
              Key: keys.coOwner(co.propertyId, co.coOwnerId),
              UpdateExpression:
                'SET identityStatus = :status, identityReason = :reason, identityCheckedAt = :now, verifiedAt = :verifiedAt, confidence = :confidence, ' +
                'documentType = :documentType, documentNumber = :documentNumber, identityFullName = :fullName, facePhotoKey = :face, ' +
                'documentFrontKey = :front, documentBackKey = :back, identityEngine = :engine, updatedAt = :now',
              ConditionExpression: 'attribute_exists(pk) AND email = :email',
              ExpressionAttributeValues: {
                ':status': result.valid ? 'verified' : 'rejected',
                ':reason': result.reason,
                ':now': now,
                ':verifiedAt': result.valid ? now : null,
                ':confidence': result.confidence,
                ':documentType': input.documentType,
                ':documentNumber': input.documentNumber,
                ':fullName': input.fullName && input.fullName !== '' ? input.fullName : null,
                ':face': input.faceKey,
                ':front': input.documentFrontKey,
                ':back': input.documentBackKey ?? null,
                ':engine': engine,
                ':email': co.email,
              },
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err, 0) || isConditionFailure(err, 1)) throw new NotFoundError(KYC_MESSAGES.tokenNotFound);
    throw err;
  }
}

function coOwnerSubject(co: InvitedCoOwner): IdentitySubject {
  return { propertyId: co.propertyId, namePrefix: coOwnerNamePrefix(co.coOwnerId), save: (outcome) => saveCoOwnerIdentity(co, outcome) };
}

/** POST /seller/kyc/identity/uploads?token=: a presigned POST for one of the co-owner's identity images. */
export async function createCoOwnerIdentityUpload(token: string, caller: Caller, input: IdentityUploadInput): Promise<PresignedUpload> {
  return presignIdentityUpload(coOwnerSubject(await requireInvitedCoOwner(token, caller)), input);
}

/** POST /seller/kyc/identity?token=: the co-owner's check, stored on their COOWNER item. */
export async function verifyCoOwnerIdentity(token: string, caller: Caller, input: VerifyIdentityInput): Promise<IdentityCheckResult> {
  return runIdentityCheck(coOwnerSubject(await requireInvitedCoOwner(token, caller)), input);
}
