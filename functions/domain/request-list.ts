/**
 * The Dashboard Admin's list (GET /admin/properties): its filters (lifecycle state, lead
 * source, creation days in Italy), its sorts, the pieces of a search (phone digits, request
 * code, address as typed), the Italian messages and labels, and the next action each row
 * shows. Shared by the handler (the zod fields) and the SPA (the filters in the page's URL).
 */
import type { OptionState } from './option-lifecycle';
import * as z from 'zod';
import { isIsoDate } from './availability';
import { LIFECYCLE, lifecycleOf, type Lifecycle, type LifecycleFacts } from './requests';
import { SOURCE_ID_PATTERN } from './sources';

export const REQUEST_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type RequestSort = (typeof REQUEST_SORTS)[number];
export const DEFAULT_REQUEST_SORT: RequestSort = 'newest';

export const REQUEST_SORT_LABELS: Record<RequestSort, string> = {
  newest: 'Data: dalla più recente',
  oldest: 'Data: dalla meno recente',
  amount_desc: 'Importo: dal più alto',
  amount_asc: 'Importo: dal più basso',
};

/** The `source` filter of the requests that came from no source link. */
export const NO_SOURCE = 'none';
export const NO_SOURCE_LABEL = 'Nessuna fonte';
/** A request whose source was deleted before its name was copied onto it. */
export const DELETED_SOURCE_LABEL = 'Fonte eliminata';

export const REQUEST_FILTER_MESSAGES = {
  state: 'Stato della richiesta non valido',
  source: 'Fonte non valida',
  from: 'La data di inizio non è valida',
  to: 'La data di fine non è valida',
  range: 'La data di inizio non può essere successiva alla data di fine',
  sort: 'Ordinamento non valido',
} as const;

/** What the list can be narrowed and ordered by (the API's query string and the page's URL). */
export interface RequestFilters {
  q?: string;
  state?: Lifecycle;
  /** a source id, or NO_SOURCE */
  source?: string;
  /** yyyy-MM-dd, days in Italy, both included */
  from?: string;
  to?: string;
  sort?: RequestSort;
}

const blank = (v: unknown) => (v === '' ? undefined : v);

/** The zod fields of the filters (an empty value is no filter); compose with `checkDayRange`. */
export const requestFilterFields = {
  state: z.preprocess(blank, z.enum(LIFECYCLE, { error: REQUEST_FILTER_MESSAGES.state }).optional()),
  source: z.preprocess(
    blank,
    z.string({ error: REQUEST_FILTER_MESSAGES.source }).regex(SOURCE_ID_PATTERN, REQUEST_FILTER_MESSAGES.source).optional(),
  ),
  from: z.preprocess(blank, z.string({ error: REQUEST_FILTER_MESSAGES.from }).refine(isIsoDate, REQUEST_FILTER_MESSAGES.from).optional()),
  to: z.preprocess(blank, z.string({ error: REQUEST_FILTER_MESSAGES.to }).refine(isIsoDate, REQUEST_FILTER_MESSAGES.to).optional()),
  sort: z.preprocess(blank, z.enum(REQUEST_SORTS, { error: REQUEST_FILTER_MESSAGES.sort }).optional()),
};

/** from <= to, reported on `to` (superRefine of an object with `requestFilterFields`). */
export function checkDayRange(v: { from?: string; to?: string }, ctx: z.core.$RefinementCtx): void {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: REQUEST_FILTER_MESSAGES.range });
}

/**
 * The filters of the page's URL: each value kept only when the API would accept it (a stale
 * or hand-edited link shows the list instead of an error); a `to` before `from` is dropped.
 */
