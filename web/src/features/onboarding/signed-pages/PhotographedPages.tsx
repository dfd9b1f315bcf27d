import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, Camera, ImagePlus, RotateCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { PHOTO_PAGES_MESSAGES, pagesCountMessage } from '@domain/onboarding/kyc';
import { MEGABYTE, tooLargeMessage } from '@domain/uploads';
import { Button, Dialog } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { CameraCapture } from '../identity/CameraCapture';
import { pagesToPdf, type PagePhoto, type QuarterTurns } from './pages-to-pdf';

/** Signed copies are at most 20 MB (the option's and the delegations' upload limit). */
const MAX_BYTES = 20 * MEGABYTE;

interface Page extends PagePhoto {
  url: string;
}

/**
 * "Fotografa le pagine firmate" and its dialog: the seller photographs each signed page with
 * the phone's camera (or picks photos), puts them in the document's order, turns a page
 * taken sideways, and gets ONE PDF (pages-to-pdf.ts) to upload as the signed copy ('fisica').
 * A page count other than the document's (`pages`, when known) is refused.
 */
export function PhotographedPages({
  pages,
  fileName,
  title,
  onReady,
  disabled,
  testId,
}: {
  /** pages of the document to sign; null: not known, any count goes */
  pages: number | null;
  fileName: string;
  /** the PDF's title (the document's name) */
  title: string;
  onReady: (file: File) => void;
  disabled?: boolean;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [camera, setCamera] = useState(false);
  const [photos, setPhotos] = useState<Page[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const urls = useRef(new Set<string>());

  // the previews' object URLs go with the component
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const add = (files: readonly File[]) => {
    const images = files.filter((f) => f.type === 'image/jpeg' || f.type === 'image/png');
    if (images.length < files.length) toast.error(PHOTO_PAGES_MESSAGES.failed, { description: PHOTO_PAGES_MESSAGES.notImage });
    const added = images.map((file) => {
      const url = URL.createObjectURL(file);
      urls.current.add(url);
      return { id: crypto.randomUUID(), file, turns: 0 as QuarterTurns, url };
    });
    setPhotos((p) => [...p, ...added]);
    setError(null);
  };
  const remove = (id: string) =>
    setPhotos((p) => {
      const gone = p.find((x) => x.id === id);
      if (gone) {
        URL.revokeObjectURL(gone.url);
        urls.current.delete(gone.url);
      }
      return p.filter((x) => x.id !== id);
    });
  const move = (index: number, by: -1 | 1) =>
    setPhotos((p) => {
      const next = [...p];
      const [page] = next.splice(index, 1);
      next.splice(index + by, 0, page!);
      return next;
    });
  const turn = (id: string) => setPhotos((p) => p.map((x) => (x.id === id ? { ...x, turns: ((x.turns + 1) % 4) as QuarterTurns } : x)));

  const close = () => {
    setOpen(false);
    setCamera(false);
    setError(null);
  };

  const create = async () => {
    if (photos.length === 0) return setError(PHOTO_PAGES_MESSAGES.none);
    if (pages !== null && photos.length !== pages) return setError(pagesCountMessage(pages, photos.length));
    setBusy(true);
    try {
      const bytes = await pagesToPdf(photos, title);
      if (bytes.length > MAX_BYTES) return setError(tooLargeMessage(MAX_BYTES));
      onReady(new File([bytes as BlobPart], fileName, { type: 'application/pdf' }));
      urls.current.forEach((u) => URL.revokeObjectURL(u));
      urls.current.clear();
      setPhotos([]);
      close();
    } catch (err) {
      toast.error(PHOTO_PAGES_MESSAGES.failed, { description: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const count = `Pagine aggiunte: ${photos.length}${pages !== null ? ` su ${pages}` : ''}`;

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} disabled={disabled} data-testid={testId}>
        <Camera aria-hidden="true" className="size-4" />
        {PHOTO_PAGES_MESSAGES.open}
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={PHOTO_PAGES_MESSAGES.open}
        description={`${PHOTO_PAGES_MESSAGES.hint}${pages !== null ? ` Il documento ha ${pages === 1 ? '1 pagina' : `${pages} pagine`}.` : ''}`}
        footer={
          <>
            <Button variant="outline" onClick={close} disabled={busy}>
              Annulla
            </Button>
            <Button onClick={() => void create()} loading={busy} disabled={photos.length === 0} data-testid={`${testId}-create`}>
              Crea PDF
            </Button>
          </>
        }
      >
        <div className="space-y-4" data-testid={`${testId}-dialog`}>
          {camera ? (
            <CameraCapture
              label={`Fotocamera: pagina ${photos.length + 1}`}
              facingMode="environment"
              onCapture={(file) => add([file])}
              onClose={() => setCamera(false)}
              closeLabel="Chiudi fotocamera"
              testId={`${testId}-camera`}
            />
          ) : (
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button variant="outline" onClick={() => setCamera(true)} data-testid={`${testId}-camera-open`}>
                <Camera aria-hidden="true" className="size-4" />
                Scatta foto
              </Button>
              <label className="inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
                <ImagePlus aria-hidden="true" className="size-4" />
                Scegli foto
                <input
                  type="file"
                  accept="image/jpeg,image/png"
                  multiple
                  className="sr-only"
                  onChange={(e) => {
                    add([...(e.target.files ?? [])]);
                    e.target.value = '';
                  }}
                  data-testid={`${testId}-pick`}
                />
              </label>
            </div>
          )}

          <p className="text-sm font-medium text-slate-800" aria-live="polite" data-testid={`${testId}-count`}>
            {count}
          </p>
          {error && (
            <p role="alert" className="text-sm font-medium text-red-700" data-testid={`${testId}-error`}>
              {error}
            </p>
          )}
          {photos.length > 0 && (
            <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Pagine fotografate">
              {photos.map((p, i) => (
                <li key={p.id} className="space-y-1 rounded-lg border border-slate-200 p-2" data-testid={`${testId}-page`}>
                  <div className="flex aspect-[3/4] items-center justify-center overflow-hidden bg-slate-100">
                    <img src={p.url} alt={`Pagina ${i + 1}`} className="max-h-full max-w-full object-contain transition-transform" style={{ transform: `rotate(${p.turns * 90}deg)` }} />
                  </div>
                  <p className="text-center text-xs font-semibold text-slate-700">Pagina {i + 1}</p>
                  <div className="flex justify-center gap-1">
                    <IconButton label={`Sposta su la pagina ${i + 1}`} disabled={i === 0} onClick={() => move(i, -1)}>
                      <ArrowUp aria-hidden="true" className="size-4" />
                    </IconButton>
                    <IconButton label={`Sposta giù la pagina ${i + 1}`} disabled={i === photos.length - 1} onClick={() => move(i, 1)}>
                      <ArrowDown aria-hidden="true" className="size-4" />
                    </IconButton>
                    <IconButton label={`Ruota la pagina ${i + 1}`} onClick={() => turn(p.id)}>
                      <RotateCw aria-hidden="true" className="size-4" />
                    </IconButton>
                    <IconButton label={`Elimina la pagina ${i + 1}`} onClick={() => remove(p.id)}>
                      <Trash2 aria-hidden="true" className="size-4" />
                    </IconButton>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </div>
      </Dialog>
    </>
  );
}

function IconButton({ label, onClick, disabled, children }: { label: string; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy disabled:opacity-40"
    >
      {children}
    </button>
  );
}
