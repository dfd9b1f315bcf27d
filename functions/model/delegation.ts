/**
 * Delegations of a property: one DELEGATION item per type under the property's pk
 * (keys.delegation). The item <-> DelegationRecord / SellerDelegation mapping and the writes
 * of the delegations step ('Genera Deleghe', the signed copy), each composed with the
 * property guard (model/property.ts) at index 0 of its transaction.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './db';
import { pageCount, str, type Item } from './item';
import { keys } from './keys';
import { guardedTransaction, guardFailure, sendGuarded, stepCompletion, type PropertyGuard } from './property';
import { ConflictError, NotFoundError } from '../lib/errors';
import { DELEGATION_LABELS, ONBOARDING_MESSAGES as M, type DelegationType } from '../domain/onboarding/rules';
import type { SellerDelegation } from '../domain/onboarding/schemas';
import { toDigitalSigners, toSignatureFormat, toSignatureType, type DigitalSignature, type RequiredSigner, type SignatureType } from '../domain/onboarding/digital-signature';

const propertyNotFound = () => new NotFoundError(M.propertyNotFound);

/** The delegation's type (the `type` attribute, else the sk's suffix). */
export const delegationTypeOf = (d: Item) => (str(d.type) ?? String(d.sk).slice(keys.dossierPrefixes.delegation.length)) as DelegationType;

/** A stored delegation, as the use cases compare and rewrite it. */
export interface DelegationRecord {
  type: DelegationType;
  /** province code */
  province: string;
  provinceName: string | null;
  municipality: string;
  /** the delegator's data as stored (a map: compare it field by field) */
  delegator: unknown;
  delegateeName: string | null;
  delegateeOrganization: string | null;
  /** the generated PDF and its number of pages (null: generated before pages were counted) */
  generatedKey: string | null;
  generatedAt: string | null;
  documentPages: number | null;
  /** the signed copy */
  documentKey: string | null;
  signedAt: string | null;
  /** how the signed copy was signed: on paper ('fisica') or with a verified firma digitale; null: not signed */
  signatureType: SignatureType | null;
  /** the verified digital signature (signatureType 'digitale') */
  signature: DigitalSignature | null;
  createdAt: string | null;
}

/** The person a delegation names as delegator (whose signature a digitally signed copy needs), or null. */
export function delegatorSigner(r: Pick<DelegationRecord, 'delegator'>): RequiredSigner | null {
  const d = (r.delegator ?? {}) as Record<string, unknown>;
  return typeof d.fullName === 'string' && typeof d.fiscalCode === 'string' && d.fiscalCode ? { name: d.fullName, fiscalCode: d.fiscalCode } : null;
}

/** The stored digital signature of an OPTION or DELEGATION item, or null. */
export function digitalSignatureOf(value: unknown): DigitalSignature | null {
  const v = value as Record<string, unknown> | null | undefined;
  const format = toSignatureFormat(v?.format);
  if (!v || !format) return null;
  return { format, signers: toDigitalSigners(v.signers), verifiedAt: str(v.verifiedAt) ?? '' };
}

export function toDelegationRecord(d: Item): DelegationRecord {
  return {
    type: delegationTypeOf(d),
    province: String(d.province ?? ''),
    provinceName: str(d.provinceName),
    municipality: String(d.municipality ?? ''),
    delegator: d.delegator,
    delegateeName: str(d.delegateeName),
    delegateeOrganization: str(d.delegateeOrganization),
    generatedKey: str(d.generatedKey),
    generatedAt: str(d.generatedAt),
    documentPages: pageCount(d.documentPages),
    documentKey: str(d.documentKey),
    signedAt: str(d.signedAt),
    // signed copies stored before the digital signature were all on paper
    signatureType: str(d.signedAt) ? (toSignatureType(d.signatureType) ?? 'fisica') : null,
    signature: digitalSignatureOf(d.digitalSignature),
    createdAt: d.createdAt === undefined || d.createdAt === null ? null : String(d.createdAt),
  };
}

export function sellerDelegationOf(r: DelegationRecord): SellerDelegation {
  return {
    type: r.type,
    label: DELEGATION_LABELS[r.type] ?? r.type,
    province: r.province,
    municipality: r.municipality,
    generatedKey: r.generatedKey,
    documentKey: r.documentKey,
    signedAt: r.signedAt,
    generatedAt: r.generatedAt,
    signatureType: r.signatureType,
    signers: r.signature?.signers ?? [],
  };
}

export const toSellerDelegation = (d: Item): SellerDelegation => sellerDelegationOf(toDelegationRecord(d));

/** A delegation to (re)write with a new generated PDF: it starts unsigned. */
export interface GeneratedDelegation {
  type: DelegationType;
  province: string;
  provinceName: string;
  municipality: string;
  delegator: { fullName: string; fiscalCode: string } & Record<string, string>;
  delegateeName: string;
  delegateeOrganization: string;
  generatedKey: string;
  /** pages of the generated PDF */
  documentPages: number;
  /** the first generation's; defaults to `at` */
  createdAt?: string;
}

