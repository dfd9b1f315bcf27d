import { useEffect, useRef, useState } from 'react';
import { Camera, X } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui';

export const cameraErrorMessage = (reason: string) => `Impossibile accedere alla fotocamera: ${reason}. Verifica i permessi.`;

/** The spec's {reason}, in Italian: the browser's own message is English (and differs by browser). */
export function cameraErrorReason(err: unknown): string {
  switch ((err as { name?: string } | null)?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'permesso negato';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'nessuna fotocamera trovata';
    case 'NotReadableError':
    case 'AbortError':
      return "fotocamera già in uso da un'altra applicazione";
    default:
      return 'fotocamera non disponibile';
  }
}

/** User-facing camera (ideal 640x480, no audio); 'Scatta foto' captures a JPEG on a canvas. */
export function CameraCapture({
  label,
  facingMode = 'user',
  onCapture,
  onClose,
  closeLabel = 'Annulla',
  testId,
}: {
  label: string;
  /** the button that closes the camera */
  closeLabel?: string;
  facingMode?: 'user' | 'environment';
  onCapture: (file: File) => void;
  onClose: () => void;
  testId: string;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('fotocamera non disponibile in questo browser');
        const stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode, width: { ideal: 640 }, height: { ideal: 480 } },
          audio: false,
        });
        if (cancelled) {
          stream.getTracks().forEach((t) => t.stop());
          return;
        }
        streamRef.current = stream;
        const video = videoRef.current;
        if (video) {
          video.srcObject = stream;
          await video.play().catch(() => undefined);
        }
        setReady(true);
      } catch (err) {
        if (cancelled) return;
        toast.error('Errore', { description: cameraErrorMessage(cameraErrorReason(err)) });
        onClose();
      }
    })();
    return () => {
      cancelled = true;
      streamRef.current?.getTracks().forEach((t) => t.stop());
      streamRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened once per mount
  }, []);

  const capture = () => {
    const video = videoRef.current;
    if (!video || !video.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        onCapture(new File([blob], `${testId}-${Date.now()}.jpg`, { type: 'image/jpeg' }));
      },
      'image/jpeg',
      0.92,
    );
  };

  return (
    <div className="space-y-2" data-testid={testId}>
      <video
        ref={videoRef}
        className="aspect-[4/3] w-full rounded-lg bg-slate-900 object-cover"
        playsInline
        muted
        aria-label={label}
        onLoadedData={() => setReady(true)}
      />
      <div className="flex flex-wrap gap-2">
        <Button onClick={capture} disabled={!ready} data-testid={`${testId}-shoot`}>
          <Camera aria-hidden="true" className="size-4" />
          Scatta foto
        </Button>
        <Button variant="outline" onClick={onClose}>
          <X aria-hidden="true" className="size-4" />
          {closeLabel}
        </Button>
      </div>
    </div>
  );
}
