import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, IDENTITY_MESSAGES, LOW_CONFIDENCE, type DocumentType } from '@domain/identity';
import { formatDecimal } from '@domain/format';
import { Button, Dialog, Field, Input, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { uploadIdentityFile, verifyIdentity, type IdentityTarget } from '../api';
import { ImageSlot } from './ImageSlot';

export const IDENTITY_TEXTS = {
  missing: [IDENTITY_MESSAGES.missingData, IDENTITY_MESSAGES.missingDataHint] as const,
  photoError: 'Errore nel salvataggio della foto',
  documentError: 'Errore nel caricamento del documento',
  verifyError: 'Errore durante la verifica. Riprova.',
  notValid: 'Verifica non riuscita',
  notValidFallback: 'La foto del volto non corrisponde al documento o i dati non sono validi.',
  success: 'Verifica completata con successo!',
} as const;

type Slot = 'face' | 'documentFront' | 'documentBack';

/**
 * Step 1: face photo, then the document (type, front, back, number), then confirm. `target`
 * is the owner's property or a co-owner's link token (their own check).
 */
export function IdentityDialog({ open, onClose, target, onVerified }: { open: boolean; onClose: () => void; target: IdentityTarget; onVerified: () => void }) {
  const [face, setFace] = useState<File | null>(null);
  const [front, setFront] = useState<File | null>(null);
  const [back, setBack] = useState<File | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType>('carta_identita');
  const [documentNumber, setDocumentNumber] = useState('');
  const [fullName, setFullName] = useState('');
  const [numberError, setNumberError] = useState<string>();
  const [progress, setProgress] = useState<Partial<Record<Slot, number>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  // a refusal is read where it appears: next to the form, brought into view and focused
  useEffect(() => {
    if (!failure) return;
    failureRef.current?.scrollIntoView({ block: 'nearest' });
    failureRef.current?.focus({ preventScroll: true });
  }, [failure]);

  const ready = Boolean(face && front && back && documentNumber.trim());

  const submit = async () => {
    setFailure(null);
    if (!documentNumber.trim()) setNumberError(IDENTITY_MESSAGES.documentNumberRequired);
    if (!face || !front || !back || !documentNumber.trim()) {
      toast.error(IDENTITY_TEXTS.missing[0], { description: IDENTITY_TEXTS.missing[1] });
      return;
    }
    setBusy(true);
    const onProgress = (slot: Slot) => (loaded: number, total: number) => setProgress((p) => ({ ...p, [slot]: Math.round((loaded / Math.max(total, 1)) * 100) }));
    let keys: [string, string, string];
    try {
      const faceKey = await uploadIdentityFile(target, 'face', face, face.name || 'volto.jpg', onProgress('face')).catch((err: unknown) => {
        throw Object.assign(new Error(errorMessage(err)), { title: IDENTITY_TEXTS.photoError });
      });
      const [frontKey, backKey] = await Promise.all([
        uploadIdentityFile(target, 'documentFront', front, front.name || 'fronte.jpg', onProgress('documentFront')),
        uploadIdentityFile(target, 'documentBack', back, back.name || 'retro.jpg', onProgress('documentBack')),
      ]).catch((err: unknown) => {
        throw Object.assign(new Error(errorMessage(err)), { title: IDENTITY_TEXTS.documentError });
      });
      keys = [faceKey, frontKey, backKey];
    } catch (err) {
      toast.error((err as { title?: string }).title ?? IDENTITY_TEXTS.documentError, { description: errorMessage(err) });
      setBusy(false);
      setProgress({});
      return;
    }
    try {
      const result = await verifyIdentity(target, {
        documentType,
        documentNumber: documentNumber.trim(),
        ...(fullName.trim() ? { fullName: fullName.trim() } : {}),
        faceKey: keys[0],
        documentFrontKey: keys[1],
        documentBackKey: keys[2],
      });
      if (result.status === 'review') {
        // 60-70 % or not completed by the engine: an admin compares the photos; the step stays to do
        toast.info('Identità in verifica', { description: result.reason });
        onVerified();
        onClose();
        return;
      }
      if (!result.valid) {
        const reason = result.reason || IDENTITY_TEXTS.notValidFallback;
        setFailure(reason);
        toast.error(IDENTITY_TEXTS.notValid, { description: reason });
        return;
      }
      const pct = `${formatDecimal(result.confidence)}%`;
      if (result.confidence < LOW_CONFIDENCE) {
        toast.warning('Attenzione', {
          description: `Corrispondenza del ${pct}: la verifica potrebbe essere controllata manualmente.`,
        });
      } else {
        toast.success(IDENTITY_TEXTS.success, { description: `Corrispondenza del ${pct}.` });
      }
      onVerified();
      onClose();
    } catch (err) {
      toast.error(IDENTITY_TEXTS.verifyError, { description: errorMessage(err) });
    } finally {
      setBusy(false);
      setProgress({});
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title="Verifica dell'identità"
      description="Scatta o carica una foto del tuo volto e del tuo documento d'identità."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Annulla
          </Button>
          <Button onClick={() => void submit()} loading={busy} data-testid="identity-submit">
            Verifica identità
          </Button>
        </>
      }
    >
      <div className="space-y-4" data-testid="identity-dialog">
        <section aria-labelledby="id-step-1" className="space-y-2">
          <h3 id="id-step-1" className="text-sm font-bold text-brand-navy">
            1. Foto del volto
          </h3>
          <ImageSlot label="Foto del volto" file={face} onChange={setFace} facingMode="user" testId="identity-face" progress={progress.face} />
        </section>

        {face && (
          <section aria-labelledby="id-step-2" className="space-y-3">
            <h3 id="id-step-2" className="text-sm font-bold text-brand-navy">
              2. Documento d&apos;identità
            </h3>
            <Field label="Tipo di documento">
              <Select value={documentType} onChange={(e) => setDocumentType(e.target.value as DocumentType)} data-testid="identity-document-type">
                {DOCUMENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {DOCUMENT_TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
            </Field>
            <ImageSlot label="Fronte del documento" file={front} onChange={setFront} facingMode="environment" testId="identity-front" progress={progress.documentFront} />
            <ImageSlot label="Retro del documento" file={back} onChange={setBack} facingMode="environment" testId="identity-back" progress={progress.documentBack} />
            <Field label="Numero del documento" error={numberError}>
              <Input
                value={documentNumber}
                maxLength={30}
                autoComplete="off"
                autoCapitalize="characters"
                onChange={(e) => {
                  setDocumentNumber(e.target.value);
                  if (e.target.value.trim()) setNumberError(undefined);
                }}
                onBlur={() => setNumberError(documentNumber.trim() ? undefined : IDENTITY_MESSAGES.documentNumberRequired)}
                data-testid="identity-document-number"
              />
            </Field>
            <Field label="Nome e cognome (come sul documento)" optional>
              <Input value={fullName} maxLength={200} autoComplete="name" onChange={(e) => setFullName(e.target.value)} data-testid="identity-full-name" />
            </Field>
          </section>
        )}

        {ready && (
          <section aria-labelledby="id-step-3" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="identity-confirm">
            <h3 id="id-step-3" className="font-bold text-brand-navy">
              3. Conferma
            </h3>
            <p className="mt-1">
              {DOCUMENT_TYPE_LABELS[documentType]} n. {documentNumber.trim().toUpperCase()}: premi «Verifica identità» per confrontare il volto con il documento.
            </p>
          </section>
        )}

        {failure && (
          <div
            ref={failureRef}
            role="alert"
            tabIndex={-1}
            className="scroll-my-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-red-700"
            data-testid="identity-failure"
          >
            <p className="font-semibold text-red-800">{IDENTITY_TEXTS.notValid}</p>
            <p className="text-red-800">{failure}</p>
          </div>
        )}
      </div>
    </Dialog>
  );
}