/**
 * 'Genera Deleghe' in ONE transaction, guarded by the owner: the property's
 * delegationsUpdatedAt, the `removed` items deleted, each `generated` delegation written
 * (unsigned, generatedAt = at). A failed guard is 404 'Immobile non trovato'; any other
 * cancellation 409.
 */
export async function saveGeneratedDelegations(
  owner: { propertyId: string; owner: string },
  generated: readonly GeneratedDelegation[],
  removed: readonly Item[],
  at: string,
  /** every delegation of the result is signed (nothing regenerated): the step stays complete */
  completes = false,
): Promise<void> {
  const { propertyId } = owner;
  // once the option exists only while an admin has the step reopened
  const guard: PropertyGuard = { ...owner, step: 'delegations' };
  const done = completes ? stepCompletion('delegations', at) : undefined;
  const T = table();
  const items = generated.map((g) => ({
    ...keys.delegation(propertyId, g.type),
    entity: 'delegation',
    propertyId,
    type: g.type,
    province: g.province,
    provinceName: g.provinceName,
    municipality: g.municipality,
    delegator: g.delegator,
    delegatorName: g.delegator.fullName,
    delegatorFiscalCode: g.delegator.fiscalCode,
    // spec 000 property_delegations: delegator_id_type, delegator_id_number
    delegatorIdType: g.delegator.documentType ?? null,
    delegatorIdNumber: g.delegator.documentNumber ?? null,
    delegateeName: g.delegateeName,
    delegateeOrganization: g.delegateeOrganization,
    generatedKey: g.generatedKey,
    generatedAt: at,
    documentPages: g.documentPages,
    documentKey: null,
    signedAt: null,
    createdAt: g.createdAt ?? at,
    updatedAt: at,
  }));
  await sendGuarded(
    guard,
    [
      {
        Update: {
          TableName: T,
          Key: keys.property(propertyId),
          UpdateExpression: `SET delegationsUpdatedAt = :at, updatedAt = :at${done ? `, ${done.set} REMOVE ${done.remove}` : ''}`,
          ...(done ? { ExpressionAttributeNames: done.names } : {}),
          ExpressionAttributeValues: { ':at': at, ...done?.values },
        },
      },
      ...removed.map((d) => ({ Delete: { TableName: T, Key: { pk: d.pk, sk: d.sk } } })),
      ...items.map((Item) => ({ Put: { TableName: T, Item } })),
    ],
    propertyNotFound,
  );
}

export interface SignedDelegationWrite {
  type: DelegationType;
  /** the signed copy's evidence key (lib/media-storage.ts sealEvidence) */
  key: string;
  /** SHA-256 of the evidence object's bytes */
  sha256: string;
  fileName: string;
  contentType: string;
  size: number;
  /** the generated PDF the seller signed: a regeneration meanwhile is 409 */
  generatedKey: string | null;
  /** every other delegation is signed: this one completes the step (a reopening closes again) */
  completes?: boolean;
  /** the verified firma digitale, when the copy is digitally signed; null: signed on paper */
  digitalSignature: DigitalSignature | null;
  at: string;
}

/**
 * The signed copy becomes the delegation's document (documentKey, signedAt, file facts),
 * guarded by the owner. A failed guard is 404 'Immobile non trovato'; a delegation gone or
 * regenerated meanwhile 409 'Delega non trovata'.
 */
export async function recordSignedDelegation(owner: { propertyId: string; owner: string }, w: SignedDelegationWrite): Promise<void> {
  // once the option exists only while an admin has the step reopened
  const guard: PropertyGuard = { ...owner, step: 'delegations' };
  const done = w.completes ? stepCompletion('delegations', w.at) : undefined;
  try {
    await ddb().send(
      new TransactWriteCommand(
        guardedTransaction(guard, [
          ...(done
            ? [
                {
                  Update: {
                    TableName: table(),
                    Key: keys.property(guard.propertyId),
                    UpdateExpression: `SET updatedAt = :at, ${done.set} REMOVE ${done.remove}`,
                    ExpressionAttributeNames: done.names,
                    ExpressionAttributeValues: { ':at': w.at, ...done.values },
                  },
                },
              ]
            : []),
          {
            Update: {
              TableName: table(),
              Key: keys.delegation(guard.propertyId, w.type),
              UpdateExpression:
                'SET documentKey = :key, documentSha256 = :sha, signedAt = :at, fileName = :name, contentType = :ct, #size = :size, ' +
                'signatureType = :type, digitalSignature = :digital, updatedAt = :at',
              // the same generated document the seller signed (a regeneration meanwhile: 409)
              ConditionExpression: 'attribute_exists(pk) AND generatedKey = :gen',
              ExpressionAttributeNames: { '#size': 'size' },
              ExpressionAttributeValues: { ':key': w.key, ':sha': w.sha256, ':at': w.at, ':name': w.fileName, ':ct': w.contentType, ':size': w.size, ':gen': w.generatedKey, ':type': w.digitalSignature ? 'digitale' : 'fisica', ':digital': w.digitalSignature },
            },
          },
        ]),
      ),
    );
  } catch (err) {
    if (isConditionFailure(err, 0)) throw await guardFailure(guard, propertyNotFound);
    if (isConditionFailure(err, 1)) throw new ConflictError(M.delegationNotFound);
    throw err;
  }
}
