import { route } from '../lib/http';
import { logger } from '../lib/logger';
import { submitProperty } from './property-submission';
import { enforceRateLimit } from '../model/rate-limit';
import * as places from '../domain/places/comuni';
import { HONEYPOT_FIELD } from '../domain/property/limits';
import { makeSubmissionSchema } from '../domain/property/schema';

const body = makeSubmissionSchema({ places });

/**
 * POST /properties (public, rate limited): the wizard's submission. Validates every field
 * (Italian messages), then stores the property whole in one transaction (see
 * lib/property-submission.ts). Retrying with the same propertyDraftId answers the same
 * result. A filled honeypot is answered like a success and nothing is stored or sent.
 */
export const handler = route(
  'submitProperty',
  { body },
  async ({ body, sourceIp }) => {
    await enforceRateLimit('submission', sourceIp);
    if (body[HONEYPOT_FIELD].trim() !== '') {
      logger.warn('Honeypot filled: submission dropped', { propertyId: body.propertyDraftId });
      return { propertyId: body.propertyDraftId, createdAt: new Date().toISOString(), status: 'submitted' as const };
    }
    return submitProperty(body);
  },
  { successStatus: 201 },
);
