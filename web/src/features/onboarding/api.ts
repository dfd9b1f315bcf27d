/**
 * Client of the seller onboarding routes (functions/routes.ts): the KYC read by invitation
 * token or property id, identity, co-owners, delegations and the purchase-option signature.
 */
import type { DocumentType, IdentityCheckResult, IdentityFileKind, IdentityRecord } from '@domain/identity';
import type { DelegationType } from '@domain/onboarding/rules';
import type { SellerCoOwner, SellerDelegation } from '@domain/onboarding/schemas';
import type { CoOwnerFiscalCode } from '@domain/onboarding/digital-signature';
import type { PresignedUpload } from '@domain/uploads';
import { api } from '@/lib/api';
import { requireFileBytes, uploadFile } from '@/lib/upload';
import type { KycState, OptionDocumentLink, OptionSignedResult, SellerKycState } from '@domain/onboarding/kyc';

const base = (propertyId: string) => `/seller/properties/${encodeURIComponent(propertyId)}`;

export const kycKeys = {
  all: ['seller', 'kyc'] as const,
  byToken: (token: string) => ['seller', 'kyc', 'link', token] as const,
  byProperty: (propertyId: string) => ['seller', 'kyc', 'property', propertyId] as const,
};

/** The e-mail's link (first arrival): an owner's page then goes on by property id; a co-owner's stays on the link. */
export function getKyc(token: string, signal?: AbortSignal): Promise<KycState> {
  return api.get<KycState>('/seller/kyc', { query: { token }, signal });
}

/** The caller's own property by id (ownership, no link). */
export function getOwnKyc(propertyId: string, signal?: AbortSignal): Promise<SellerKycState> {
  return api.get<SellerKycState>(`${base(propertyId)}/onboarding`, { signal });
}


// ---- identity ----

export type Progress = (loaded: number, total: number) => void;

/**
 * Whose identity the dialog checks: the property's owner (by property id) or an invited
 * co-owner (by their link token, POST /seller/kyc/identity...). Same body, same answers.
 */
export type IdentityTarget = { propertyId: string } | { coOwnerToken: string };

const identityPath = (target: IdentityTarget, suffix = ''): { path: string; query?: { token: string } } =>
  'propertyId' in target
    ? { path: `${base(target.propertyId)}/identity${suffix}` }
    : { path: `/seller/kyc/identity${suffix}`, query: { token: target.coOwnerToken } };

export async function uploadIdentityFile(target: IdentityTarget, kind: IdentityFileKind, file: Blob, fileName: string, onProgress?: Progress): Promise<string> {
  const contentType = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  await requireFileBytes(file, contentType, fileName);
  const { path, query } = identityPath(target, '/uploads');
  const form = await api.post<PresignedUpload>(path, { kind, fileName, contentType, size: file.size }, query ? { query } : undefined);
  await uploadFile(form, file, { onProgress });
  return form.key;
}

export interface VerifyIdentityBody {
  documentType: DocumentType;
  documentNumber: string;
  fullName?: string;
  faceKey: string;
  documentFrontKey: string;
  documentBackKey?: string;
}

export function verifyIdentity(target: IdentityTarget, body: VerifyIdentityBody): Promise<IdentityCheckResult> {
  const { path, query } = identityPath(target);
  return api.post<IdentityCheckResult>(path, body, query ? { query } : undefined);
}

export function getIdentity(propertyId: string, signal?: AbortSignal): Promise<{ identity: IdentityRecord | null }> {
  return api.get(`${base(propertyId)}/identity`, { signal });
}

// ---- co-owners ----

export interface CoOwnerInput {
  email: string;
  fullName: string;
  share: number;
}

export function replaceCoOwners(propertyId: string, sellerShare: number, coOwners: CoOwnerInput[]): Promise<{ sellerShare: number; coOwners: SellerCoOwner[] }> {
  return api.put(`${base(propertyId)}/co-owners`, { sellerShare, coOwners });
}

export function inviteCoOwners(propertyId: string): Promise<unknown> {
  return api.post(`${base(propertyId)}/co-owners/invitations`);
}

export function skipCoOwners(propertyId: string): Promise<{ singleOwner: true }> {
  return api.post(`${base(propertyId)}/co-owners/skip`);
}

// ---- delegations ----

export interface GenerateDelegationsBody {
  province: string;
  municipality: string;
  types: DelegationType[];
  delegator: { fullName: string; fiscalCode: string; documentType: DocumentType; documentNumber: string };
}

export function generateDelegations(propertyId: string, body: GenerateDelegationsBody): Promise<{ delegations: SellerDelegation[] }> {
  return api.put(`${base(propertyId)}/delegations`, body);
}

export function delegationDocument(propertyId: string, type: DelegationType): Promise<{ url: string; fileName: string }> {
  return api.get(`${base(propertyId)}/delegations/${type}/document`);
}

/** Content-Type from the extension when the browser gives none (doc, docx on some systems). */
const TYPE_BY_EXT: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  // a CAdES firma digitale: browsers rarely know the type
  p7m: 'application/pkcs7-mime',
};

export function contentTypeOf(file: File): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return TYPE_BY_EXT[ext] ?? (file.type || 'application/octet-stream');
}

export async function uploadSignedDelegation(
  propertyId: string,
  type: DelegationType,
  file: File,
  onProgress?: Progress,
  /** the copy is digitally signed (a .p7m always is: the server decides by its extension) */
  digital = false,
): Promise<SellerDelegation> {
  await requireFileBytes(file, contentTypeOf(file));
  const target = await api.post<PresignedUpload>(`${base(propertyId)}/delegations/${type}/uploads`, {
    fileName: file.name,
    contentType: contentTypeOf(file),
    size: file.size,
  });
  await uploadFile(target, file, { onProgress });
  return api.post<SellerDelegation>(`${base(propertyId)}/delegations/${type}/signed`, digital ? { key: target.key, signature: 'digitale' } : { key: target.key });
}

/** Opens a presigned GET in a new tab (the browser downloads it: Content-Disposition). */
export function openDownload(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.target = '_blank';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// ---- purchase option ----

export function optionDocument(propertyId: string): Promise<OptionDocumentLink> {
  return api.get(`${base(propertyId)}/option/document`);
}

/** The signed option: on paper, or a firma digitale with the co-owners' codici fiscali. */
export async function uploadSignedOption(
  propertyId: string,
  file: File,
  onProgress?: Progress,
  digital?: { coOwnerFiscalCodes: CoOwnerFiscalCode[] },
): Promise<OptionSignedResult> {
  await requireFileBytes(file, contentTypeOf(file));
  const target = await api.post<PresignedUpload>(`${base(propertyId)}/option/uploads`, {
    fileName: file.name,
    contentType: contentTypeOf(file),
    size: file.size,
  });
  await uploadFile(target, file, { onProgress });
  return api.post<OptionSignedResult>(
    `${base(propertyId)}/option/signed`,
    digital ? { key: target.key, signature: 'digitale', coOwnerFiscalCodes: digital.coOwnerFiscalCodes } : { key: target.key },
  );
}
