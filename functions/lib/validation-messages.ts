/**
 * zod's own messages are English ("Invalid input: expected string, received number", "Too
 * big: ..."). The schemas carry Italian messages, but not on every check: route() parses with
 * `italianIssueMessage` as the per-parse error map (functions/lib/http.ts), so a check without
 * its own message still answers in Italian. A schema's message always wins over these.
 */
import type * as z from 'zod';

const number = (n: unknown) => (typeof n === 'number' || typeof n === 'bigint' ? new Intl.NumberFormat('it-IT').format(n) : String(n));

/** The generic messages below, without their "(massimo ...)" part: validationError prefers a schema's own message for the answer. */
export const GENERIC_ISSUE_MESSAGES = [
  'Campo obbligatorio',
  'Valore non valido',
  'Deve essere un testo',
  'Deve essere un numero',
  'Deve essere un numero intero',
  'Deve essere sì o no',
  'Deve essere un elenco',
  'Testo troppo lungo',
  'Testo troppo corto',
  'Valore troppo alto',
  'Valore troppo basso',
  'Troppi elementi',
  'Troppo pochi elementi',
  'Formato non valido',
  'Valore non ammesso',
  'Campi non previsti',
] as const;

export function isGenericIssueMessage(message: string): boolean {
  return GENERIC_ISSUE_MESSAGES.some((m) => message === m || message.startsWith(`${m} (`));
}

type RawIssue = Parameters<z.core.$ZodErrorMap>[0] & Record<string, unknown>;

export function italianIssueMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'Campo obbligatorio';
      const expected = String(issue.expected);
      if (expected === 'string') return 'Deve essere un testo';
      if (expected === 'number' || expected === 'bigint') return 'Deve essere un numero';
      if (expected === 'int') return 'Deve essere un numero intero';
      if (expected === 'boolean') return 'Deve essere sì o no';
      if (expected === 'array' || expected === 'tuple' || expected === 'set') return 'Deve essere un elenco';
      return 'Valore non valido';
    }
    case 'too_big': {
      const origin = String(issue.origin);
      if (origin === 'string') return `Testo troppo lungo (massimo ${number(issue.maximum)} caratteri)`;
      if (origin === 'array' || origin === 'set') return `Troppi elementi (massimo ${number(issue.maximum)})`;
      return issue.inclusive === false ? `Valore troppo alto (deve essere minore di ${number(issue.maximum)})` : `Valore troppo alto (massimo ${number(issue.maximum)})`;
    }
    case 'too_small': {
      const origin = String(issue.origin);
      if (origin === 'string') return Number(issue.minimum) <= 1 ? 'Campo obbligatorio' : `Testo troppo corto (minimo ${number(issue.minimum)} caratteri)`;
      if (origin === 'array' || origin === 'set') return `Troppo pochi elementi (minimo ${number(issue.minimum)})`;
      return issue.inclusive === false ? `Valore troppo basso (deve essere maggiore di ${number(issue.minimum)})` : `Valore troppo basso (minimo ${number(issue.minimum)})`;
    }
    case 'invalid_format':
      return 'Formato non valido';
    case 'invalid_value':
      return 'Valore non ammesso';
    case 'unrecognized_keys':
      return 'Campi non previsti';
    default:
      return 'Valore non valido';
  }
}
