/**
 * GET /seller/kyc?token={token} (spec 000 sections 2 and 4): the state of /seller-kyc.
 * The owner's page goes on by property id after this first arrival (ownKycState).
 *
 * - A property's invitation token (INVITE#, not expired): a property without an owner is
 *   linked to the caller (the claim use case, functions/properties/claim.ts); the caller's
 *   property answers SellerKycState, built from ONE strongly consistent dossier Query with
 *   the step logic of `onboardingState`.
 * - A co-owner's token (COINVITE#, not expired) opened by the invited e-mail: the reduced
 *   CoOwnerKycState of the co-owner's own identity step.
 * - Anything else (unknown, expired, another seller's property, a property being deleted, a
 *   co-owner token of another e-mail): 404 'Proprietà non trovata o link scaduto'.
 */
import { toOptionDuration } from '../domain/fees';
import type { Caller } from '../lib/auth';
import { NotFoundError } from '../lib/errors';
import { pageCount, str, type Item } from '../model/item';
import { toIdentityRecord } from '../model/identity';
import { isExpired } from '../model/tokens';
import { invitedPropertyId, linkPropertyToSeller } from '../model/invitation';
import { isPropertyId, loadDossier, requireOwnedDossier, type RawDossier } from '../model/dossier';
import { isStepLocked, readProperty } from '../model/property';
import { coOwnerIdentityOf, readCoOwner, readCoOwnerInvitation, sellerShareOf, toCoOwner } from '../model/co-owner';
import { toDelegationRecord } from '../model/delegation';
import { optionSigners } from '../model/option';
import { toSignatureType } from '../domain/onboarding/digital-signature';
import {
  coOwnerBadge,
  DELEGATION_LABELS,
  onboardingState,
  ownershipShares,
  shareWarning,
  STEP_TITLES,
  type OnboardingStep,
} from '../domain/onboarding/rules';
import {
  KYC_MESSAGES,
  type CoOwnerKycState,
  type KycCoOwner,
  type KycDelegation,
  type KycIdentity,
  type KycOption,
  type KycState,
  type KycStep,
  type SellerKycState,
} from '../domain/onboarding/kyc';

const notFound = () => new NotFoundError(KYC_MESSAGES.tokenNotFound);

const stepStatus = (s: Pick<OnboardingStep, 'done' | 'available'>): KycStep['status'] => (s.done ? 'done' : s.available ? 'todo' : 'locked');

export function toKycIdentity(item: Item): KycIdentity {
  const r = toIdentityRecord(item);
  return { status: r.status, documentType: r.documentType, confidence: r.confidence, reason: r.reason || null, verifiedAt: r.verifiedAt };
}

function toKycCoOwner(c: Item): KycCoOwner {
  const co = toCoOwner(c);
  return { ...co, badge: coOwnerBadge(co) };
}

const DELEGATION_ORDER = Object.keys(DELEGATION_LABELS);

function toKycDelegation(d: Item): KycDelegation {
  const { type, province, municipality, generatedKey, documentPages, documentKey, signedAt, signatureType, signature } = toDelegationRecord(d);
  return {
    signatureType,
    signers: signature?.signers ?? [],
    type,
    label: DELEGATION_LABELS[type] ?? type,
    province,
    municipality,
    generated: generatedKey !== null,
    pages: documentPages,
    signed: documentKey !== null && signedAt !== null,
    signedAt,
  };
}

export function toKycOption(o: Item): KycOption {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    id: String(o.id ?? ''),
    propertyValue: num(o.propertyValue),
    optionAmount: num(o.optionAmount),
    optionDuration: toOptionDuration(o.optionDuration),
    expiresAt: str(o.expiresAt),
    paymentType: o.paymentType === 'anticipato' ? 'anticipato' : 'rateale',
    installments: typeof o.installments === 'number' ? o.installments : null,
    hasKeys: o.hasKeys === true,
    documentReady: str(o.documentKey) !== null,
    pages: pageCount(o.documentPages),
    signedAt: str(o.signedAt),
    signatureType: str(o.signedAt) ? toSignatureType(o.signatureType) : null,
    signers: optionSigners(o),
  };
}