export function readRequestFilters(params: URLSearchParams): RequestFilters {
  const out: RequestFilters = {};
  const q = params.get('q')?.trim();
  if (q) out.q = q.slice(0, 200);
  for (const key of ['state', 'source', 'from', 'to', 'sort'] as const) {
    const parsed = requestFilterFields[key].safeParse(params.get(key) ?? undefined);
    if (parsed.success && parsed.data !== undefined) (out as Record<string, string>)[key] = parsed.data;
  }
  if (out.from && out.to && out.from > out.to) delete out.to;
  if (out.sort === DEFAULT_REQUEST_SORT) delete out.sort;
  return out;
}

/** The filters as a query string's entries (defaults and empty values left out). */
export function requestFilterParams(f: RequestFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.q?.trim()) out.q = f.q.trim();
  if (f.state) out.state = f.state;
  if (f.source) out.source = f.source;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  if (f.sort && f.sort !== DEFAULT_REQUEST_SORT) out.sort = f.sort;
  return out;
}

// ---- days in Italy ------------------------------------------------------------------------

export { romeDayEnd, romeDayStart } from './rome-time';

// ---- search --------------------------------------------------------------------------------

/**
 * The digits of a search that looks like a phone number (only digits, spaces, + ( ) . - /
 * and at least 4 digits), as they appear in the stored E.164 number: an international
 * prefix typed as 00 becomes nothing (+39 333... and 0039 333... both give 39333...).
 */
export function phoneDigitsOf(q: string): string | undefined {
  const t = q.trim();
  if (!/^[+\d\s().\-/]+$/.test(t)) return undefined;
  let digits = t.replace(/\D/g, '');
  if (t.startsWith('00')) digits = digits.slice(2);
  return digits.length >= 4 ? digits : undefined;
}

/**
 * The start of a request code (the property id the Istruttoria shows as "Codice richiesta"),
 * lower case: at least 4 characters of hex digits and dashes, at most a whole uuid.
 */
export function requestCodeOf(q: string): string | undefined {
  const t = q.trim().toLowerCase();
  return /^[0-9a-f-]{4,36}$/.test(t) && /[0-9a-f]{4}/.test(t) ? t : undefined;
}

/**
 * The search as an address may have been typed (stored as is, case and accents kept): the
 * words as typed, lower case, capitalised and upper case, without duplicates. Used to find
 * requests stored before their `searchText` covered the address (docs/requests.md).
 */
export function addressVariantsOf(q: string): string[] {
  const t = q.trim().replace(/\s+/g, ' ');
  if (!t) return [];
  const capitalised = t.toLowerCase().replace(/(^|[\s'’.-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
  return [...new Set([t, t.toLowerCase(), capitalised, t.toUpperCase()])];
}

// ---- next action ---------------------------------------------------------------------------

/** What the back office does next with a request in each state (its row says it). */
export const NEXT_ACTION_LABELS: Record<Lifecycle, string> = {
  nuova: "Valutare l'immobile",
  valutata: 'Inviare la stima',
  stima_inviata: "Creare l'opzione",
  opzione_creata: 'Attendere la firma del venditore',
  opzione_firmata: 'Pubblicare agli agenti',
};

/** Once the option is signed, what comes next follows its state (domain/option-lifecycle). */
export const OPTION_NEXT_ACTION_LABELS: Record<OptionState, string> = {
  created: 'Attendere la firma del venditore',
  sent: 'Attendere la firma del venditore',
  signed: 'Pubblicare agli agenti',
  published: "Attendere la richiesta di un agente",
  assigned: "Seguire le visite dell'agente",
  exercised: 'Nessuna: opzione esercitata',
  expired: 'Nessuna: opzione scaduta',
  cancelled: 'Nessuna: opzione annullata',
};

/** The next action of a request, from the lifecycle facts and the option state its PROPERTY item keeps. */
export function nextActionOf(facts: LifecycleFacts & { optionState?: OptionState | null }): string {
  const lifecycle = lifecycleOf(facts);
  if (facts.optionState && (lifecycle === 'opzione_creata' || lifecycle === 'opzione_firmata')) return OPTION_NEXT_ACTION_LABELS[facts.optionState];
  return NEXT_ACTION_LABELS[lifecycle];
}
