/** zod schemas of the OMI routes, with the spec's Italian messages. */
import * as z from 'zod';
import { isSemester, SEMESTER_FORMAT_MESSAGE } from '../domain/omi/semester';
import { isStato, parseTipologia, type Stato } from '../domain/omi/tipologia';
import { OMI_MAX_BYTES, tooLargeMessage } from '../domain/uploads';

const MISSING = 'Seleziona un file e specifica il semestre';

const semester = z
  .string({ error: MISSING })
  .trim()
  .min(1, MISSING)
  .transform((v) => v.toUpperCase().replace(/^(\d{4})-s([12])$/i, '$1-S$2'))
  .refine(isSemester, SEMESTER_FORMAT_MESSAGE);

/** Keeps the base name; characters other than letters, digits, `.`, `_`, `-` become `_`. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-150);
}

export const uploadBody = z.object({
  fileName: z
    .string({ error: MISSING })
    .trim()
    .min(1, MISSING)
    .max(255, 'Nome del file troppo lungo')
    .refine((n) => /\.csv$/i.test(n), 'Il file deve essere in formato CSV')
    .transform(safeFileName),
  semester,
  size: z
    .number({ error: 'Dimensione del file non valida' })
    .int()
    .positive('Il file è vuoto')
    .max(OMI_MAX_BYTES, tooLargeMessage(OMI_MAX_BYTES))
    .optional(),
});

export const jobParams = z.object({
  jobId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'Operazione non trovata'),
});

export const clearBody = z.object({
  confirm: z.literal(true, { error: 'Conferma la cancellazione di tutti i dati OMI' }),
});

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const quotationsQuery = z.object({
  comune: z.preprocess(blankToUndefined, z.string().trim().max(100, 'Comune troppo lungo').optional()),
  provincia: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toUpperCase()
      .max(2, 'La provincia deve avere al massimo 2 caratteri')
      .regex(/^[A-Z]+$/, 'La provincia deve contenere solo lettere')
      .optional(),
  ),
  tipologia: z.preprocess(
    (v) => (typeof v === 'string' && /^(|tutte|tutti)$/i.test(v.trim()) ? undefined : v),
    z
      .string()
      .transform((v, ctx) => {
        const code = parseTipologia(v);
        if (code === undefined) {
          ctx.addIssue({ code: 'custom', message: 'Tipologia non valida' });
          return z.NEVER;
        }
        return code;
      })
      .optional(),
  ),
  stato: z.preprocess(
    (v) => (typeof v === 'string' && /^(|tutti|tutte)$/i.test(v.trim()) ? undefined : v),
    z
      .string()
      .trim()
      .toUpperCase()
      .refine(isStato, 'Stato non valido: scegli Ottimo, Normale o Scadente')
      .transform((v) => v as Stato)
      .optional(),
  ),
  semestre: z.preprocess(
    (v) => (typeof v === 'string' && /^(|tutti|tutte)$/i.test(v.trim()) ? undefined : v),
    z
      .string()
      .trim()
      .transform((v) => v.toUpperCase())
      .refine(isSemester, SEMESTER_FORMAT_MESSAGE)
      .optional(),
  ),
  /** one zone: its LinkZona (e.g. MI00003228) or its Zona code (e.g. B12, within the comune filter) */
  zona: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{1,20}$/, 'Zona non valida: indica il codice della zona (es. B12) o il LinkZona (es. MI00003228)')
      .optional(),
  ),
  page: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: 'Pagina non valida' }).int('Pagina non valida').min(1, 'Pagina non valida').max(100_000, 'Pagina non valida').default(1),
  ),
});
