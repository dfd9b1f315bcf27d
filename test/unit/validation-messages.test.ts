/**
 * Validation answers are Italian even where a schema has no message of its own: route() parses
 * with italianIssueMessage (functions/lib/validation-messages.ts), and validationError keeps
 * a schema's own message for the answer. Found by the security fuzzer: fields answered zod's
 * English defaults ("Invalid input: expected object, received array", "Too big: ...").
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { validationError } from '../../functions/lib/http';
import { GENERIC_ISSUE_MESSAGES, isGenericIssueMessage, italianIssueMessage } from '../../functions/lib/validation-messages';

const ENGLISH = /Invalid|Expected|expected|received|Too (big|small)|Unrecognized|Required/;

function answer(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value, { error: italianIssueMessage });
  expect(result.success).toBe(false);
  const err = validationError(result.error!);
  return { message: err.message, fields: (err.details?.fields ?? {}) as Record<string, string> };
}

describe('italianIssueMessage', () => {
  const schema = z.object({
    name: z.string().max(5),
    code: z.string().min(3),
    note: z.string().min(1),
    count: z.number().int().min(1).max(10),
    share: z.number().gt(0).lt(100),
    tags: z.array(z.string()).min(1).max(2),
    kind: z.enum(['a', 'b']),
    email: z.email(),
    flag: z.boolean(),
    day: z.iso.date(),
  });

  it('gives every issue of a schema without messages an Italian message, with the limit in it-IT', () => {
    const { fields } = answer(schema, {
      name: 'troppo lungo',
      code: 'x',
      note: '',
      count: 1.5,
      share: 0,
      tags: ['a', 'b', 'c'],
      kind: 'c',
      email: 'non una mail',
      flag: 'sì',
      day: '2024-02-30',
    });
    expect(fields).toEqual({
      name: 'Testo troppo lungo (massimo 5 caratteri)',
      code: 'Testo troppo corto (minimo 3 caratteri)',
      note: 'Campo obbligatorio',
      count: 'Deve essere un numero intero',
      share: 'Valore troppo basso (deve essere maggiore di 0)',
      tags: 'Troppi elementi (massimo 2)',
      kind: 'Valore non ammesso',
      email: 'Formato non valido',
      flag: 'Deve essere sì o no',
      day: 'Formato non valido',
    });
    for (const text of Object.values(fields)) expect(text).not.toMatch(ENGLISH);
    expect(answer(z.object({ n: z.number().max(1_000_000) }), { n: 2_000_000 }).fields.n).toBe('Valore troppo alto (massimo 1.000.000)');
  });

  it('says what is missing or of the wrong type', () => {
    expect(answer(schema, {}).fields.name).toBe('Campo obbligatorio');
    const wrong = answer(z.object({ s: z.string(), n: z.number(), a: z.array(z.number()), o: z.object({}) }), { s: 1, n: 'x', a: {}, o: [] }).fields;
    expect(wrong).toEqual({ s: 'Deve essere un testo', n: 'Deve essere un numero', a: 'Deve essere un elenco', o: 'Valore non valido' });
  });

  it("never replaces a schema's own message, on the type or on a check", () => {
    expect(answer(z.object({ a: z.string({ error: 'Nome mancante' }).max(2) }), { a: 'abc' }).fields.a).toBe('Nome mancante');
    expect(answer(z.object({ a: z.string().max(2, 'Nome troppo lungo') }), { a: 'abc' }).fields.a).toBe('Nome troppo lungo');
  });
});

describe('validationError', () => {
  it("answers the first schema's own message, else 'Dati non validi'", () => {
    const schema = z.object({ a: z.string().max(1), b: z.string({ error: 'Inserisci b' }) });
    expect(answer(schema, { a: 'xx' }).message).toBe('Inserisci b');
    expect(answer(z.object({ a: z.string() }), []).message).toBe('Dati non validi');
    expect(answer(z.object({ a: z.string() }), []).fields).toEqual({ _: 'Valore non valido' });
  });

  it('turns an English default left by a parse without the Italian map into an Italian one', () => {
    const result = z.object({ a: z.number() }).safeParse({ a: 'x' });
    const err = validationError(result.error!);
    expect(err.message).toBe('Dati non validi');
    expect(err.details).toEqual({ fields: { a: 'Valore non valido' } });
  });

  it('recognises its own generic messages only', () => {
    for (const m of GENERIC_ISSUE_MESSAGES) expect(isGenericIssueMessage(m)).toBe(true);
    expect(isGenericIssueMessage('Testo troppo lungo (massimo 5 caratteri)')).toBe(true);
    expect(isGenericIssueMessage('Inserisci un nome per la fonte')).toBe(false);
  });
});
