import { MAX_MEDIA, MAX_ROOMS, MAX_UPLOAD_BYTES } from '@domain/property/limits';
import { mediaKindOf, ONLY_MEDIA_MESSAGE, TOO_LARGE_MESSAGE, type MediaKind } from '@domain/property/media';
import { withRoomNames } from '@domain/property/rooms';
import { MESSAGES } from '@domain/property/schema';
import type { RoomType } from '@domain/property/enums';
import { isApiError } from '@/lib/api';
import { FILE_TYPE_MESSAGES } from '@domain/file-type';
import { EMPTY_FILE_MESSAGE, fileBytesRefusal } from '@/lib/upload';
import { newId, type StoredRoom } from './draft';
import { postToBucket, requestUploadForm, UPLOAD_FAILED_MESSAGE, type UploadForm, type UploadRequest } from './upload';

/**
 * Step 4's rooms and their photos and videos. An external store (useSyncExternalStore):
 * uploads outlive renders, the submission reads the keys synchronously, and progress
 * events re-render only what subscribes. An upload starts as soon as a file is chosen
 * (at most 3 at a time) once its first bytes proved it a photo or a video (a text renamed
 * .jpg, an SVG... is refused at once, never sent); a failed one keeps its File and can be
 * retried with a new form.
 */
export type MediaStatus = 'queued' | 'uploading' | 'done' | 'error';

export interface MediaItem {
  id: string;
  name: string;
  size: number;
  contentType: string;
  kind: MediaKind;
  status: MediaStatus;
  /** 0..1 */
  progress: number;
  key?: string;
  error?: string;
  /** object URL of an image chosen in this session (thumbnail) */
  previewUrl?: string;
  /** false for a media restored from the draft (its File is gone): it can only be removed */
  retryable: boolean;
}

export interface Room {
  id: string;
  type: RoomType;
  name: string;
  media: MediaItem[];
  /** files refused on the client at the last choice, with the reason */
  rejected: { name: string; message: string }[];
}

export interface RoomsSnapshot {
  rooms: Room[];
  /** media not yet uploaded (queued or uploading) */
  pending: number;
  failed: number;
  total: number;
}

export interface UploadDeps {
  requestForm: (input: UploadRequest, signal: AbortSignal) => Promise<UploadForm>;
  post: (form: UploadForm, file: Blob, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<void>;
}

const defaultDeps: UploadDeps = { requestForm: requestUploadForm, post: postToBucket };
const CONCURRENCY = 3;

/** Why a file cannot be uploaded, or undefined when it can (checked again by the server and the S3 policy). */
export function refusalOf(file: { name: string; type: string; size: number }): string | undefined {
  if (file.type.trim().toLowerCase() === 'image/svg+xml') return FILE_TYPE_MESSAGES.svg(file.name);
  if (!mediaKindOf(file.type)) return ONLY_MEDIA_MESSAGE;
  if (file.size > MAX_UPLOAD_BYTES) return TOO_LARGE_MESSAGE;
  if (file.size < 1) return EMPTY_FILE_MESSAGE;
  return undefined;
}

function summarize(rooms: Room[]): RoomsSnapshot {
  let pending = 0;
  let failed = 0;
  let total = 0;
  for (const r of rooms) {
    for (const m of r.media) {
      total += 1;
      if (m.status === 'queued' || m.status === 'uploading') pending += 1;
      if (m.status === 'error') failed += 1;
    }
  }
  return { rooms, pending, failed, total };
}

export class RoomsStore {
  private snapshot: RoomsSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly persistListeners = new Set<() => void>();
  private readonly files = new Map<string, File>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly queue: string[] = [];
  private active = 0;

  constructor(
    private draftId: string,
    stored: StoredRoom[] = [],
    private readonly deps: UploadDeps = defaultDeps,
  ) {
    this.snapshot = summarize(this.named(stored.map((r) => ({ id: r.id, type: r.type, name: '', rejected: [], media: r.media.map((m) => ({ ...m, status: 'done' as const, progress: 1, retryable: false })) }))));
  }

