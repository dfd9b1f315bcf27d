/**
 * The Dashboard Admin list's pure rules (functions/domain/request-list.ts): the next action
 * of each lifecycle state, the filters read from the page's URL, the query schema's Italian
 * messages, the days in Italy as instants and the pieces of a search.
 */
import { describe, expect, it } from 'vitest';
import {
  addressVariantsOf,
  nextActionOf,
  NEXT_ACTION_LABELS,
  phoneDigitsOf,
  readRequestFilters,
  requestCodeOf,
  requestFilterParams,
  romeDayEnd,
  romeDayStart,
} from '../../functions/domain/request-list';
import { LIFECYCLE } from '../../functions/domain/requests';
import { listQuery } from '../../functions/requests/schemas';

const at = '2026-11-20T10:00:00.000Z';

describe('nextActionOf', () => {
  it('names the next step of each lifecycle state', () => {
    expect(nextActionOf({})).toBe("Valutare l'immobile");
    expect(nextActionOf({ valuedAt: at })).toBe('Inviare la stima');
    expect(nextActionOf({ valuedAt: at, estimateSentAt: at })).toBe("Creare l'opzione");
    expect(nextActionOf({ valuedAt: at, estimateSentAt: at, optionCreatedAt: at })).toBe('Attendere la firma del venditore');
    expect(nextActionOf({ valuedAt: at, estimateSentAt: at, optionCreatedAt: at, optionSignedAt: at })).toBe('Pubblicare agli agenti');
  });

  it('follows the latest fact set, as the lifecycle does (null is not set)', () => {
    expect(nextActionOf({ valuedAt: null, estimateSentAt: null, optionCreatedAt: at, optionSignedAt: null })).toBe('Attendere la firma del venditore');
    expect(nextActionOf({ valuedAt: at, estimateSentAt: null })).toBe('Inviare la stima');
  });

  it('has a label for every state', () => {
    for (const s of LIFECYCLE) expect(NEXT_ACTION_LABELS[s]).toMatch(/^\p{Lu}/u);
  });

  it("once there is an option, follows the option's state", () => {
    const signed = { valuedAt: at, estimateSentAt: at, optionCreatedAt: at, optionSignedAt: at };
    expect(nextActionOf({ ...signed, optionState: 'signed' })).toBe('Pubblicare agli agenti');
    expect(nextActionOf({ ...signed, optionState: 'published' })).toBe("Attendere la richiesta di un agente");
    expect(nextActionOf({ ...signed, optionState: 'assigned' })).toBe("Seguire le visite dell'agente");
    expect(nextActionOf({ ...signed, optionState: 'cancelled' })).toBe('Nessuna: opzione annullata');
    expect(nextActionOf({ valuedAt: at, estimateSentAt: at, optionCreatedAt: at, optionState: 'sent' })).toBe('Attendere la firma del venditore');
    // a state without an option fact (never written so) does not move the request
    expect(nextActionOf({ valuedAt: at, optionState: 'published' })).toBe('Inviare la stima');
  });
});

describe('filters in the URL', () => {
  it('keeps the valid values, drops the others and the default sort', () => {
    const f = readRequestFilters(new URLSearchParams('q=%20Rossi%20&state=valutata&source=abc_DEF-12&from=2026-03-01&to=2026-03-31&sort=amount_desc&x=1'));
    expect(f).toEqual({ q: 'Rossi', state: 'valutata', source: 'abc_DEF-12', from: '2026-03-01', to: '2026-03-31', sort: 'amount_desc' });
    expect(readRequestFilters(new URLSearchParams('state=chiusa&source=a%20b&from=2026-02-30&to=ieri&sort=newest&q='))).toEqual({});
    expect(readRequestFilters(new URLSearchParams('source=none&sort=oldest'))).toEqual({ source: 'none', sort: 'oldest' });
  });

  it('drops a "to" before "from"', () => {
    expect(readRequestFilters(new URLSearchParams('from=2026-03-10&to=2026-03-01'))).toEqual({ from: '2026-03-10' });
  });

  it('writes back only what is set', () => {
    expect(requestFilterParams({ q: '  ', state: 'nuova', sort: 'newest' })).toEqual({ state: 'nuova' });
    expect(requestFilterParams({ q: 'mario', from: '2026-01-01', to: '2026-01-02', sort: 'amount_asc', source: 'none' })).toEqual({
      q: 'mario',
      from: '2026-01-01',
      to: '2026-01-02',
      sort: 'amount_asc',
      source: 'none',
    });
  });
});

