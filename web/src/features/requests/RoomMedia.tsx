import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ImageOff, Trash2, Upload } from 'lucide-react';
import { mediaKindOf, ONLY_MEDIA_MESSAGE, TOO_LARGE_MESSAGE } from '@domain/property/media';
import { ROOM_TYPE_LABELS } from '@domain/property/enums';
import type { DossierRoom } from '@domain/requests';
import { MEDIA_MAX_BYTES } from '@domain/uploads';
import { Button, Dialog } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { requireFileBytes, uploadFile } from '@/lib/upload';
import { addRequestMedia, createRequestUpload, deleteRequestMedia, requestKeys, type DossierMedia } from './api';

interface UploadState {
  id: string;
  name: string;
  loaded: number;
  total: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
}

/** Sends one file: its first bytes checked, presigned POST, upload with progress, then registration in the room. */
async function sendFile(propertyId: string, roomId: string, file: File, onProgress: (loaded: number, total: number) => void): Promise<DossierMedia> {
  const contentType = (file.type || '').toLowerCase();
  if (!mediaKindOf(contentType)) throw new Error(ONLY_MEDIA_MESSAGE);
  if (file.size > MEDIA_MAX_BYTES) throw new Error(TOO_LARGE_MESSAGE);
  await requireFileBytes(file, contentType);
  const target = await createRequestUpload(propertyId, { roomId, fileName: file.name, contentType, size: file.size });
  await uploadFile(target, file, { onProgress });
  return addRequestMedia(propertyId, { roomId, key: target.key });
}

/** A room's photos and videos: thumbnails, upload of several files at once (a progress bar each), delete after confirming. */
export function RoomMedia({ propertyId, room }: { propertyId: string; room: DossierRoom }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const [target, setTarget] = useState<DossierMedia | null>(null);
  const busy = uploads.some((u) => u.status === 'uploading');
  const title = room.name || ROOM_TYPE_LABELS[room.type] || 'Stanza';

  const refresh = () => queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });

  const upload = async (files: File[]) => {
    if (!files.length) return;
    const batch = files.map((f, i) => ({ id: `${Date.now()}-${i}-${f.name}`, name: f.name, loaded: 0, total: f.size, status: 'uploading' as const }));
    setUploads(batch);
    const update = (id: string, patch: Partial<UploadState>) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...patch } : u)));
    const results = await Promise.allSettled(
      files.map((file, i) =>
        sendFile(propertyId, room.id, file, (loaded, total) => update(batch[i]!.id, { loaded, total })).then(
          (m) => {
            update(batch[i]!.id, { status: 'done', loaded: file.size });
            return m;
          },
          (err: unknown) => {
            update(batch[i]!.id, { status: 'error', error: errorMessage(err) });
            throw err;
          },
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    results.forEach((r, i) => {
      if (r.status === 'rejected') toast.error('Impossibile caricare la foto', { description: `${files[i]!.name}: ${errorMessage(r.reason)}` });
    });
    if (ok) toast.success('Foto caricata con successo', { description: ok === 1 ? `1 file in ${title}` : `${ok} file in ${title}` });
    await refresh();
    // keep only the failures in view
    setUploads((list) => list.filter((u) => u.status === 'error'));
  };

  const remove = useMutation({
    mutationFn: (m: DossierMedia) => deleteRequestMedia(propertyId, room.id, m.id),
    onSuccess: () => {
      setTarget(null);
      toast.success('Foto eliminata con successo');
    },
    onError: (err) => {
      setTarget(null);
      toast.error('Impossibile eliminare la foto', { description: errorMessage(err) });
    },
    onSettled: refresh,
  });

  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-xl border border-slate-200 p-4" data-testid="room-media" data-room-id={room.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={`${inputId}-title`} className="font-semibold text-slate-900">
          {title} <span className="font-normal text-slate-600">({room.media.length === 1 ? '1 file' : `${room.media.length} file`})</span>
        </h4>
        <div>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            accept="image/*,video/*"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="room-media-input"
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = '';
              void upload(files);
            }}
          />
          <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()} loading={busy} data-testid="room-media-upload">
            {!busy && <Upload aria-hidden="true" className="size-4" />}
            Carica foto o video<span className="sr-only"> in {title}</span>
          </Button>
        </div>
      </div>

      {uploads.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label={`Caricamenti in ${title}`}>
          {uploads.map((u) => {
            const pct = u.total > 0 ? Math.round((u.loaded / u.total) * 100) : 0;
            return (
              <li key={u.id} className="text-sm" data-testid="upload-progress">
                <div className="flex justify-between gap-2">
                  <span className="truncate text-slate-800">{u.name}</span>
                  <span className={u.status === 'error' ? 'text-red-700' : 'text-slate-600'}>
                    {u.status === 'error' ? u.error : u.status === 'done' ? 'Caricato' : `${pct}%`}
                  </span>
                </div>
                <div
                  role="progressbar"
                  aria-label={`Caricamento di ${u.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={u.status === 'done' ? 100 : pct}
                  className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
                >
                  <div
                    className={`h-full rounded-full transition-[width] ${u.status === 'error' ? 'bg-red-600' : 'bg-brand-orange-dark'}`}
                    style={{ width: `${u.status === 'done' ? 100 : pct}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}

      {room.media.length === 0 ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-slate-600">
          <ImageOff aria-hidden="true" className="size-4" />
          Nessuna foto o video in questa stanza
        </p>
      ) : (
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={`Foto e video di ${title}`}>
          {room.media.map((m) => (
            <li key={m.id} className="group relative overflow-hidden rounded-lg border border-slate-200 bg-slate-50" data-testid="media-item" data-media-id={m.id}>
              {m.kind === 'video' ? (
                <video src={m.url} controls preload="metadata" className="aspect-[4/3] w-full bg-black object-contain" aria-label={`Video ${m.fileName}`} />
              ) : (
                <a href={m.url} target="_blank" rel="noreferrer" className="block focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:ring-inset">
                  <img src={m.url} alt={`${title}: ${m.fileName}`} loading="lazy" className="aspect-[4/3] w-full object-cover" />
                  <span className="sr-only"> (apri in una nuova scheda)</span>
                </a>
              )}
              <div className="flex items-center justify-between gap-1 p-1.5">
                <span className="truncate text-xs text-slate-700" title={m.fileName}>
                  {m.fileName}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-8 shrink-0 px-2 text-red-700"
                  onClick={() => setTarget(m)}
                  aria-label={`Elimina ${m.fileName}`}
                  data-testid="media-delete"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={target !== null}
        onClose={() => {
          if (!remove.isPending) setTarget(null);
        }}
        title="Eliminare la foto?"
        description="Il file verrà eliminato definitivamente."
        footer={
          <>
            <Button variant="outline" onClick={() => setTarget(null)} disabled={remove.isPending}>
              Annulla
            </Button>
            <Button variant="danger" onClick={() => target && remove.mutate(target)} loading={remove.isPending} data-testid="media-delete-confirm">
              <Trash2 aria-hidden="true" className="size-4" />
              Elimina
            </Button>
          </>
        }
      >
        <p className="text-sm break-words text-slate-700">
          File: <strong>{target?.fileName}</strong>
        </p>
      </Dialog>
    </section>
  );
}
