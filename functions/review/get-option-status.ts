import type { OptionPoll } from '../domain/review/schemas';
import { route } from '../lib/http';
import { optionStatus } from '../model/review';
import { propertyParams } from './schemas';

/** GET /admin/properties/{propertyId}/option: {option | null}, polled while the option is unsigned. */
export const handler = route('getOptionStatus', { params: propertyParams }, async ({ params }): Promise<OptionPoll> => optionStatus(params.propertyId));
