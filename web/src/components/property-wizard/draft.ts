import { ROOM_TYPES, type RoomType } from '@domain/property/enums';
import { mediaKindOf, type MediaKind } from '@domain/property/media';
import { CONTACT_KEYS, EMPTY_CONTACT, type ContactKey } from '@domain/property/schema';
import { DEFAULT_VALUES, STEP_COUNT, type WizardValues } from './form';

/**
 * The wizard's draft in local storage: it survives a reload (or a closed tab) until the
 * submission succeeds. Media are kept by their S3 key once uploaded; the File objects
 * cannot be stored, so an upload still running at reload is dropped (the person picks
 * the file again).
 */
const DRAFT_STORAGE_KEY = 'opzione-casa:wizard-draft';
const VERSION = 1;

export interface StoredMedia {
  id: string;
  key: string;
  name: string;
  size: number;
  contentType: string;
  kind: MediaKind;
}

export interface StoredRoom {
  id: string;
  type: RoomType;
  media: StoredMedia[];
}

/** What was typed in the contact dialog (the contract's contact fields, as text). */
export type ContactDraft = Record<ContactKey, string>;

export interface WizardDraft {
  version: typeof VERSION;
  /** becomes the property id; the same on every retry, so nothing is stored twice */
  draftId: string;
  step: number;
  values: WizardValues;
  rooms: StoredRoom[];
  /** what was typed in the contact dialog (not the consent: that is given at each sending) */
  contact: ContactDraft;
  savedAt: string;
}

export { EMPTY_CONTACT };

/** A v4 uuid; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function newDraft(): WizardDraft {
  return { version: VERSION, draftId: newId(), step: 0, values: { ...DEFAULT_VALUES }, rooms: [], contact: { ...EMPTY_CONTACT }, savedAt: new Date().toISOString() };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps only known fields of the right type, so an old or edited draft never breaks the form. */
function sanitizeValues(raw: unknown): WizardValues {
  const out: WizardValues = { ...DEFAULT_VALUES, features: [] };
  if (!isObject(raw)) return out;
  for (const [key, fallback] of Object.entries(DEFAULT_VALUES) as [keyof WizardValues, unknown][]) {
    const v = raw[key];
    if (Array.isArray(fallback)) {
      if (Array.isArray(v)) (out as unknown as Record<string, unknown>)[key] = v.filter((x) => typeof x === 'string');
    } else if (typeof v === typeof fallback) {
      (out as unknown as Record<string, unknown>)[key] = v;
    }
  }
  return out;
}

function sanitizeRooms(raw: unknown): StoredRoom[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((r): StoredRoom[] => {
    if (!isObject(r) || typeof r.id !== 'string' || !UUID.test(r.id) || !(ROOM_TYPES as readonly unknown[]).includes(r.type)) return [];
    const media = Array.isArray(r.media)
      ? r.media.flatMap((m): StoredMedia[] => {
          if (!isObject(m) || typeof m.key !== 'string' || typeof m.id !== 'string' || typeof m.name !== 'string') return [];
          const contentType = typeof m.contentType === 'string' ? m.contentType : '';
          const kind = mediaKindOf(contentType);
          if (!kind) return [];
          return [{ id: m.id, key: m.key, name: m.name, size: Number(m.size) || 0, contentType, kind }];
        })
      : [];
    return [{ id: r.id, type: r.type as RoomType, media }];
  });
}

export function loadDraft(): WizardDraft | null {
  let text: string | null;
  try {
    text = localStorage.getItem(DRAFT_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as unknown;
    if (!isObject(raw) || raw.version !== VERSION || typeof raw.draftId !== 'string' || !UUID.test(raw.draftId)) return null;
    const contact = isObject(raw.contact) ? raw.contact : {};
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return {
      version: VERSION,
      draftId: raw.draftId,
      step: Math.min(Math.max(Number.isInteger(raw.step) ? (raw.step as number) : 0, 0), STEP_COUNT - 1),
      values: sanitizeValues(raw.values),
      rooms: sanitizeRooms(raw.rooms),
      contact: Object.fromEntries(CONTACT_KEYS.map((k) => [k, str(contact[k])])) as ContactDraft,
      savedAt: typeof raw.savedAt === 'string' ? raw.savedAt : new Date().toISOString(),
    };
  } catch {
    return null;
  }
}

export function saveDraft(draft: Omit<WizardDraft, 'version' | 'savedAt'>): void {
  try {
    localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ ...draft, version: VERSION, savedAt: new Date().toISOString() }));
  } catch {
    // storage full or unavailable: the wizard keeps working, only the reload safety is lost
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}
