import * as z from 'zod';
import { ConflictError, GoneError } from '../lib/errors';
import { route } from '../lib/http';
import { invitedPropertyId, linkPropertyToSeller } from '../model/invitation';
import { readProperty } from '../model/property';
import { TOKEN_PATTERN } from '../model/tokens';

const body = z.object({ token: z.string({ error: 'Link non valido' }).regex(TOKEN_PATTERN, 'Link non valido') });

/**
 * A seller who signs in from an invitation link becomes the owner of the property whose
 * invitation token matches (spec 000 section 4, sign-in redirect). A property already
 * linked to another account stays theirs. The use case is ./claim (GET /seller/kyc reuses it).
 */
export const handler = route('claimInvitation', { body }, async ({ body, caller }) => {
  const me = caller!;
  const propertyId = await invitedPropertyId(body.token);
  if (!propertyId) throw new GoneError('Proprietà non trovata o link scaduto');
  // a property being deleted is read too: linkPropertyToSeller's condition decides
  const property = await readProperty(propertyId, { includeDeleting: true });
  if (!property) throw new GoneError('Proprietà non trovata o link scaduto');
  if (!(await linkPropertyToSeller(propertyId, body.token, me.userId, property.createdAt as string))) {
    throw new ConflictError('Questo immobile è già collegato a un altro account');
  }
  return { propertyId, token: body.token };
});
