import { useState } from 'react';
import { CheckCircle2, Download, RotateCcw, Upload } from 'lucide-react';
import { toast } from 'sonner';
import { formatEuro } from '@domain/format';
import { KYC_MESSAGES, SIGNED_OPTION_ACCEPT, SIGNED_OPTION_MAX_BYTES, SIGNED_OPTION_TYPES, type KycCoOwner, type KycOption } from '@domain/onboarding/kyc';
import { extensionOf } from '@domain/onboarding/rules';
import { optionAmountLabel, optionExpiryLabel } from '@domain/review/rules';
import { Badge, Button } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { openDownload, optionDocument, uploadSignedOption } from '../api';
import { PhotographedPages } from '../signed-pages/PhotographedPages';
import { SignersList } from '@/components/signature/SignersList';
import { DigitalOptionSignature } from './DigitalOptionSignature';

/** Step 4: download the purchase-option document, upload the signed copy (paper, photographed pages or a firma digitale). */
export function OptionStep({
  propertyId,
  option,
  coOwners,
  onChanged,
  reloading,
}: {
  propertyId: string;
  option: KycOption;
  coOwners: readonly KycCoOwner[];
  onChanged: () => void;
  reloading: boolean;
}) {
  const [progress, setProgress] = useState<number>();
  const [file, setFile] = useState<File | null>(null);

  if (option.signedAt) {
    return (
      <div className="space-y-3">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="option-signed">
          <Badge variant="success">
            <CheckCircle2 aria-hidden="true" className="mr-1 inline size-3.5" />
            Firmata
          </Badge>
          {option.signatureType === 'digitale' ? 'Opzione di acquisto firmata digitalmente.' : 'Opzione di acquisto firmata.'}
          <span data-testid="option-expiry">
            {option.expiresAt ? `Scade il ${optionExpiryLabel(option)}.` : option.optionDuration === null ? `Scadenza: ${optionExpiryLabel(option)}.` : ''}
          </span>
        </p>
        {option.signatureType === 'digitale' && option.signers.length > 0 && <SignersList signers={option.signers} testId="option-signers" />}
      </div>
    );
  }

  if (!option.documentReady) {
    return (
      <div className="space-y-2" role="status" data-testid="option-pending">
        <p className="font-semibold text-slate-800">{KYC_MESSAGES.documentPending}</p>
        <p className="text-sm text-slate-700">{KYC_MESSAGES.documentPendingHint}</p>
        <Button variant="outline" onClick={onChanged} loading={reloading} data-testid="option-reload">
          <RotateCcw aria-hidden="true" className="size-4" />
          Ricarica
        </Button>
      </div>
    );
  }

  const download = async () => {
    try {
      const link = await optionDocument(propertyId);
      openDownload(link.url);
    } catch (err) {
      toast.error('Errore', { description: errorMessage(err) });
    }
  };

  const confirm = async () => {
    if (!file) return;
    setProgress(0);
    try {
      await uploadSignedOption(propertyId, file, (loaded, total) => setProgress(Math.round((loaded / Math.max(total, 1)) * 100)));
      toast.success(KYC_MESSAGES.signedOk, { description: "Invia anche l'originale cartaceo firmato." });
      setFile(null);
      onChanged();
    } catch (err) {
      toast.error(KYC_MESSAGES.uploadFailed, { description: errorMessage(err) });
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <div className="space-y-4" data-testid="option-step">
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-slate-600">Valore dell&apos;immobile</dt>
        <dd className="font-semibold text-slate-800">{formatEuro(option.propertyValue)}</dd>
        <dt className="text-slate-600">{optionAmountLabel(option.optionDuration)}</dt>
        <dd className="font-semibold text-slate-800" data-testid="option-amount">{formatEuro(option.optionAmount)}</dd>
        <dt className="text-slate-600">Scadenza</dt>
        <dd className="font-semibold text-slate-800" data-testid="option-expiry">{optionExpiryLabel(option)}</dd>
        <dt className="text-slate-600">Pagamento</dt>
        <dd className="font-semibold text-slate-800">{option.paymentType === 'anticipato' ? 'Anticipato' : `Rateale${option.installments ? ` (${option.installments} rate)` : ''}`}</dd>
      </dl>
      <ol className="list-decimal space-y-3 pl-5 text-sm text-slate-700">
        <li>
          <p>Scarica il documento dell&apos;opzione di acquisto e firmalo.</p>
          <Button variant="outline" className="mt-2" onClick={() => void download()} data-testid="option-download">
            <Download aria-hidden="true" className="size-4" />
            Scarica documento
          </Button>
        </li>
        <li>
          <p>Carica la copia firmata (pdf, jpg, jpeg o png; massimo 20 MB).</p>
          <label className="mt-2 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
            <Upload aria-hidden="true" className="size-4" />
            {file ? file.name : 'Scegli il file firmato'}
            <input type="file" accept={SIGNED_OPTION_ACCEPT} className="sr-only" onChange={(e) => {
                const picked = e.target.files?.[0] ?? null;
                e.target.value = '';
                if (picked && !SIGNED_OPTION_TYPES[extensionOf(picked.name)]) return void toast.error(KYC_MESSAGES.uploadFailed, { description: KYC_MESSAGES.uploadType });
                if (picked && picked.size > SIGNED_OPTION_MAX_BYTES) return void toast.error(KYC_MESSAGES.uploadFailed, { description: KYC_MESSAGES.uploadTooLarge });
                setFile(picked);
              }} data-testid="option-upload" />
          </label>
          <p className="mt-3">Senza scanner? Fotografa le pagine firmate con il telefono: diventano un unico PDF.</p>
          <div className="mt-2">
            <PhotographedPages pages={option.pages} fileName="opzione-firmata.pdf" title="Opzione di acquisto firmata" onReady={setFile} disabled={progress !== undefined} testId="option-photos" />
          </div>
        </li>
      </ol>
      {progress !== undefined && (
        <progress className="w-full" max={100} value={progress} aria-label="Caricamento dell'opzione firmata">
          {progress}%
        </progress>
      )}
      <Button onClick={() => void confirm()} disabled={!file} loading={progress !== undefined} data-testid="option-confirm">
        Conferma firma
      </Button>
      <DigitalOptionSignature propertyId={propertyId} coOwners={coOwners} onSigned={onChanged} />
    </div>
  );
}
