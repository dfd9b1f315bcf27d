import { useId, useRef, useState, type ChangeEvent } from 'react';
import { CircleAlert, CircleCheck, Film, ImageIcon, ImagePlus, Plus, RotateCcw, Trash2, X } from 'lucide-react';
import { ROOM_TYPE_OPTIONS, type RoomType } from '@domain/property/enums';
import { MAX_MEDIA, MAX_ROOMS, MAX_UPLOAD_MB } from '@domain/property/limits';
import { formatDecimal } from '@domain/format';
import { Button, Field, Select, buttonClass } from '@/components/ui';
import { cn } from '@/lib/cn';
import type { MediaItem, Room, RoomsSnapshot, RoomsStore } from '../rooms-store';

export const ACCEPTED_MEDIA = 'image/*,video/*';

function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${formatDecimal(Math.round((bytes / (1024 * 1024)) * 10) / 10)} MB`;
  return `${formatDecimal(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

function MediaTile({ item, store }: { item: MediaItem; store: RoomsStore }) {
  const pct = Math.round(item.progress * 100);
  return (
    <li className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="wizard-media" data-status={item.status}>
      <div className="relative flex aspect-[4/3] items-center justify-center bg-slate-100">
        {item.previewUrl ? (
          <img src={item.previewUrl} alt="" className="size-full object-cover" />
        ) : item.kind === 'video' ? (
          <Film aria-hidden="true" className="size-10 text-slate-500" />
        ) : (
          <ImageIcon aria-hidden="true" className="size-10 text-slate-500" />
        )}
        {item.kind === 'video' && item.previewUrl === undefined && (
          <span className="absolute bottom-1 left-1 rounded bg-slate-900/75 px-1.5 py-0.5 text-xs font-medium text-white">Video</span>
        )}
        <button
          type="button"
          onClick={() => store.removeMedia(item.id)}
          aria-label={`Rimuovi ${item.name}`}
          data-testid="wizard-media-remove"
          className="absolute right-1 top-1 flex size-8 items-center justify-center rounded-full bg-white/95 text-slate-800 shadow hover:bg-red-50 hover:text-red-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
      <div className="space-y-1 p-2 text-xs">
        <p className="truncate font-medium text-slate-900" title={item.name}>
          {item.name}
        </p>
        <p className="text-slate-600">{fileSize(item.size)}</p>
        {(item.status === 'queued' || item.status === 'uploading') && (
          <div>
            <div
              role="progressbar"
              aria-label={`Caricamento di ${item.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
              className="h-1.5 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full rounded-full bg-brand-orange-dark transition-[width]" style={{ width: `${pct}%` }} />
            </div>
            <p className="mt-1 text-slate-600">{item.status === 'queued' ? 'In attesa...' : `Caricamento ${pct}%`}</p>
          </div>
        )}
        {item.status === 'done' && (
          <p className="flex items-center gap-1 font-medium text-green-800">
            <CircleCheck aria-hidden="true" className="size-3.5" /> Caricato
          </p>
        )}
        {item.status === 'error' && (
          <div className="space-y-1">
            <p className="flex items-start gap-1 font-medium text-red-700" data-testid="wizard-media-error">
              <CircleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" /> {item.error}
            </p>
            {item.retryable && (
              <Button variant="outline" size="sm" className="h-8 w-full" onClick={() => store.retry(item.id)} data-testid="wizard-media-retry">
                <RotateCcw aria-hidden="true" className="size-3.5" /> Riprova
              </Button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

function RoomCard({ room, store, onRemoved }: { room: Room; store: RoomsStore; onRemoved: () => void }) {
  const id = useId();
  const done = room.media.filter((m) => m.status === 'done').length;
  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    if (files.length) void store.addFiles(room.id, files);
  };
  return (
    <section aria-labelledby={`${id}-name`} className="rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="wizard-room" data-room-id={room.id}>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h4 id={`${id}-name`} tabIndex={-1} className="text-base font-bold text-brand-navy focus:outline-none" data-testid="wizard-room-name">
            {room.name}
          </h4>
          <p className="text-sm text-slate-600" aria-live="polite">
            {room.media.length === 0 ? 'Nessun file' : `${done} di ${room.media.length} file caricati`}
          </p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            store.removeRoom(room.id);
            onRemoved();
          }}
          aria-label={`Rimuovi ${room.name}`}
          data-testid="wizard-room-remove"
          className="text-red-800 hover:bg-red-50"
        >
          <Trash2 aria-hidden="true" className="size-4" /> Rimuovi
        </Button>
      </div>

      {room.media.length > 0 && (
        <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4" aria-label={`File di ${room.name}`}>
          {room.media.map((m) => (
            <MediaTile key={m.id} item={m} store={store} />
          ))}
        </ul>
      )}

      <div role="alert" className="empty:hidden">
        {room.rejected.length > 0 && (
          <ul className="mt-3 space-y-1 text-sm font-medium text-red-700" data-testid="wizard-media-rejected">
            {room.rejected.map((r, i) => (
              <li key={`${r.name}-${i}`}>
                {r.message.includes(`«${r.name}»`) ? r.message : `${r.name}: ${r.message}`}
              </li>
            ))}
          </ul>
        )}
      </div>

      <label
        className={cn(
          buttonClass('outline', 'md', 'mt-3 w-full cursor-pointer sm:w-auto'),
          'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-navy has-[:focus-visible]:ring-offset-2',
        )}
      >
        <ImagePlus aria-hidden="true" className="size-4" />
        Aggiungi foto o video
        <span className="sr-only"> a {room.name}</span>
        <input type="file" accept={ACCEPTED_MEDIA} multiple className="sr-only" onChange={onFiles} data-testid="wizard-room-files" />
      </label>
    </section>
  );
}

/** Step 4: rooms by type, each with its photos and videos, uploaded as soon as chosen. */
export function StepMedia({ store, snapshot }: { store: RoomsStore; snapshot: RoomsSnapshot }) {
  const id = useId();
  const [adding, setAdding] = useState(false);
  const [type, setType] = useState<RoomType>(ROOM_TYPE_OPTIONS[0]!.value);
  const addButton = useRef<HTMLButtonElement>(null);
  const typeSelect = useRef<HTMLSelectElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const { rooms } = snapshot;

  const focusLater = (fn: () => void) => requestAnimationFrame(() => requestAnimationFrame(fn));

  const add = () => {
    const room = store.addRoom(type);
    setAdding(false);
    if (room) focusLater(() => list.current?.querySelector<HTMLElement>(`[data-room-id="${room.id}"] h4`)?.focus());
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Aggiungi le stanze e per ciascuna carica foto o video: sono ammessi solo immagini e video, al massimo {MAX_UPLOAD_MB} MB
        per file. Il caricamento parte appena scegli un file.
      </p>

      <div ref={list} className="space-y-4" data-testid="wizard-rooms">
        {rooms.length === 0 && (
          <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">Nessuna stanza aggiunta.</p>
        )}
        {rooms.map((room) => (
          <RoomCard key={room.id} room={room} store={store} onRemoved={() => focusLater(() => addButton.current?.focus())} />
        ))}
      </div>

      {adding ? (
        <div role="group" aria-labelledby={`${id}-new`} className="rounded-xl border-2 border-brand-navy/30 bg-white p-4" data-testid="wizard-room-picker">
          <p id={`${id}-new`} className="mb-3 font-semibold text-brand-navy">
            Nuova stanza
          </p>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <Field label="Tipo di stanza" id={`${id}-type`} className="sm:flex-1">
              <Select ref={typeSelect} value={type} onChange={(e) => setType(e.target.value as RoomType)} data-testid="wizard-room-type">
                {ROOM_TYPE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="grid grid-cols-2 gap-2 sm:flex">
              <Button onClick={add} data-testid="wizard-room-add">
                Aggiungi
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  setAdding(false);
                  focusLater(() => addButton.current?.focus());
                }}
                data-testid="wizard-room-cancel"
              >
                Annulla
              </Button>
            </div>
          </div>
        </div>
      ) : (
        <Button
          ref={addButton}
          variant="outline"
          className="w-full sm:w-auto"
          disabled={!store.canAddRoom()}
          onClick={() => {
            setAdding(true);
            focusLater(() => typeSelect.current?.focus());
          }}
          data-testid="wizard-room-new"
        >
          <Plus aria-hidden="true" className="size-4" /> Aggiungi una stanza
        </Button>
      )}
      {(rooms.length >= MAX_ROOMS || snapshot.total >= MAX_MEDIA) && (
        <p className="text-sm text-slate-600">
          Hai raggiunto il massimo di {MAX_ROOMS} stanze o {MAX_MEDIA} file per una richiesta.
        </p>
      )}
    </div>
  );
}
