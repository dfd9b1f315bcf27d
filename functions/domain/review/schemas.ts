/** zod schemas of the review and option routes, Italian messages; the SPA's forms use the same ones. */
import * as z from 'zod';
import { OPTION_DURATION_MESSAGE, OPTION_DURATIONS } from '../fees';
import type { PurchaseOption } from '../requests';
import { ADMIN_OPTION_ACTIONS, OPTION_LIFECYCLE_MESSAGES } from '../option-lifecycle';
import { DEFAULT_CAUTIOUS_DISCOUNT, DEFAULT_CORRECTIONS, REVIEW_MESSAGES } from './rules';

// whole percentages: the estimate, its e-mail and the page show them as such
const correction = (label: string, fallback: number) =>
  z
    .number({ error: `${label}: inserisci un numero` })
    .int(`${label}: inserisci un numero intero`)
    .min(-100, `${label}: il valore minimo è -100`)
    .max(0, `${label}: la correzione non può essere positiva`)
    .default(fallback);

const flag = z.boolean({ error: 'Indica se applicare la correzione (sì o no)' });

/** POST /admin/properties/{propertyId}/valuations */
export const createValuationSchema = z.object({
  cautiousDiscount: z
    .number({ error: 'Il ribasso prudenziale deve essere un numero' })
    .int('Il ribasso prudenziale deve essere un numero intero')
    .min(-50, 'Il ribasso prudenziale deve essere tra -50 e 0')
    .max(0, 'Il ribasso prudenziale deve essere tra -50 e 0')
    .default(DEFAULT_CAUTIOUS_DISCOUNT),
  applyGroundFloorCorrection: flag.optional(),
  applyNoBalconyCorrection: flag.optional(),
  applyNoElevatorCorrection: flag.optional(),
  groundFloorCorrection: correction('Correzione piano terra', DEFAULT_CORRECTIONS.groundFloor),
  noBalconyCorrection: correction('Correzione assenza balcone', DEFAULT_CORRECTIONS.noBalcony),
  noElevatorCorrection: correction('Correzione assenza ascensore', DEFAULT_CORRECTIONS.noElevator),
  linkZona: z
    .string({ error: 'Zona OMI non valida' })
    .trim()
    .regex(/^[A-Za-z0-9]{1,20}$/, 'Zona OMI non valida')
    .nullish(),
});
export type CreateValuationInput = z.input<typeof createValuationSchema>;
export type CreateValuationBody = z.output<typeof createValuationSchema>;

const percent = (message: string) => z.number({ error: message }).min(0, message).max(100, message);

export const PERCENT_MESSAGES = {
  agentCommissionPercentage: 'La percentuale di condivisione deve essere tra 0 e 100',
  salePricePercentage: 'La percentuale di vendita deve essere tra 0 e 100',
  minAgentCommissionPercentage: 'La percentuale minima deve essere tra 0 e 100',
} as const;

export const MIN_ABOVE_MAX_MESSAGE = 'La condivisione minima non può superare la condivisione agenti';

/** POST /admin/properties/{propertyId}/option */
export const createOptionSchema = z
  .object({
    propertyValue: z
      .number({ error: REVIEW_MESSAGES.invalidValue })
      .positive(REVIEW_MESSAGES.invalidValue)
      .max(1_000_000_000, REVIEW_MESSAGES.invalidValue),
    /** 6, 8 or 12 months; absent: the seller's choice on the property, else 6 */
    optionDuration: z.literal(OPTION_DURATIONS, { error: OPTION_DURATION_MESSAGE }).optional(),
    hasKeys: z.boolean({ error: 'Indica se le chiavi sono consegnate' }),
    agentCommissionPercentage: percent(PERCENT_MESSAGES.agentCommissionPercentage),
    minAgentCommissionPercentage: percent(PERCENT_MESSAGES.minAgentCommissionPercentage),
    salePricePercentage: percent(PERCENT_MESSAGES.salePricePercentage),
    minMonthlySlots: z
      .number({ error: 'Inserisci il numero minimo di slot mensili' })
      .int('Il numero minimo di slot mensili deve essere un numero intero')
      .min(1, 'Il numero minimo di slot mensili deve essere almeno 1')
      .max(100, 'Il numero minimo di slot mensili può essere al massimo 100'),
  })
  .refine((o) => o.minAgentCommissionPercentage <= o.agentCommissionPercentage, {
    message: MIN_ABOVE_MAX_MESSAGE,
    path: ['minAgentCommissionPercentage'],
  });
export type CreateOptionInput = z.input<typeof createOptionSchema>;
export type CreateOptionBody = z.output<typeof createOptionSchema>;

/**
 * PATCH /admin/options/{propertyId}: the agents' terms. The state is not edited here (the spec's
 * dialog allowed any status): it moves by the lifecycle's actions (POST .../transitions).
 */
export const updateOptionSchema = z
  .object({
    status: z.never({ error: "Lo stato dell'opzione cambia solo con le sue azioni (pubblica, ritira, esercitata, annulla)" }).optional(),
    agentCommissionPercentage: percent(PERCENT_MESSAGES.agentCommissionPercentage).optional(),
    salePricePercentage: percent(PERCENT_MESSAGES.salePricePercentage).optional(),
    minAgentCommissionPercentage: percent(PERCENT_MESSAGES.minAgentCommissionPercentage).optional(),
  })
  .refine((o) => Object.values(o).some((v) => v !== undefined), { message: REVIEW_MESSAGES.nothingToUpdate });
export type UpdateOptionInput = z.input<typeof updateOptionSchema>;

/** POST /admin/options/{propertyId}/transitions: an admin's action on the option's state; cancelling needs a reason. */
export const optionTransitionSchema = z
  .object({
    action: z.enum(ADMIN_OPTION_ACTIONS, { error: OPTION_LIFECYCLE_MESSAGES.actionInvalid }),
    reason: z.string({ error: OPTION_LIFECYCLE_MESSAGES.reasonRequired }).trim().max(500, OPTION_LIFECYCLE_MESSAGES.reasonTooLong).optional(),
  })
  .refine((b) => b.action !== 'cancel' || (b.reason ?? '').length >= 5, { message: OPTION_LIFECYCLE_MESSAGES.reasonRequired, path: ['reason'] });
export type OptionTransitionInput = z.input<typeof optionTransitionSchema>;

export interface OptionTransitionResult {
  status: PurchaseOption['status'];
  /** agents' open requests closed by a withdrawal or a cancellation */
  closedRequests: number;
}

/** A row of Opzioni di Acquisto Attive: the option with the property and people it names. */
export interface OptionListItem extends PurchaseOption {
  propertyAddress: string;
  propertyCity: string | null;
  sellerFirstName: string;
  sellerLastName: string;
  /** the assigned agent's name, when an agent is assigned */
  agentName: string | null;
}

export interface OptionList {
  items: OptionListItem[];
}

/** GET /admin/properties/{propertyId}/option: the light read the review page polls. */
export interface OptionPoll {
  option: PurchaseOption | null;
}

export interface EstimateSent {
  emailSentAt: string;
  estimateSentAt: string;
  /** 'sent' or 'pending' (the scheduled retry will send it) */
  delivery: 'sent' | 'pending';
}

export interface NotificationSent {
  notifiedAt: string;
  delivery: 'sent' | 'pending';
}

export interface AvailabilityLinkSent {
  availabilityLinkSentAt: string;
  delivery: 'sent' | 'pending';
}
