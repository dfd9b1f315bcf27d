/**
 * 'Genera Deleghe': the delegation PDFs of a property rendered, stored and recorded in one
 * transaction. Apart from the other delegation use cases so that only this function ships
 * pdf-lib and the list of comuni.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../lib/aws/s3';
import { requireConfig } from '../../lib/config';
import { ValidationError } from '../../lib/errors';
import { findComune } from '../../domain/places/comuni';
import { provinceByCode } from '../../domain/places/provinces';
import { DELEGATION_LABELS, ONBOARDING_MESSAGES as M, type DelegationType } from '../../domain/onboarding/rules';
import type { GenerateDelegationsBody, SellerDelegation } from '../../domain/onboarding/schemas';
import { requireOwnedDossier } from '../../model/owned-property';
import { delegationTypeOf, saveGeneratedDelegations, sellerDelegationOf, toDelegationRecord, type DelegationRecord, type GeneratedDelegation } from '../../model/delegation';
import { renderDelegationPdf } from './delegation-pdf';
import { pdfPageCount } from '../../lib/pdf';
import { deleteObjects, generatedKeyOf, sameDelegator } from './delegations';

/** PUT .../delegations ('Genera Deleghe'). */
export async function generateDelegations(
  propertyId: string,
  userId: string,
  body: GenerateDelegationsBody,
  now = new Date(),
): Promise<{ delegations: SellerDelegation[] }> {
  const province = provinceByCode(body.province)!;
  const comune = findComune(province.code, body.municipality);
  if (!comune) throw new ValidationError(M.municipalityNotInProvince, { municipality: M.municipalityNotInProvince });
  const raw = await requireOwnedDossier(propertyId, userId);
  const property = raw.property;
  const at = now.toISOString();
  const ts = now.getTime();
  const delegator = {
    fullName: body.delegator.fullName,
    fiscalCode: body.delegator.fiscalCode,
    documentType: body.delegator.documentType,
    documentNumber: body.delegator.documentNumber,
    ...(body.delegator.birthDate ? { birthDate: body.delegator.birthDate } : {}),
    ...(body.delegator.birthPlace ? { birthPlace: body.delegator.birthPlace } : {}),
    ...(body.delegator.address ? { address: body.delegator.address } : {}),
  };
  const delegatee = { company: requireConfig('DELEGATEE_COMPANY'), administrator: requireConfig('DELEGATEE_ADMINISTRATOR') };
  const existing = new Map(raw.delegations.map(toDelegationRecord).map((d) => [d.type, d]));
  const sameContent = (d: DelegationRecord | undefined) =>
    d !== undefined &&
    d.generatedKey !== null &&
    d.province === province.code &&
    d.municipality === comune.name &&
    sameDelegator(d.delegator, delegator) &&
    d.delegateeOrganization === delegatee.company &&
    d.delegateeName === delegatee.administrator;

  const bucket = requireConfig('MEDIA_BUCKET');
  const written: string[] = [];
  const records: DelegationRecord[] = [];
  const generated: GeneratedDelegation[] = [];
  const replacedFiles: string[] = [];
  try {
    for (const type of body.types) {
      const old = existing.get(type);
      if (sameContent(old)) {
        records.push(old!);
        continue;
      }
      const generatedKey = generatedKeyOf(propertyId, type, ts);
      const pdf = await renderDelegationPdf({
        type,
        createdAt: at,
        province: { code: province.code, name: province.name },
        municipality: comune.name,
        property: {
          address: (property.address as string) ?? '',
          city: (property.city as string | null) ?? null,
          province: (property.province as string | null) ?? null,
        },
        delegator,
        delegatee,
      });
      await s3().send(new PutObjectCommand({ Bucket: bucket, Key: generatedKey, Body: pdf, ContentType: 'application/pdf', ContentLength: pdf.length }));
      written.push(generatedKey);
      if (old) replacedFiles.push(...[old.generatedKey, old.documentKey].filter((k): k is string => k !== null));
      const next: GeneratedDelegation = {
        type,
        province: province.code,
        provinceName: province.name,
        municipality: comune.name,
        delegator,
        delegateeName: delegatee.administrator,
        delegateeOrganization: delegatee.company,
        generatedKey,
        documentPages: await pdfPageCount(pdf),
        createdAt: old ? (old.createdAt ?? at) : at,
      };
      generated.push(next);
      // as stored: a regenerated delegation starts unsigned
      records.push({ ...next, createdAt: next.createdAt ?? at, generatedAt: at, documentKey: null, signedAt: null, signatureType: null, signature: null });
    }
  } catch (err) {
    await deleteObjects(written, 'generation failed');
    throw err;
  }
  const selected = new Set<string>(body.types);
  const removed = raw.delegations.filter((d) => !selected.has(delegationTypeOf(d)));
  try {
    const completes = records.length > 0 && records.every((r) => r.documentKey !== null && r.signedAt !== null);
    await saveGeneratedDelegations({ propertyId, owner: userId }, generated, removed, at, completes);
  } catch (err) {
    await deleteObjects(written, 'transaction failed');
    throw err;
  }
  const gone = removed.map(toDelegationRecord).flatMap((d) => [d.generatedKey, d.documentKey]).filter((k): k is string => k !== null);
  await deleteObjects([...gone, ...replacedFiles], 'replaced or removed');
  const order = (t: DelegationType) => Object.keys(DELEGATION_LABELS).indexOf(t);
  return { delegations: records.map(sellerDelegationOf).sort((a, b) => order(a.type) - order(b.type)) };
}