/** The owner's state from the dossier's raw items (pure). */
export function sellerKycState(raw: RawDossier, token: string | null): SellerKycState {
  const p = raw.property;
  const identity = raw.identity ? toKycIdentity(raw.identity) : null;
  const coOwners = raw.coOwners.map(toKycCoOwner);
  const singleOwner = p.singleOwner === true;
  const delegations = raw.delegations
    .map(toKycDelegation)
    .sort((a, b) => DELEGATION_ORDER.indexOf(a.type) - DELEGATION_ORDER.indexOf(b.type));
  const option = raw.option ? toKycOption(raw.option) : null;
  const state = onboardingState({
    identity,
    coOwners,
    singleOwner,
    delegations: raw.delegations.map((d) => ({ documentKey: str(d.documentKey), signedAt: str(d.signedAt) })),
    option: raw.option ? { signedAt: str(raw.option.signedAt), signatureData: raw.option.signatureData ?? null, signatureType: toSignatureType(raw.option.signatureType) } : null,
  });
  return {
    role: 'owner',
    token,
    property: {
      id: raw.propertyId,
      address: String(p.address ?? ''),
      city: str(p.city),
      province: str(p.province),
      firstName: String(p.firstName ?? ''),
    },
    steps: state.steps.map((s) => ({ id: s.id, number: s.number, title: s.title, status: stepStatus(s), editable: s.id === 'option' || !isStepLocked(p, s.id) })),
    current: state.current,
    identity,
    sellerShare: sellerShareOf(p),
    coOwners,
    shareWarning: coOwners.length ? shareWarning(ownershipShares(sellerShareOf(p), coOwners)) : null,
    singleOwner,
    delegations,
    canCompleteDelegations: state.canCompleteDelegations,
    option,
    complete: state.complete,
    completionMessage: state.completionMessage,
  };
}

async function ownerState(propertyId: string, token: string, caller: Caller): Promise<SellerKycState> {
  if (!isPropertyId(propertyId)) throw notFound();
  const raw = await loadDossier(propertyId);
  if (!raw) throw notFound();
  const ownerId = str(raw.property.userId);
  if (ownerId === null) {
    // no owner yet: the caller opened the property's invitation link, so it becomes theirs
    const linked = await linkPropertyToSeller(propertyId, token, caller.userId, String(raw.property.createdAt ?? ''));
    if (!linked) throw notFound();
    raw.property = { ...raw.property, userId: caller.userId };
  } else if (ownerId !== caller.userId) {
    throw notFound();
  }
  // the link is the property's current one (a replaced token no longer opens it)
  if (raw.property.invitationToken !== undefined && raw.property.invitationToken !== token) throw notFound();
  return sellerKycState(raw, token);
}

/** The caller's own property by id (GET /seller/properties/{propertyId}/onboarding): no link, only ownership; else 404. */
export async function ownKycState(propertyId: string, caller: Caller): Promise<SellerKycState> {
  return sellerKycState(await requireOwnedDossier(propertyId, caller.userId), null);
}

export interface InvitedCoOwner {
  propertyId: string;
  coOwnerId: string;
  email: string;
  property: Item;
  coOwner: Item;
}

/**
 * The co-owner a COINVITE token (not expired) invites, when the caller is signed in with the
 * invited e-mail, is not the property's owner, and the property is not being deleted; anything
 * else 404. The one rule of
 * the co-owner's link: the state below and the co-owner's identity check (co-owner-identity.ts).
 */
export async function requireInvitedCoOwner(token: string, caller: Caller): Promise<InvitedCoOwner> {
  const invite = await readCoOwnerInvitation(token);
  if (!invite || isExpired(invite.expiresAt)) throw notFound();
  const { propertyId, coOwnerId } = invite;
  if (!propertyId || !coOwnerId || !isPropertyId(propertyId)) throw notFound();
  const email = caller.email.trim().toLowerCase();
  // only the invited e-mail opens a co-owner's link
  if (invite.email.toLowerCase() !== email) throw notFound();
  // readProperty: undefined when missing or being deleted
  const [property, coOwner] = await Promise.all([readProperty(propertyId), readCoOwner(propertyId, coOwnerId)]);
  if (!property || !coOwner) throw notFound();
  if (String(coOwner.email ?? '').toLowerCase() !== email) throw notFound();
  // the property's owner is never one of its co-owners, whatever address they were invited at
  if (property.userId === caller.userId) throw notFound();
  return { propertyId, coOwnerId, email: String(coOwner.email), property, coOwner };
}

function coOwnerState(invited: InvitedCoOwner, token: string): CoOwnerKycState {
  const { propertyId, property } = invited;
  const co = toKycCoOwner(invited.coOwner);
  const done = co.verifiedAt !== null;
  return {
    role: 'coOwner',
    token,
    property: { id: propertyId, address: String(property.address ?? ''), city: str(property.city), province: str(property.province) },
    coOwner: { id: co.id, fullName: co.fullName, share: co.share, verifiedAt: co.verifiedAt, badge: co.badge },
    identity: coOwnerIdentityOf(invited.coOwner),
    steps: [{ id: 'identity', number: 1, title: STEP_TITLES.identity, status: done ? 'done' : 'todo', editable: !isStepLocked(property, 'coOwners', 'signature') }],
    complete: done,
  };
}

export async function kycState(token: string, caller: Caller): Promise<KycState> {
  const propertyId = await invitedPropertyId(token);
  if (propertyId) return ownerState(propertyId, token, caller);
  return coOwnerState(await requireInvitedCoOwner(token, caller), token);
}
