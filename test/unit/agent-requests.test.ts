import { describe, expect, it } from 'vitest';
import {
  AGENT_MESSAGES,
  agentRequestStatusLabel,
  commissionAmountOf,
  commissionChoices,
  commissionError,
  createAgentRequestSchema,
  paymentReference,
  toCents,
} from '../../functions/domain/agent-requests';
import { formatEuroCents } from '../../functions/domain/format';
import { isVideoFileName } from '../../functions/domain/property/media';

describe('agent marketplace rules', () => {
  it('the slider: step 1 from the minimum to the maximum, starting at the minimum', () => {
    expect(commissionChoices(2, 5)).toEqual([2, 3, 4, 5]);
    expect(commissionChoices(1.5, 4)).toEqual([1.5, 2.5, 3.5]);
    expect(commissionChoices(3, 3)).toEqual([3]);
    expect(commissionChoices(5, 2)).toEqual([]);
  });

  it('accepts only the slider values, with Italian reasons', () => {
    expect(commissionError(2, 5, 2)).toBeNull();
    expect(commissionError(2, 5, 5)).toBeNull();
    expect(commissionError(2, 5, 1)).toBe('La provvigione deve essere tra 2% e 5%');
    expect(commissionError(2, 5, 5.5)).toBe('La provvigione deve essere tra 2% e 5%');
    expect(commissionError(2, 5, 2.5)).toBe(AGENT_MESSAGES.commissionStep);
    expect(commissionError(1.5, 4, 2.5)).toBeNull();
    expect(commissionError(1.5, 4, 2)).toBe(AGENT_MESSAGES.commissionStep);
    expect(commissionError(1.5, 4, 0)).toBe('La provvigione deve essere tra 1,5% e 4%');
    expect(commissionError(2, 5, Number.NaN)).not.toBeNull();
    expect(createAgentRequestSchema.safeParse({ commissionPercentage: '3' }).error?.issues[0]?.message).toBe(AGENT_MESSAGES.commissionRequired);
  });

  it('amount = option amount x percent / 100, to the cent; Stripe gets cents', () => {
    expect(commissionAmountOf(3000, 3)).toBe(90);
    expect(commissionAmountOf(2575, 3)).toBe(77.25);
    expect(commissionAmountOf(3333, 1.5)).toBe(50);
    // half a cent rounds up: 18.5 % of 101 € is 18.685 € (dividing before rounding gave 18.68)
    expect(commissionAmountOf(101, 18.5)).toBe(18.69);
    expect(commissionAmountOf(1001, 2.5)).toBe(25.03); // 25.025
    expect(toCents(77.25)).toBe(7725);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(formatEuroCents(77.25)).toBe('77,25 €');
    expect(formatEuroCents(2500)).toBe('2.500,00 €');
    expect(formatEuroCents(1234567.5)).toBe('1.234.567,50 €');
  });

  it('reference, labels, videos by extension', () => {
    expect(paymentReference('3f2a9c1b-aaaa-4bbb-8ccc-000000000000')).toBe('OPZ-3f2a9c1b');
    expect(agentRequestStatusLabel('payment_pending')).toBe('Attesa Pagamento');
    expect(agentRequestStatusLabel('strano')).toBe('strano');
    for (const name of ['a.mp4', 'b.MOV', 'c.avi', 'd.webm']) expect(isVideoFileName(name)).toBe(true);
    for (const name of ['a.jpg', 'b.ogg', 'c.mp4.png']) expect(isVideoFileName(name)).toBe(false);
  });
});
