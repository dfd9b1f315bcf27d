import * as z from 'zod';
import { NotFoundError } from '../lib/errors';
import { KYC_MESSAGES } from '../domain/onboarding/kyc';
import { route } from '../lib/http';
import { invitedPropertyId, linkPropertyToSeller } from '../model/invitation';
import { readProperty } from '../model/property';
import { TOKEN_PATTERN } from '../model/tokens';

const body = z.object({ token: z.string({ error: 'Link non valido' }).regex(TOKEN_PATTERN, 'Link non valido') });

/** Every refusal of a well-formed token, as GET /seller/kyc answers it: nothing tells a live link from a dead one. */
const notFound = () => new NotFoundError(KYC_MESSAGES.tokenNotFound);

/**
 * A seller who signs in from an invitation link becomes the owner of the property whose
 * invitation token matches (spec 000 section 4, sign-in redirect). A property already
 * linked to another account stays theirs, and its link answers that seller exactly as an
 * unknown or expired one (404 'Proprietà non trovata o link scaduto'): the answer must not
 * reveal that a link is live. The use case is ./claim (GET /seller/kyc reuses it).
 */
export const handler = route('claimInvitation', { body }, async ({ body, caller }) => {
  const me = caller!;
  const propertyId = await invitedPropertyId(body.token);
  if (!propertyId) throw notFound();
  // a property being deleted is read too: linkPropertyToSeller's condition decides
  const property = await readProperty(propertyId, { includeDeleting: true });
  if (!property) throw notFound();
  if (!(await linkPropertyToSeller(propertyId, body.token, me.userId, property.createdAt as string))) throw notFound();
  return { propertyId, token: body.token };
});
