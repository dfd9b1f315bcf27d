/**
 * Lead sources (Gestione Fonti, /sources): the shapes of the /sources routes and the rules
 * shared by the handlers and the admin page. A source link is the site origin plus
 * `?id={sourceId}`: the home page keeps that id and the submission stores it on the property.
 */
import * as z from 'zod';

/** The `?id=` a submission accepts (functions/domain/property/schema.ts); every source id matches it. */
export const SOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const SOURCE_NAME_MAX = 100;
export const SOURCE_MESSAGES = {
  nameRequired: 'Inserisci un nome per la fonte',
  nameTooLong: `Il nome della fonte può avere al massimo ${SOURCE_NAME_MAX} caratteri`,
  notFound: 'Fonte non trovata',
} as const;

/** The name of a new source: trimmed, not blank, at most SOURCE_NAME_MAX characters. */
export const sourceName = z
  .string({ error: SOURCE_MESSAGES.nameRequired })
  .trim()
  .min(1, SOURCE_MESSAGES.nameRequired)
  .max(SOURCE_NAME_MAX, SOURCE_MESSAGES.nameTooLong);

export const createSourceInput = z.object({ name: sourceName });
export type CreateSourceInput = z.infer<typeof createSourceInput>;

export interface Source {
  id: string;
  name: string;
  /** the admin who created it */
  userId: string;
  /** ISO date-time */
  createdAt: string;
}

/** A source in the list, with how many requests (properties) came through its link. */
export interface SourceListItem extends Source {
  requests: number;
}

/** GET /sources: every source, newest first. */
export interface SourceList {
  items: SourceListItem[];
}

/** The link to hand out for a source. */
export function sourceLink(origin: string, sourceId: string): string {
  return `${origin.replace(/\/+$/, '')}/?id=${encodeURIComponent(sourceId)}`;
}
