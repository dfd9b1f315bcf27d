/** zod schemas of the /admin/properties routes, with Italian messages. */
import * as z from 'zod';
import { uploadRequestSchema } from '../domain/property/upload';
import { REQUEST_MESSAGES, REQUESTS_PAGE_MAX, REQUESTS_PAGE_SIZE } from '../domain/requests';
import { checkDayRange, requestFilterFields } from '../domain/request-list';

/** The path parameter; a malformed id is answered like a missing property (404) by the use case. */
export const requestParams = z.object({ propertyId: z.string({ error: REQUEST_MESSAGES.notFound }) });

export const mediaParams = z.object({
  propertyId: z.string({ error: REQUEST_MESSAGES.notFound }),
  roomId: z.string({ error: REQUEST_MESSAGES.roomNotFound }),
  mediaId: z.string({ error: REQUEST_MESSAGES.mediaNotFound }),
});

/** GET /admin/properties?q=&state=&source=&from=&to=&sort=&cursor=&limit= (filters: domain/request-list.ts) */
export const listQuery = z
  .object({
    q: z.string().max(200, REQUEST_MESSAGES.searchTooLong).optional(),
    ...requestFilterFields,
    cursor: z.string().max(1000, REQUEST_MESSAGES.cursor).optional(),
    limit: z.preprocess(
      (v) => (v === undefined || v === '' ? REQUESTS_PAGE_SIZE : typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : Number.NaN),
      z.number({ error: REQUEST_MESSAGES.limit }).int(REQUEST_MESSAGES.limit).min(1, REQUEST_MESSAGES.limit).max(REQUESTS_PAGE_MAX, REQUEST_MESSAGES.limit),
    ),
  })
  .superRefine(checkDayRange);

/** DELETE body: the word typed by the admin (checked by the use case, case-insensitively). */
export const deleteBody = z.object({ confirm: z.string({ error: REQUEST_MESSAGES.confirmDelete }) }, { error: REQUEST_MESSAGES.confirmDelete });

/** PUT assignee body: '' or missing is 'Seleziona un utente da assegnare'. */
export const assignBody = z.object(
  { userId: z.string({ error: REQUEST_MESSAGES.userRequired }).trim().min(1, REQUEST_MESSAGES.userRequired).max(128, REQUEST_MESSAGES.userNotFound) },
  { error: REQUEST_MESSAGES.userRequired },
);

/** POST .../uploads: the wizard's upload rules (images and videos, 1 byte..20 MB, a file name) for a room. */
export const mediaUploadBody = uploadRequestSchema.omit({ propertyDraftId: true });

/** POST .../media: the uploaded object to add to a room. */
export const addMediaBody = z.object({
  roomId: z.string({ error: REQUEST_MESSAGES.roomNotFound }).min(1, REQUEST_MESSAGES.roomNotFound).max(100, REQUEST_MESSAGES.roomNotFound),
  key: z.string({ error: REQUEST_MESSAGES.mediaKey }).min(1, REQUEST_MESSAGES.mediaKey).max(300, REQUEST_MESSAGES.mediaKey),
});
