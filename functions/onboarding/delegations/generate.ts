/**
 * 'Genera Deleghe': the delegation PDFs of a property rendered, stored and recorded in one
 * transaction. Apart from the other delegation use cases so that only this function ships
 * pdf-lib and the list of comuni.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure } from '../../model/db';
import { s3 } from '../../lib/aws/s3';
import { config, requireConfig } from '../../lib/config';
import { ConflictError, ValidationError } from '../../lib/errors';
import { keys } from '../../model/keys';
import { findComune } from '../../domain/places/comuni';
import { provinceByCode } from '../../domain/places/provinces';
import { DELEGATION_LABELS, ONBOARDING_MESSAGES as M, type DelegationType } from '../../domain/onboarding/rules';
import type { GenerateDelegationsBody, SellerDelegation } from '../../domain/onboarding/schemas';
import { OWNED_AND_EDITABLE, requireOwnedDossier, str, table, type Item } from '../../model/owned-property';
import { renderDelegationPdf } from './delegation-pdf';
import { deleteObjects, generatedKeyOf, propertyNotFound, sameDelegator, toSellerDelegation, typeOf } from './delegations';

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
    ...(body.delegator.birthDate ? { birthDate: body.delegator.birthDate } : {}),
    ...(body.delegator.birthPlace ? { birthPlace: body.delegator.birthPlace } : {}),
    ...(body.delegator.address ? { address: body.delegator.address } : {}),
  };
  const delegatee = { company: config().DELEGATEE_COMPANY, administrator: config().DELEGATEE_ADMINISTRATOR };
  const existing = new Map(raw.delegations.map((d) => [typeOf(d), d]));
  const sameContent = (d: Item | undefined) =>
    d !== undefined &&
    str(d.generatedKey) !== null &&
    d.province === province.code &&
    d.municipality === comune.name &&
    sameDelegator(d.delegator, delegator) &&
    d.delegateeOrganization === delegatee.company &&
    d.delegateeName === delegatee.administrator;

  const bucket = requireConfig('MEDIA_BUCKET');
  const written: string[] = [];
  const items: Item[] = [];
  const replacedFiles: string[] = [];
  try {
    for (const type of body.types) {
      const old = existing.get(type);
      if (sameContent(old)) {
        items.push(old!);
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
      if (old) replacedFiles.push(...[str(old.generatedKey), str(old.documentKey)].filter((k): k is string => k !== null));
      items.push({
        ...keys.delegation(propertyId, type),
        entity: 'delegation',
        propertyId,
        type,
        province: province.code,
        provinceName: province.name,
        municipality: comune.name,
        delegator,
        delegatorName: delegator.fullName,
        delegatorFiscalCode: delegator.fiscalCode,
        delegateeName: delegatee.administrator,
        delegateeOrganization: delegatee.company,
        generatedKey,
        generatedAt: at,
        documentKey: null,
        signedAt: null,
        createdAt: old ? String(old.createdAt ?? at) : at,
        updatedAt: at,
      });
    }
  } catch (err) {
    await deleteObjects(written, 'generation failed');
    throw err;
  }
  const selected = new Set<string>(body.types);
  const removed = raw.delegations.filter((d) => !selected.has(typeOf(d)));
  const T = table();
  try {
    await ddb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: T,
              Key: keys.property(propertyId),
              UpdateExpression: 'SET delegationsUpdatedAt = :at, updatedAt = :at',
              ConditionExpression: OWNED_AND_EDITABLE,
              ExpressionAttributeValues: { ':at': at, ':owner': userId },
            },
          },
          ...removed.map((d) => ({ Delete: { TableName: T, Key: { pk: d.pk, sk: d.sk } } })),
          ...items
            .filter((i) => i.generatedAt === at)
            .map((Item) => ({ Put: { TableName: T, Item } })),
        ],
      }),
    );
  } catch (err) {
    await deleteObjects(written, 'transaction failed');
    if (isConditionFailure(err, 0)) throw propertyNotFound();
    if ((err as { name?: string }).name === 'TransactionCanceledException') throw new ConflictError();
    throw err;
  }
  const gone = removed.flatMap((d) => [str(d.generatedKey), str(d.documentKey)]).filter((k): k is string => k !== null);
  await deleteObjects([...gone, ...replacedFiles], 'replaced or removed');
  const order = (t: DelegationType) => Object.keys(DELEGATION_LABELS).indexOf(t);
  return { delegations: items.map(toSellerDelegation).sort((a, b) => order(a.type) - order(b.type)) };
}
