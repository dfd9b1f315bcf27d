import { describe, expect, it } from 'vitest';
import {
  ADMIN_OPTION_ACTIONS,
  adminActionsIn,
  canApply,
  isPastExpiry,
  nextOptionState,
  OPTION_ACTIONS,
  OPTION_STATES,
  optionStateOf,
  type OptionAction,
  type OptionState,
} from '../../functions/domain/option-lifecycle';
import { optionTransitionSchema } from '../../functions/domain/review/schemas';
import { activityTransitionText } from '../../functions/domain/activity';

/** Every allowed (state, action) -> state; every pair not listed is refused. */
const ALLOWED: Record<string, OptionState> = {
  'created:notify': 'sent',
  'sent:notify': 'sent',
  'created:sign': 'signed',
  'sent:sign': 'signed',
  'signed:publish': 'published',
  'published:withdraw': 'signed',
  'published:assign': 'assigned',
  'signed:expire': 'expired',
  'published:expire': 'expired',
  'assigned:expire': 'expired',
  'signed:exercise': 'exercised',
  'published:exercise': 'exercised',
  'assigned:exercise': 'exercised',
  'created:cancel': 'cancelled',
  'sent:cancel': 'cancelled',
  'signed:cancel': 'cancelled',
  'published:cancel': 'cancelled',
  'assigned:cancel': 'cancelled',
};

describe('option lifecycle', () => {
  it.each(OPTION_STATES.flatMap((s) => OPTION_ACTIONS.map((a) => [s, a] as [OptionState, OptionAction])))('%s --%s-->', (state, action) => {
    const expected = ALLOWED[`${state}:${action}`] ?? null;
    expect(nextOptionState(state, action)).toBe(expected);
    expect(canApply(state, action)).toBe(expected !== null);
  });

  it('final states allow nothing', () => {
    for (const s of ['exercised', 'expired', 'cancelled'] as const) expect(OPTION_ACTIONS.filter((a) => canApply(s, a))).toEqual([]);
  });

  it('the admin sees only the actions the state allows', () => {
    expect(adminActionsIn('created')).toEqual(['cancel']);
    expect(adminActionsIn('signed')).toEqual(['publish', 'exercise', 'cancel']);
    expect(adminActionsIn('published')).toEqual(['withdraw', 'exercise', 'cancel']);
    expect(adminActionsIn('assigned')).toEqual(['exercise', 'cancel']);
    expect(adminActionsIn('cancelled')).toEqual([]);
    expect(ADMIN_OPTION_ACTIONS).not.toContain('assign');
  });

  it('reads a legacy status from the option facts', () => {
    expect(optionStateOf({ status: 'pending' })).toBe('created');
    expect(optionStateOf({ status: 'pending', notifiedAt: '2026-01-01T00:00:00Z' })).toBe('sent');
    expect(optionStateOf({ status: 'pending', signedAt: '2026-01-02T00:00:00Z' })).toBe('signed');
    expect(optionStateOf({ status: 'approved', signedAt: '2026-01-02T00:00:00Z' })).toBe('published');
    expect(optionStateOf({ status: 'pending', signedAt: '2026-01-02T00:00:00Z', assignedAgentId: 'a' })).toBe('assigned');
    expect(optionStateOf({ status: 'completed' })).toBe('exercised');
    expect(optionStateOf({ status: 'cancelled' })).toBe('cancelled');
    expect(optionStateOf({ status: 'published' })).toBe('published');
    expect(optionStateOf({})).toBe('created');
  });

  it('expires the day after its expiry day', () => {
    expect(isPastExpiry('2027-03-01', '2027-03-01')).toBe(false);
    expect(isPastExpiry('2027-03-01', '2027-03-02')).toBe(true);
    expect(isPastExpiry(null, '2027-03-02')).toBe(false);
  });

  it('the admin action body: cancel needs a reason of 5+ characters, the action is one of the four', () => {
    expect(optionTransitionSchema.safeParse({ action: 'publish' }).success).toBe(true);
    expect(optionTransitionSchema.safeParse({ action: 'cancel', reason: '  ok  ' }).success).toBe(false);
    expect(optionTransitionSchema.safeParse({ action: 'cancel', reason: 'Venduto altrove' }).success).toBe(true);
    expect(optionTransitionSchema.safeParse({ action: 'assign' }).success).toBe(false);
    expect(optionTransitionSchema.safeParse({ action: 'publish', reason: 'x'.repeat(501) }).success).toBe(false);
  });

  it('activity states read in Italian', () => {
    expect(activityTransitionText({ before: 'signed', after: 'published' })).toBe('Firmata → Pubblicata agli agenti');
    expect(activityTransitionText({ before: null, after: 'created' })).toBe('Creata');
    expect(activityTransitionText({ before: 'payment_pending', after: 'paid' })).toBe('Attesa Pagamento → Pagata');
    expect(activityTransitionText({ before: null, after: null })).toBeNull();
  });
});
