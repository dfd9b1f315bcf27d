import { route } from '../lib/http';
import { enforceRateLimit } from '../model/rate-limit';
import * as places from '../domain/places/comuni';
import { makeSubmissionSchema } from '../domain/property/schema';
import { submitProperty } from './property-submission';

const body = makeSubmissionSchema({ places });

/**
 * POST /seller/properties ('Nuova Richiesta' on the seller dashboard): the wizard's
 * submission by a signed-in seller. The same use case as POST /properties, with the
 * property linked to the caller in the same transaction, so it shows on their dashboard
 * at once. Same validation, same per-IP limit.
 */
export const handler = route(
  'submitOwnProperty',
  { body },
  async ({ body, caller, sourceIp }) => {
    const seller = caller;
    await enforceRateLimit('submission', sourceIp);
    return submitProperty(body, { ownerId: seller.userId });
  },
  { successStatus: 201 },
);
