import { useEffect, useRef, useState } from 'react';
import { CheckCircle2, Download, FileSignature, ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import type { KycDelegation } from '@domain/onboarding/kyc';
import { DELEGATION_LABELS, DELEGATION_TYPES, FISCAL_CODE_LENGTH, isValidFiscalCode, normalizeFiscalCode, ONBOARDING_MESSAGES, SIGNED_DELEGATION_MAX_BYTES, SIGNED_DELEGATION_TYPES, extensionOf, type DelegationType } from '@domain/onboarding/rules';
import { tooLargeMessage } from '@domain/uploads';
import { DIGITAL_EXTENSIONS, DIGITAL_FILE_ACCEPT, DIGITAL_SIGNATURE_MESSAGES } from '@domain/onboarding/digital-signature';
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, IDENTITY_MESSAGES, verifyIdentitySchema, type DocumentType } from '@domain/identity';
import { loadComuni, provinces, type ComuniModule } from '@domain/places';
import { Badge, Button, Field, Input, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { ComuneCombobox } from '@/components/ComuneCombobox';
import { delegationDocument, generateDelegations, openDownload, uploadSignedDelegation } from '../api';
import { PhotographedPages } from '../signed-pages/PhotographedPages';
import { SignersList } from '@/components/signature/SignersList';

const PROVINCES = provinces();

/** What 'Usa i dati del documento verificato' fills in: the seller's verified identity. */
export interface VerifiedDelegator {
  fullName: string | null;
  documentType: DocumentType;
  documentNumber: string;
}
export const SIGNED_DELEGATION_ACCEPT = '.pdf,.jpg,.jpeg,.png,.doc,.docx,.txt';

/** Step 3: the delegations for the municipality's records: generate, download, upload the signed copies. */
export function DelegationsStep({
  propertyId,
  delegations,
  canComplete,
  defaultProvince,
  defaultMunicipality,
  verified,
  onChanged,
  onDone,
}: {
  propertyId: string;
  delegations: KycDelegation[];
  canComplete: boolean;
  defaultProvince: string | null;
  defaultMunicipality: string | null;
  /** the verified identity, when known: 'Usa i dati' fills and locks the name and the document */
  verified: VerifiedDelegator | null;
  onChanged: () => void;
  onDone: () => void;
}) {
  const first = delegations[0];
  const [province, setProvince] = useState(first?.province ?? defaultProvince ?? '');
  const [municipality, setMunicipality] = useState(first?.municipality ?? defaultMunicipality ?? '');
  const [types, setTypes] = useState<DelegationType[]>(delegations.map((d) => d.type));
  const [useIdentity, setUseIdentity] = useState(verified !== null);
  const [fullName, setFullName] = useState(verified?.fullName ?? '');
  const [documentType, setDocumentType] = useState<DocumentType>(verified?.documentType ?? 'carta_identita');
  const [documentNumber, setDocumentNumber] = useState(verified?.documentNumber ?? '');
  const [fiscalCode, setFiscalCode] = useState('');
  const [fiscalError, setFiscalError] = useState<string>();
  const [documentError, setDocumentError] = useState<string>();
  // the verified identity can arrive after the first render (a return visit): adopt it once then
  const adopted = useRef(verified !== null);
  useEffect(() => {
    if (!verified || adopted.current) return;
    adopted.current = true;
    setUseIdentity(true);
    if (verified.fullName) setFullName(verified.fullName);
    setDocumentType(verified.documentType);
    setDocumentNumber(verified.documentNumber);
  }, [verified]);
  const [places, setPlaces] = useState<ComuniModule>();
  const [generating, setGenerating] = useState(false);
  const [progress, setProgress] = useState<Partial<Record<DelegationType, number>>>({});

  useEffect(() => {
    let alive = true;
    void loadComuni().then((m) => alive && setPlaces(m));
    return () => {
      alive = false;
    };
  }, []);

  const comuni = province && places ? places.comuniOf(province) : undefined;
  const fromIdentity = useIdentity && verified !== null;
  const name = fromIdentity && verified.fullName ? verified.fullName : fullName;
  const docType = fromIdentity ? verified.documentType : documentType;
  const docNumber = fromIdentity ? verified.documentNumber : documentNumber;

  const generate = async () => {
    if (!province || !municipality.trim() || types.length === 0) {
      toast.error('Dati mancanti', { description: ONBOARDING_MESSAGES.delegationsRequired });
      return;
    }
    if (!name.trim()) {
      toast.error('Dati mancanti', { description: ONBOARDING_MESSAGES.delegatorName });
      return;
    }
    if (!isValidFiscalCode(fiscalCode)) {
      setFiscalError(ONBOARDING_MESSAGES.fiscalCode);
      return;
    }
    const number = verifyIdentitySchema.shape.documentNumber.safeParse(docNumber);
    if (!number.success) {
      setDocumentError(number.error.issues[0]?.message ?? IDENTITY_MESSAGES.documentNumberRequired);
      return;
    }
    setGenerating(true);
    try {
      await generateDelegations(propertyId, {
        province,
        municipality: municipality.trim(),
        types,
        delegator: { fullName: name.trim(), fiscalCode, documentType: docType, documentNumber: number.data },
      });
      toast.success('Deleghe generate', { description: 'Scarica ogni delega, firmala e carica la copia firmata.' });
      onChanged();
    } catch (err) {
      toast.error('Impossibile generare le deleghe', { description: errorMessage(err) });
    } finally {
      setGenerating(false);
    }
  };

  const download = async (type: DelegationType) => {
    try {
      const link = await delegationDocument(propertyId, type);
      openDownload(link.url);
    } catch (err) {
      toast.error('Errore', { description: errorMessage(err) });
    }
  };

  const upload = async (type: DelegationType, file: File | undefined, digital = false) => {
    if (!file) return;
    const ext = extensionOf(file.name);
    if (!SIGNED_DELEGATION_TYPES[ext] || (digital && !DIGITAL_EXTENSIONS.includes(ext))) {
      const description = digital ? DIGITAL_SIGNATURE_MESSAGES.digitalFileType : ONBOARDING_MESSAGES.uploadType;
      toast.error('Impossibile caricare il documento', { description });
      return;
    }
    if (file.size > SIGNED_DELEGATION_MAX_BYTES) {
      toast.error('Impossibile caricare il documento', { description: tooLargeMessage(SIGNED_DELEGATION_MAX_BYTES) });
      return;
    }
    setProgress((p) => ({ ...p, [type]: 0 }));
    try {
      const onProgress = (loaded: number, total: number) => setProgress((p) => ({ ...p, [type]: Math.round((loaded / Math.max(total, 1)) * 100) }));
      const signed = await uploadSignedDelegation(propertyId, type, file, onProgress, digital);
      toast.success(signed.signatureType === 'digitale' ? DIGITAL_SIGNATURE_MESSAGES.signedOk : 'Delega firmata caricata', { description: DELEGATION_LABELS[type] });
      onChanged();
    } catch (err) {
      toast.error('Impossibile caricare il documento', { description: errorMessage(err) });
    } finally {
      setProgress((p) => {
        const next = { ...p };
        delete next[type];
        return next;
      });
    }
  };

  return (
    <div className="space-y-5" data-testid="delegations-step">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Provincia">
          <Select
            value={province}
            onChange={(e) => {
              setProvince(e.target.value);
              setMunicipality('');
            }}
            data-testid="delegation-province"
          >
            <option value="">Seleziona la provincia</option>
            {PROVINCES.map((p) => (
              <option key={p.code} value={p.code}>
                {p.name} ({p.code})
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Comune" hint={!province ? 'Scegli prima la provincia' : !comuni ? 'Caricamento dei comuni...' : undefined}>
          <ComuneCombobox value={municipality} onChange={setMunicipality} comuni={comuni} disabled={!province} placeholder={province ? 'Cerca il comune' : undefined} data-testid="delegation-municipality" />
        </Field>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Tipi di delega</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {DELEGATION_TYPES.map((t) => (
            <label key={t} className="flex min-h-11 items-center gap-3 rounded-md border border-slate-200 px-3 text-sm">
              <input
                type="checkbox"
                className="size-5 accent-brand-navy"
                checked={types.includes(t)}
                onChange={(e) => setTypes((ts) => (e.target.checked ? [...ts, t] : ts.filter((x) => x !== t)))}
                data-testid={`delegation-type-${t}`}
              />
              {DELEGATION_LABELS[t]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Field label="Nome e cognome del delegante">
            <Input value={name} readOnly={fromIdentity && Boolean(verified.fullName)} onChange={(e) => setFullName(e.target.value)} autoComplete="name" data-testid="delegation-name" />
          </Field>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 accent-brand-navy"
              checked={fromIdentity}
              disabled={!verified}
              onChange={(e) => setUseIdentity(e.target.checked)}
              data-testid="delegation-use-identity"
            />
            Usa i dati del documento verificato
          </label>
        </div>
        <Field label="Codice fiscale" error={fiscalError}>
          <Input
            value={fiscalCode}
            maxLength={FISCAL_CODE_LENGTH}
            autoCapitalize="characters"
            autoComplete="off"
            onChange={(e) => {
              const cf = normalizeFiscalCode(e.target.value);
              setFiscalCode(cf);
              if (fiscalError && isValidFiscalCode(cf)) setFiscalError(undefined);
            }}
            onBlur={() => setFiscalError(fiscalCode && !isValidFiscalCode(fiscalCode) ? ONBOARDING_MESSAGES.fiscalCode : undefined)}
            data-testid="delegation-fiscal-code"
          />
        </Field>
        <Field label="Tipo di documento">
          <Select value={docType} disabled={fromIdentity} onChange={(e) => setDocumentType(e.target.value as DocumentType)} data-testid="delegation-document-type">
            {DOCUMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {DOCUMENT_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Numero del documento" error={documentError}>
          <Input
            value={docNumber}
            readOnly={fromIdentity}
            maxLength={30}
            autoCapitalize="characters"
            autoComplete="off"
            onChange={(e) => {
              setDocumentNumber(e.target.value);
              if (documentError) setDocumentError(undefined);
            }}
            data-testid="delegation-document-number"
          />
        </Field>
      </div>

      <Button onClick={() => void generate()} loading={generating} data-testid="delegation-generate">
        <FileSignature aria-hidden="true" className="size-4" />
        Genera Deleghe
      </Button>

      {delegations.length > 0 && (
        <ul className="space-y-3" aria-label="Deleghe generate">
          {delegations.map((d) => (
            <li key={d.type} className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid={`delegation-${d.type}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold text-slate-800">
                  {d.label} <span className="font-normal text-slate-600">· {d.municipality} ({d.province})</span>
                </p>
                {d.signed ? (
                  <Badge variant="success">
                    <CheckCircle2 aria-hidden="true" className="mr-1 inline size-3.5" />
                    {d.signatureType === 'digitale' ? 'Firmata digitalmente' : 'Firmata'}
                  </Badge>
                ) : (
                  <Badge variant="warning">Da firmare</Badge>
                )}
              </div>
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button variant="outline" onClick={() => void download(d.type)} disabled={!d.generated} data-testid={`delegation-${d.type}-download`}>
                  <Download aria-hidden="true" className="size-4" />
                  Scarica delega
                </Button>
                <label className="inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
                  {d.signed ? 'Sostituisci copia firmata' : 'Carica copia firmata'}
                  <input
                    type="file"
                    accept={SIGNED_DELEGATION_ACCEPT}
                    className="sr-only"
                    disabled={progress[d.type] !== undefined}
                    onChange={(e) => {
                      void upload(d.type, e.target.files?.[0]);
                      e.target.value = '';
                    }}
                    data-testid={`delegation-${d.type}-upload`}
                  />
                </label>
                <label className="inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-navy">
                  <ShieldCheck aria-hidden="true" className="size-4" />
                  Carica firmata digitalmente
                  <input
                    type="file"
                    accept={DIGITAL_FILE_ACCEPT}
                    className="sr-only"
                    disabled={!d.generated || progress[d.type] !== undefined}
                    onChange={(e) => {
                      void upload(d.type, e.target.files?.[0], true);
                      e.target.value = '';
                    }}
                    data-testid={`delegation-${d.type}-digital`}
                  />
                </label>
                <PhotographedPages
                  pages={d.pages}
                  fileName={`delega-${d.type}-firmata.pdf`}
                  title={`${d.label} firmata`}
                  onReady={(file) => void upload(d.type, file)}
                  disabled={!d.generated || progress[d.type] !== undefined}
                  testId={`delegation-${d.type}-photos`}
                />
              </div>
              {d.signed && d.signatureType === 'digitale' && d.signers.length > 0 && <SignersList signers={d.signers} testId={`delegation-${d.type}-signers`} />}
              {progress[d.type] !== undefined && (
                <progress className="w-full" max={100} value={progress[d.type]} aria-label={`Caricamento: ${d.label}`}>
                  {progress[d.type]}%
                </progress>
              )}
            </li>
          ))}
        </ul>
      )}

      {delegations.length > 0 &&
        (canComplete ? (
          <div className="space-y-2">
            <p className="text-sm text-slate-700" data-testid="delegation-complete-hint">
              Tutte le deleghe sono firmate. Premi &apos;Completa Fase&apos; per chiudere le deleghe e passare al passaggio successivo.
            </p>
            <Button onClick={onDone} data-testid="delegation-complete">
              Completa Fase
            </Button>
          </div>
        ) : (
          <div className="space-y-2">
            <p className="text-sm text-slate-700" data-testid="delegation-hint">
              {ONBOARDING_MESSAGES.completeHint}
            </p>
            <Button variant="outline" onClick={onDone} data-testid="delegation-save-close">
              Salva e Chiudi
            </Button>
          </div>
        ))}
    </div>
  );
}
