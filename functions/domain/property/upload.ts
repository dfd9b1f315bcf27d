import * as z from 'zod';
import { MAX_UPLOAD_BYTES } from './limits';
import { EMPTY_FILE_MESSAGE, mediaKindOf, ONLY_MEDIA_MESSAGE, TOO_LARGE_MESSAGE } from './media';

/** POST /uploads: the file the wizard wants to upload (checked again by the S3 policy). */
export const uploadRequestSchema = z.object({
  propertyDraftId: z.uuid({ error: 'Identificativo della richiesta non valido: ricarica la pagina' }),
  roomId: z.uuid({ error: 'Identificativo della stanza non valido' }),
  fileName: z.string({ error: 'Nome del file mancante' }).trim().min(1, 'Nome del file mancante').max(255, 'Nome del file troppo lungo'),
  contentType: z
    .string({ error: ONLY_MEDIA_MESSAGE })
    .trim()
    .toLowerCase()
    .refine((ct) => mediaKindOf(ct) !== undefined, ONLY_MEDIA_MESSAGE),
  size: z
    .number({ error: 'Dimensione del file mancante' })
    .int('Dimensione del file non valida')
    .min(1, EMPTY_FILE_MESSAGE)
    .max(MAX_UPLOAD_BYTES, TOO_LARGE_MESSAGE),
});

export type UploadRequest = z.output<typeof uploadRequestSchema>;

/** POST /uploads answer: a presigned POST for exactly that key, type and size range. */
export interface UploadForm {
  key: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
  maxBytes: number;
}
