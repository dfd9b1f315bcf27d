import { evaluatePropertySchema } from '../domain/valuation';
import { route } from '../lib/http';
import { valuate } from '../model/omi/valuation';

/**
 * POST /valuations/evaluate (spec 001 section 7, evaluate-property): the valuation from the
 * stored OMI quotations, with the zone, state, corrections, cautious discount and history
 * explained; `available: false` with the reason when there is no usable OMI data.
 */
export const handler = route('evaluateProperty', { body: evaluatePropertySchema }, async ({ body }) => valuate(body));
