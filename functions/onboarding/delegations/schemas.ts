import * as z from 'zod';
import { delegationTypeSchema } from '../../domain/onboarding/schemas';
import { propertyParams } from '../../model/owned-property';

export { propertyParams };

export const delegationParams = propertyParams.extend({ type: delegationTypeSchema });
export type DelegationParams = z.infer<typeof delegationParams>;