describe('GET /admin/properties query schema', () => {
  const error = (query: Record<string, string>) => {
    const r = listQuery.safeParse(query);
    return r.success ? undefined : r.error.issues.map((i) => [i.path.join('.'), i.message]);
  };

  it('accepts every filter and sort, an empty value is no filter', () => {
    const r = listQuery.parse({ q: 'rossi', state: 'opzione_firmata', source: 'none', from: '2026-01-01', to: '2026-01-01', sort: 'amount_asc' });
    expect(r).toMatchObject({ state: 'opzione_firmata', source: 'none', from: '2026-01-01', to: '2026-01-01', sort: 'amount_asc', limit: 50 });
    expect(listQuery.parse({ state: '', source: '', from: '', to: '', sort: '' })).toEqual({ limit: 50 });
  });

  it('refuses a bad value with its Italian message', () => {
    expect(error({ state: 'chiusa' })).toEqual([['state', 'Stato della richiesta non valido']]);
    expect(error({ source: 'a b' })).toEqual([['source', 'Fonte non valida']]);
    expect(error({ from: '01/03/2026' })).toEqual([['from', 'La data di inizio non è valida']]);
    expect(error({ to: '2026-02-30' })).toEqual([['to', 'La data di fine non è valida']]);
    expect(error({ from: '2026-03-02', to: '2026-03-01' })).toEqual([['to', 'La data di inizio non può essere successiva alla data di fine']]);
    expect(error({ sort: 'price' })).toEqual([['sort', 'Ordinamento non valido']]);
  });
});

describe('days in Italy', () => {
  it('starts and ends a day at Italian midnight, winter and summer time', () => {
    expect(romeDayStart('2026-01-15')).toBe('2026-01-14T23:00:00.000Z');
    expect(romeDayEnd('2026-01-15')).toBe('2026-01-15T22:59:59.999Z');
    expect(romeDayStart('2026-07-01')).toBe('2026-06-30T22:00:00.000Z');
    expect(romeDayEnd('2026-07-01')).toBe('2026-07-01T21:59:59.999Z');
  });

  it('handles the days the clocks change (23 and 25 hours)', () => {
    // 29 March 2026: 02:00 -> 03:00; 25 October 2026: 03:00 -> 02:00
    expect(romeDayStart('2026-03-29')).toBe('2026-03-28T23:00:00.000Z');
    expect(romeDayEnd('2026-03-29')).toBe('2026-03-29T21:59:59.999Z');
    expect(romeDayStart('2026-10-25')).toBe('2026-10-24T22:00:00.000Z');
    expect(romeDayEnd('2026-10-25')).toBe('2026-10-25T22:59:59.999Z');
  });
});

describe('search pieces', () => {
  it('reads the digits of a phone-like search as stored (E.164 without +)', () => {
    expect(phoneDigitsOf('333 123 4567')).toBe('3331234567');
    expect(phoneDigitsOf('+39 333-123.4567')).toBe('393331234567');
    expect(phoneDigitsOf('0039 333 1234567')).toBe('393331234567');
    expect(phoneDigitsOf('(02) 1234')).toBe('021234');
    expect(phoneDigitsOf('333')).toBeUndefined();
    expect(phoneDigitsOf('Via Roma 12')).toBeUndefined();
  });

  it('reads a request code: hex digits and dashes, at least 4, lower case', () => {
    expect(requestCodeOf(' 3F2A9C1B ')).toBe('3f2a9c1b');
    expect(requestCodeOf('3f2a9c1b-1d2e-4f00-8a9b-0c1d2e3f4a5b')).toBe('3f2a9c1b-1d2e-4f00-8a9b-0c1d2e3f4a5b');
    expect(requestCodeOf('abc')).toBeUndefined();
    expect(requestCodeOf('rossi')).toBeUndefined();
    expect(requestCodeOf('--ab-cd--')).toBeUndefined();
  });

  it('spells an address search as it may have been typed', () => {
    expect(addressVariantsOf('  via   giuseppe verdi ')).toEqual(['via giuseppe verdi', 'Via Giuseppe Verdi', 'VIA GIUSEPPE VERDI']);
    expect(addressVariantsOf("Piazza dell'orto")).toEqual(["Piazza dell'orto", "piazza dell'orto", "Piazza Dell'Orto", "PIAZZA DELL'ORTO"]);
    expect(addressVariantsOf('')).toEqual([]);
  });
});