  // ---- store protocol ----------------------------------------------------------------------

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  /** Called on changes worth saving (rooms added or removed, uploads finished or removed), not on progress. */
  onPersistableChange(listener: () => void) {
    this.persistListeners.add(listener);
    return () => this.persistListeners.delete(listener);
  }

  private named(rooms: Room[]): Room[] {
    return withRoomNames(rooms.map(({ name: _name, ...r }) => r)).map((r) => r as Room);
  }

  private set(rooms: Room[], persist: boolean) {
    this.snapshot = summarize(rooms);
    for (const l of this.listeners) l();
    if (persist) for (const l of this.persistListeners) l();
  }

  private updateMedia(id: string, patch: Partial<MediaItem>, persist = false) {
    let changed = false;
    const rooms = this.snapshot.rooms.map((r) => {
      if (!r.media.some((m) => m.id === id)) return r;
      changed = true;
      return { ...r, media: r.media.map((m) => (m.id === id ? { ...m, ...patch } : m)) };
    });
    if (changed) this.set(rooms, persist);
  }

  // ---- rooms -------------------------------------------------------------------------------

  canAddRoom(): boolean {
    return this.snapshot.rooms.length < MAX_ROOMS;
  }

  addRoom(type: RoomType): Room | undefined {
    if (!this.canAddRoom()) return undefined;
    const rooms = this.named([...this.snapshot.rooms, { id: newId(), type, name: '', media: [], rejected: [] }]);
    this.set(rooms, true);
    return rooms.at(-1);
  }

  removeRoom(roomId: string) {
    const room = this.snapshot.rooms.find((r) => r.id === roomId);
    if (!room) return;
    for (const m of room.media) this.forget(m);
    this.set(
      this.named(this.snapshot.rooms.filter((r) => r.id !== roomId)),
      true,
    );
  }

  // ---- media -------------------------------------------------------------------------------

  /** Checks each file (its type, size and first bytes), starts the accepted ones; resolves to how many were accepted. */
  async addFiles(roomId: string, files: readonly File[]): Promise<number> {
    // the first bytes of every file that passes the quick checks, read in parallel
    const byBytes = await Promise.all(files.map((f) => (refusalOf(f) ? undefined : fileBytesRefusal(f).catch(() => undefined))));
    const room = this.snapshot.rooms.find((r) => r.id === roomId);
    if (!room) return 0;
    const rejected: Room['rejected'] = [];
    const added: MediaItem[] = [];
    let total = this.snapshot.total;
    for (const [i, file] of files.entries()) {
      const refusal = refusalOf(file) ?? byBytes[i] ?? (total >= MAX_MEDIA ? MESSAGES.tooManyMedia : undefined);
      if (refusal) {
        rejected.push({ name: file.name, message: refusal });
        continue;
      }
      total += 1;
      const id = newId();
      const kind = mediaKindOf(file.type)!;
      this.files.set(id, file);
      added.push({
        id,
        name: file.name,
        size: file.size,
        contentType: file.type,
        kind,
        status: 'queued',
        progress: 0,
        previewUrl: kind === 'image' ? URL.createObjectURL(file) : undefined,
        retryable: true,
      });
    }
    this.set(
      this.snapshot.rooms.map((r) => (r.id === roomId ? { ...r, media: [...r.media, ...added], rejected } : r)),
      false,
    );
    for (const m of added) this.enqueue(m.id);
    return added.length;
  }

  retry(mediaId: string) {
    if (!this.files.has(mediaId)) return;
    this.updateMedia(mediaId, { status: 'queued', progress: 0, error: undefined, key: undefined });
    this.enqueue(mediaId);
  }

  removeMedia(mediaId: string) {
    const item = this.snapshot.rooms.flatMap((r) => r.media).find((m) => m.id === mediaId);
    if (!item) return;
    this.forget(item);
    this.set(
      this.snapshot.rooms.map((r) => (r.media.some((m) => m.id === mediaId) ? { ...r, media: r.media.filter((m) => m.id !== mediaId) } : r)),
      true,
    );
  }

