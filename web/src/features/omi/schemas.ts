import * as z from 'zod';
import { isSemester, SEMESTER_FORMAT_MESSAGE, semesterFromFileName } from '@domain/omi/semester';

export const MISSING_INPUT_MESSAGE = 'Seleziona un file e specifica il semestre';
export const CSV_ONLY_MESSAGE = 'Il file deve essere in formato CSV';
export { SEMESTER_FORMAT_MESSAGE, semesterFromFileName };

/** "2025-s1 " -> "2025-S1" (the server accepts the same). */
export function normalizeSemester(value: string): string {
  return value.trim().replace(/\s+/g, '').toUpperCase();
}

export function isCsvFileName(name: string): boolean {
  return /\.csv$/i.test(name.trim());
}

/** The import form: the semester is typed (or prefilled from the file name); the file is picked beside it. */
export const importFormSchema = z.object({
  semester: z
    .string()
    .transform(normalizeSemester)
    .refine((v) => v.length > 0, MISSING_INPUT_MESSAGE)
    .refine((v) => v.length === 0 || isSemester(v), SEMESTER_FORMAT_MESSAGE),
});
export type ImportFormInput = z.input<typeof importFormSchema>;
export type ImportFormValues = z.output<typeof importFormSchema>;
