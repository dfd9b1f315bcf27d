/**
 * Step 3: the purchase option. Created only when the seller side is complete (identity
 * verified, co-owners handled, every delegation signed), once per property: the PDF is
 * stored first, then the option (with the property's address and seller copied on it, for
 * the one-Query list) and property.optionCreatedAt in ONE transaction; if that fails the
 * PDF is deleted.
 */
import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../lib/aws/s3';
import { requireConfig } from '../lib/config';
import { ConflictError } from '../lib/errors';
import { logger } from '../lib/logger';
import { DELEGATION_LABELS, type DelegationType, type PurchaseOption } from '../domain/requests';
import type { OptionState } from '../domain/option-lifecycle';
import type { Actor } from '../domain/activity';
import { DEFAULT_DURATION, toOptionDuration, upfrontFee } from '../domain/fees';
import { paymentTermsOf, REVIEW_MESSAGES, subStepsOf } from '../domain/review/rules';
import type { OptionOwner } from '../domain/review/option-document';
import type { CreateOptionBody } from '../domain/review/schemas';
import { renderOptionPdf } from './option-pdf';
import { pdfPageCount } from '../lib/pdf';
import { requireDossier, type RawDossier } from '../model/dossier';
import { toDelegationRecord } from '../model/delegation';
import { sellerShareOf, toCoOwner } from '../model/co-owner';
import { createOptionRecord } from '../model/option';

export function optionDocumentKey(propertyId: string, optionId: string): string {
  return `${propertyId}/documents/opzione-${optionId}.pdf`;
}

/** Step 3's facts from the dossier's raw items. */
function sellerSide(raw: RawDossier) {
  return {
    identity: raw.identity ? { status: (raw.identity.status ?? raw.identity.verificationStatus) as 'pending' | 'verified' | 'rejected' } : null,
    coOwners: raw.coOwners,
    delegations: raw.delegations.map(toDelegationRecord).map(({ type, documentKey, signedAt }) => ({ type, documentKey, signedAt })),
  };
}

const delegationLabel = (t: string) => DELEGATION_LABELS[t as DelegationType] ?? t;

/**
 * Every owner the option names with their share: the seller first (the share saved with the
 * co-owners; 100 when there are none; null when an older list never asked it), then the co-owners.
 */
function ownersOf(raw: RawDossier): OptionOwner[] {
  const p = raw.property;
  const coOwners = raw.coOwners.map(toCoOwner);
  const seller = `${(p.firstName as string) ?? ''} ${(p.lastName as string) ?? ''}`.trim();
  return [
    { name: seller, share: coOwners.length ? sellerShareOf(p) : 100 },
    ...coOwners.map((c) => ({ name: c.fullName, share: c.share })),
  ];
}

export async function createOption(propertyId: string, body: CreateOptionBody, actor: Actor, now = new Date()): Promise<PurchaseOption> {
  const raw = await requireDossier(propertyId);
  const property = raw.property;
  if (raw.option) throw new ConflictError(REVIEW_MESSAGES.optionExists);
  const steps = subStepsOf(sellerSide(raw), delegationLabel);
  if (!steps.canCreateOption) throw new ConflictError(steps.missing.join('. '));

  const id = randomUUID();
  const createdAt = now.toISOString();
  const terms = paymentTermsOf(body.hasKeys);
  // the admin's duration, else the seller's choice (simulator / wizard), else 6 months
  const optionDuration = body.optionDuration ?? toOptionDuration(property.optionDuration) ?? DEFAULT_DURATION;
  // the home simulator's rule on the value the option uses; never an amount from the client
  const optionAmount = upfrontFee(body.propertyValue, optionDuration);
  const documentKey = optionDocumentKey(propertyId, id);
  const option: PurchaseOption = {
    id,
    propertyId,
    status: 'created' satisfies OptionState,
    assignedAgentId: null,
    propertyValue: body.propertyValue,
    optionAmount,
    optionDuration,
    expiresAt: null,
    agentCommissionPercentage: body.agentCommissionPercentage,
    minAgentCommissionPercentage: body.minAgentCommissionPercentage,
    salePricePercentage: body.salePricePercentage,
    hasKeys: body.hasKeys,
    ...terms,
    signatureType: null,
    signedAt: null,
    signatureData: null,
    minMonthlySlots: body.minMonthlySlots,
    createdAt,
    notifiedAt: null,
    availabilityLinkSentAt: null,
    documentKey,
    documentPages: null,
    publishedAt: null,
    assignedAt: null,
    cancelReason: null,
  };
  const pdf = await renderOptionPdf({
    optionId: id,
    createdAt,
    property: {
      address: (property.address as string) ?? '',
      city: (property.city as string | null) ?? null,
      province: (property.province as string | null) ?? null,
      surfaceArea: (property.surfaceArea as number | null) ?? null,
    },
    seller: { firstName: (property.firstName as string) ?? '', lastName: (property.lastName as string) ?? '', email: (property.email as string | null) ?? null },
    owners: ownersOf(raw),
    grantee: { name: requireConfig('GRANTEE_NAME'), vatNumber: requireConfig('GRANTEE_VAT_NUMBER'), address: requireConfig('GRANTEE_ADDRESS') },
    propertyValue: option.propertyValue,
    optionAmount,
    optionDuration,
    expiresAt: null,
    paymentType: terms.paymentType,
    installments: terms.installments,
    hasKeys: option.hasKeys,
    agentCommissionPercentage: option.agentCommissionPercentage,
    minAgentCommissionPercentage: option.minAgentCommissionPercentage,
    salePricePercentage: option.salePricePercentage,
    minMonthlySlots: option.minMonthlySlots,
  });
  option.documentPages = await pdfPageCount(pdf);
  const bucket = requireConfig('MEDIA_BUCKET');
  await s3().send(
    new PutObjectCommand({ Bucket: bucket, Key: documentKey, Body: pdf, ContentType: 'application/pdf', ContentLength: pdf.length }),
  );

  const documentId = `opzione-${id}`;
  try {
    await createOptionRecord(
      option,
      {
        propertyAddress: (property.address as string) ?? '',
        propertyCity: (property.city as string | null) ?? null,
        sellerFirstName: (property.firstName as string) ?? '',
        sellerLastName: (property.lastName as string) ?? '',
      },
      {
        id: documentId,
        kind: 'option',
        key: documentKey,
        fileName: `opzione-${id}.pdf`,
        contentType: 'application/pdf',
        size: pdf.length,
        uploadedAt: createdAt,
      },
      actor,
      // the document names what this read found: stored only while the onboarding is still so
      property,
    );
  } catch (err) {
    await s3()
      .send(new DeleteObjectCommand({ Bucket: bucket, Key: documentKey }))
      .catch((e: unknown) => logger.error('Option PDF left behind after a failed create', { propertyId, documentKey, error: e as Error }));
    throw err;
  }
  logger.info('Purchase option created', { propertyId, optionId: id });
  return option;
}
