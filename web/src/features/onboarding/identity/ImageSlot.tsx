import { useEffect, useId, useMemo, useState } from 'react';
import { Camera, Upload } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui';
import { CameraCapture } from './CameraCapture';

/** JPEG and PNG go as they are; any other image is redrawn as a JPEG (the server takes JPEG or PNG). */
export async function toJpegOrPng(file: File): Promise<File> {
  if (file.type === 'image/jpeg' || file.type === 'image/png') return file;
  const bitmap = await createImageBitmap(file);
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  if (!blob) throw new Error('Immagine non leggibile');
  return new File([blob], file.name.replace(/\.[^.]+$/, '') + '.jpg', { type: 'image/jpeg' });
}

/** One image of the identity check: file upload or camera capture, with a preview. */
export function ImageSlot({
  label,
  file,
  onChange,
  facingMode,
  testId,
  progress,
}: {
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  facingMode: 'user' | 'environment';
  testId: string;
  /** 0-100 while uploading */
  progress?: number;
}) {
  const inputId = useId();
  const [camera, setCamera] = useState(false);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const pick = async (picked: File | undefined) => {
    if (!picked) return;
    if (!picked.type.startsWith('image/')) {
      toast.error('Errore nel caricamento del documento', { description: 'Carica un file immagine.' });
      return;
    }
    try {
      onChange(await toJpegOrPng(picked));
    } catch {
      toast.error('Errore nel caricamento del documento', { description: 'Immagine non leggibile: carica una foto JPEG o PNG' });
    }
  };

  return (
    <fieldset className="space-y-2 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">{label}</legend>
      {camera ? (
        <CameraCapture
          label={label}
          facingMode={facingMode}
          testId={`${testId}-camera`}
          onClose={() => setCamera(false)}
          onCapture={(f) => {
            onChange(f);
            setCamera(false);
          }}
        />
      ) : (
        <>
          {preview && <img src={preview} alt={`Anteprima: ${label}`} className="max-h-48 w-full rounded-md object-contain" data-testid={`${testId}-preview`} />}
          <div className="flex flex-wrap gap-2">
            <label htmlFor={inputId} className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
              <Upload aria-hidden="true" className="size-4" />
              {file ? 'Cambia file' : 'Carica file'}
              <input
                id={inputId}
                type="file"
                accept="image/*"
                className="sr-only"
                data-testid={`${testId}-file`}
                onChange={(e) => {
                  void pick(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </label>
            <Button variant="outline" onClick={() => setCamera(true)} data-testid={`${testId}-camera-open`}>
              <Camera aria-hidden="true" className="size-4" />
              {file ? 'Scatta di nuovo' : 'Usa la fotocamera'}
            </Button>
          </div>
          {progress !== undefined && (
            <progress className="w-full" max={100} value={progress} aria-label={`Caricamento: ${label}`}>
              {progress}%
            </progress>
          )}
        </>
      )}
    </fieldset>
  );
}