  /** The server says an uploaded key is not usable (e.g. the object is gone): show it on the file. */
  markFailed(key: string, message: string) {
    const item = this.snapshot.rooms.flatMap((r) => r.media).find((m) => m.key === key);
    if (item) this.updateMedia(item.id, { status: 'error', error: message, key: undefined }, true);
  }

  private forget(item: MediaItem) {
    this.controllers.get(item.id)?.abort();
    this.files.delete(item.id);
    const q = this.queue.indexOf(item.id);
    if (q >= 0) this.queue.splice(q, 1);
    if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
  }

  private enqueue(mediaId: string) {
    this.queue.push(mediaId);
    this.pump();
  }

  private pump() {
    while (this.active < CONCURRENCY && this.queue.length) {
      const id = this.queue.shift()!;
      this.active += 1;
      void this.upload(id).finally(() => {
        this.active -= 1;
        this.pump();
        this.set(this.snapshot.rooms, false);
      });
    }
  }

  private async upload(mediaId: string) {
    const file = this.files.get(mediaId);
    const room = this.snapshot.rooms.find((r) => r.media.some((m) => m.id === mediaId));
    if (!file || !room) return;
    const controller = new AbortController();
    this.controllers.set(mediaId, controller);
    this.updateMedia(mediaId, { status: 'uploading', progress: 0 });
    let shown = 0;
    try {
      const form = await this.deps.requestForm(
        { propertyDraftId: this.draftId, roomId: room.id, fileName: file.name, contentType: file.type, size: file.size },
        controller.signal,
      );
      await this.deps.post(
        form,
        file,
        (fraction) => {
          // one re-render per percent, not per progress event
          const pct = Math.floor(fraction * 100);
          if (pct > shown) {
            shown = pct;
            this.updateMedia(mediaId, { progress: fraction });
          }
        },
        controller.signal,
      );
      this.updateMedia(mediaId, { status: 'done', progress: 1, key: form.key }, true);
    } catch (err) {
      if (controller.signal.aborted) return;
      const message = isApiError(err) && err.status >= 400 && err.status < 500 ? err.message : UPLOAD_FAILED_MESSAGE;
      this.updateMedia(mediaId, { status: 'error', error: message });
    } finally {
      this.controllers.delete(mediaId);
    }
  }

  /** Resolves when no upload is queued or running. */
  whenSettled(): Promise<RoomsSnapshot> {
    if (this.snapshot.pending === 0) return Promise.resolve(this.snapshot);
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        if (this.snapshot.pending === 0) {
          off();
          resolve(this.snapshot);
        }
      });
    });
  }

  // ---- outputs -----------------------------------------------------------------------------

  /** What the draft keeps: rooms, and the media already uploaded. */
  stored(): StoredRoom[] {
    return this.snapshot.rooms.map((r) => ({
      id: r.id,
      type: r.type,
      media: r.media
        .filter((m) => m.status === 'done' && m.key)
        .map((m) => ({ id: m.id, key: m.key!, name: m.name, size: m.size, contentType: m.contentType, kind: m.kind })),
    }));
  }

  /** The submission's rooms (contract: id, type, media keys). */
  body(): { id: string; type: RoomType; media: { key: string }[] }[] {
    return this.stored().map((r) => ({ id: r.id, type: r.type, media: r.media.map((m) => ({ key: m.key })) }));
  }

  /** A new draft: everything aborted and released. */
  reset(draftId: string, stored: StoredRoom[] = []) {
    for (const r of this.snapshot.rooms) for (const m of r.media) this.forget(m);
    this.queue.length = 0;
    this.draftId = draftId;
    this.set(this.named(stored.map((r) => ({ id: r.id, type: r.type, name: '', rejected: [], media: r.media.map((m) => ({ ...m, status: 'done' as const, progress: 1, retryable: false })) }))), true);
  }

  dispose() {
    for (const c of this.controllers.values()) c.abort();
    for (const r of this.snapshot.rooms) for (const m of r.media) if (m.previewUrl) URL.revokeObjectURL(m.previewUrl);
  }
}
