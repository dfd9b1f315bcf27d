import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as z from 'zod';
import { ShieldCheck, Upload } from 'lucide-react';
import { toast } from 'sonner';
import { coOwnerFiscalCodeSchema, DIGITAL_EXTENSIONS, DIGITAL_FILE_ACCEPT, DIGITAL_SIGNATURE_MESSAGES } from '@domain/onboarding/digital-signature';
import { KYC_MESSAGES, SIGNED_OPTION_MAX_BYTES, type KycCoOwner } from '@domain/onboarding/kyc';
import { extensionOf } from '@domain/onboarding/rules';
import { Button, Field, Input } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { uploadSignedOption } from '../api';

// the server's own rule of a co-owner's codice fiscale
const schema = z.object({ codes: z.array(coOwnerFiscalCodeSchema.shape.fiscalCode) });
type Values = z.infer<typeof schema>;

/**
 * The option signed with a firma digitale (CIE with CieID, a remote signature...): the
 * co-owners' codici fiscali (the seller's is the delegations'), then the `.p7m` or the
 * PAdES-signed PDF. The server verifies it before anything is signed and says what failed.
 */
export function DigitalOptionSignature({ propertyId, coOwners, onSigned }: { propertyId: string; coOwners: readonly KycCoOwner[]; onSigned: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number>();
  const [refusal, setRefusal] = useState<string>();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { codes: coOwners.map(() => '') } });

  const submit = async (values: Values) => {
    if (!file) return setRefusal('Scegli il file firmato digitalmente');
    setRefusal(undefined);
    setProgress(0);
    try {
      await uploadSignedOption(propertyId, file, (loaded, total) => setProgress(Math.round((loaded / Math.max(total, 1)) * 100)), {
        coOwnerFiscalCodes: coOwners.map((c, i) => ({ coOwnerId: c.id, fiscalCode: values.codes[i] ?? '' })),
      });
      toast.success(DIGITAL_SIGNATURE_MESSAGES.signedOk);
      setFile(null);
      onSigned();
    } catch (err) {
      // the reason stays next to the form (which check failed), not only in a toast
      setRefusal(errorMessage(err));
    } finally {
      setProgress(undefined);
    }
  };

  const pick = (picked: File | null) => {
    setRefusal(undefined);
    if (!picked) return setFile(null);
    if (!DIGITAL_EXTENSIONS.includes(extensionOf(picked.name))) return setRefusal(DIGITAL_SIGNATURE_MESSAGES.digitalFileType);
    if (picked.size > SIGNED_OPTION_MAX_BYTES) return setRefusal(KYC_MESSAGES.uploadTooLarge);
    setFile(picked);
  };

  return (
    <section className="space-y-3 rounded-lg border border-slate-200 p-3" aria-labelledby="digital-option-title" data-testid="option-digital">
      <h4 id="digital-option-title" className="flex items-center gap-1.5 font-semibold text-slate-800">
        <ShieldCheck aria-hidden="true" className="size-4" />
        Hai una firma digitale?
      </h4>
      <p className="text-sm text-slate-700">
        Firma il documento scaricato senza modificarlo (ad esempio con la CIE e l&apos;app CieID o con una firma remota) e carica il file firmato: .p7m
        oppure PDF firmato. Verifichiamo la firma e il certificato di ogni firmatario
        {coOwners.length ? ': devono firmare anche i comproprietari.' : '.'} Con la firma digitale non serve inviare l&apos;originale cartaceo.
      </p>
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-3">
        {coOwners.map((c, i) => (
          <Field key={c.id} label={`Codice fiscale di ${c.fullName}`} error={errors.codes?.[i]?.message}>
            <Input className="uppercase" maxLength={16} autoCapitalize="characters" autoComplete="off" spellCheck={false} {...register(`codes.${i}`)} data-testid={`option-digital-cf-${i}`} />
          </Field>
        ))}
        <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
          <Upload aria-hidden="true" className="size-4" />
          <span className="break-all">{file ? file.name : 'Scegli il file firmato digitalmente'}</span>
          <input
            type="file"
            accept={DIGITAL_FILE_ACCEPT}
            className="sr-only"
            onChange={(e) => {
              pick(e.target.files?.[0] ?? null);
              e.target.value = '';
            }}
            data-testid="option-digital-file"
          />
        </label>
        {refusal && (
          <p role="alert" className="text-sm font-medium text-red-700" data-testid="option-digital-error">
            {refusal}
          </p>
        )}
        {progress !== undefined && (
          <progress className="w-full" max={100} value={progress} aria-label="Caricamento dell'opzione firmata digitalmente">
            {progress}%
          </progress>
        )}
        <Button type="submit" disabled={!file} loading={progress !== undefined} data-testid="option-digital-confirm">
          Verifica e conferma la firma digitale
        </Button>
      </form>
    </section>
  );
}
