import { useEffect, useRef, useState, type ChangeEvent, type DragEvent, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CircleAlert, FileSpreadsheet, Table2, Trash2, Upload } from 'lucide-react';
import { Button, Card, CardContent, CardHeader, Dialog, Field, Input } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import {
  createUpload,
  getClearJob,
  getImportJob,
  isLive,
  listJobs,
  omiKeys,
  pollJob,
  startClear,
  uploadToBucket,
  type OmiJob,
} from './api';
import { formatBytes, formatNumber } from './format';
import { ImportResult } from './ImportResult';
import { OmiFileInfo } from './OmiFileInfo';
import { ProgressBar } from './ProgressBar';
import {
  CSV_ONLY_MESSAGE,
  importFormSchema,
  isCsvFileName,
  MISSING_INPUT_MESSAGE,
  semesterFromFileName,
  type ImportFormInput,
  type ImportFormValues,
} from './schemas';

export const IMPORT_ERROR_TITLE = "Errore durante l'importazione";
export const CLEAR_ERROR_TITLE = 'Errore durante la cancellazione dei dati';
export const CLEAR_CONFIRM_TEXT = 'Sei sicuro di voler cancellare tutti i dati OMI? Questa azione non può essere annullata.';

type ImportProgress =
  | { phase: 'upload'; fileName: string; loaded: number; total: number }
  | { phase: 'processing'; fileName: string | null; job: OmiJob | null };

type ImportRequest = { file: File; semester: string } | { resume: OmiJob };

function importSummary(job: OmiJob): string {
  return `${formatNumber(job.inserted)} nuovi record, ${formatNumber(job.updated)} aggiornati`;
}

export default function OmiImportPage() {
  usePageTitle('Importazione Dati OMI');
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [prefilled, setPrefilled] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [clearJob, setClearJob] = useState<OmiJob | null>(null);
  const [result, setResult] = useState<OmiJob | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  // polling stops when the page goes away (the import itself goes on on the server)
  const aborter = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    aborter.current = controller;
    return () => controller.abort();
  }, []);

  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm<ImportFormInput, unknown, ImportFormValues>({
    resolver: zodResolver(importFormSchema),
    defaultValues: { semester: '' },
    mode: 'onTouched',
  });
  const semesterValue = useWatch({ control, name: 'semester' }) ?? '';

  const importMutation = useMutation({
    mutationFn: async (req: ImportRequest): Promise<OmiJob> => {
      const signal = aborter.current?.signal;
      let jobId: string;
      let fileName: string | null = null;
      let known: OmiJob | null = null;
      if ('resume' in req) {
        jobId = req.resume.id;
        fileName = req.resume.fileName;
        known = req.resume;
      } else {
        fileName = req.file.name;
        setProgress({ phase: 'upload', fileName, loaded: 0, total: req.file.size });
        const ticket = await createUpload({ fileName: req.file.name, semester: req.semester, size: req.file.size });
        jobId = ticket.jobId;
        await uploadToBucket(ticket.upload, req.file, (loaded, total) =>
          setProgress({ phase: 'upload', fileName: req.file.name, loaded, total }),
        );
      }
      setProgress({ phase: 'processing', fileName, job: known });
      return pollJob((s) => getImportJob(jobId, s), (job) => setProgress({ phase: 'processing', fileName: job.fileName ?? fileName, job }), signal);
    },
    onMutate: () => {
      setResult(null);
      setFailure(null);
    },
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: omiKeys.all });
      if (job.status === 'completed') {
        setResult(job);
        toast.success('Importazione completata!', { description: importSummary(job) });
        setFile(null);
        if (fileInput.current) fileInput.current.value = '';
      } else {
        const message = job.error ?? 'Il file non è stato importato.';
        setFailure(message);
        toast.error(IMPORT_ERROR_TITLE, { description: message });
      }
    },
    onError: (err) => {
      if ((err as Error).name === 'AbortError') return;
      setFailure(errorMessage(err));
      toast.error(IMPORT_ERROR_TITLE, { description: errorMessage(err) });
    },
    onSettled: () => setProgress(null),
  });

  const clearMutation = useMutation({
    mutationFn: async (req: { resume?: OmiJob }): Promise<OmiJob> => {
      const signal = aborter.current?.signal;
      const started = req.resume ?? (await startClear());
      const jobId = started.id;
      setClearJob(started);
      return pollJob((s) => getClearJob(jobId, s), setClearJob, signal);
    },
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: omiKeys.all });
      if (job.status === 'completed') {
        setResult(null);
        setFailure(null);
        toast.success('Tutti i dati OMI sono stati cancellati', {
          description: job.deleted ? `${formatNumber(job.deleted)} record eliminati` : undefined,
        });
      } else {
        toast.error(CLEAR_ERROR_TITLE, { description: job.error ?? undefined });
      }
    },
    onError: (err) => {
      if ((err as Error).name === 'AbortError') return;
      toast.error(CLEAR_ERROR_TITLE, { description: errorMessage(err) });
    },
    onSettled: () => setClearJob(null),
  });

  const importing = importMutation.isPending;
  const clearing = clearMutation.isPending;
  const busy = importing || clearing;

  // an import or clear already running (another tab, or this page before a reload): follow it
  const jobs = useQuery({ queryKey: omiKeys.jobs, queryFn: ({ signal }) => listJobs(signal), staleTime: 0, gcTime: 0 });
  const resumed = useRef(false);
  const { mutate: importMutate } = importMutation;
  const { mutate: clearMutate } = clearMutation;
  useEffect(() => {
    if (resumed.current || !jobs.data) return;
    resumed.current = true;
    const live = jobs.data.items.find((j) => isLive(j));
    if (!live) return;
    if (live.kind === 'import') importMutate({ resume: live });
    else clearMutate({ resume: live });
  }, [jobs.data, importMutate, clearMutate]);

  // leaving the page during the upload would lose the file
  const uploading = progress?.phase === 'upload';
  useEffect(() => {
    if (!uploading) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);

  const pickFile = (picked: File | null | undefined) => {
    if (!picked) return;
    if (!isCsvFileName(picked.name)) {
      setFile(null);
      setFileError(CSV_ONLY_MESSAGE);
      if (fileInput.current) fileInput.current.value = '';
      toast.error('Errore', { description: CSV_ONLY_MESSAGE, id: 'omi-csv-only' });
      return;
    }
    setFile(picked);
    setFileError(picked.size === 0 ? 'Il file è vuoto' : undefined);
    const semester = semesterFromFileName(picked.name);
    if (semester) {
      setValue('semester', semester, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
      setPrefilled(semester);
    } else {
      setPrefilled(null);
    }
  };

  const onFileChange = (e: ChangeEvent<HTMLInputElement>) => pickFile(e.target.files?.[0]);

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragOver(false);
    if (busy) return;
    const dropped = e.dataTransfer.files?.[0];
    if (!dropped) return;
    pickFile(dropped);
    // keep the input in step with what was dropped
    if (fileInput.current && isCsvFileName(dropped.name)) {
      const dt = new DataTransfer();
      dt.items.add(dropped);
      fileInput.current.files = dt.files;
    }
  };

  const onSubmit = (values: ImportFormValues) => {
    if (!file) {
      toast.error('Attenzione', { description: MISSING_INPUT_MESSAGE });
      return;
    }
    if (fileError) return;
    importMutation.mutate({ file, semester: values.semester });
  };

  const missingInput = !file || semesterValue.trim() === '';
  const semesterHint =
    prefilled && normalize(semesterValue) === prefilled ? `Ricavato dal nome del file (${prefilled}).` : 'Formato AAAA-S1 o AAAA-S2.';

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Importazione Dati OMI</h1>
          <p className="mt-2 max-w-2xl text-slate-700">
            Carica il file CSV delle quotazioni immobiliari pubblicato dall&apos;Agenzia delle Entrate (Osservatorio del
            Mercato Immobiliare).
          </p>
        </div>
        <Link
          to="/omi-data"
          className="inline-flex items-center gap-1.5 self-start rounded font-semibold text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy sm:self-auto"
        >
          <Table2 aria-hidden="true" className="size-4" />
          Vai ai Dati OMI
        </Link>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader>
              <h2 className="text-lg font-bold">Carica file CSV</h2>
            </CardHeader>
            <CardContent>
              <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5" aria-label="Importazione file OMI">
                <Field label="Semestre" id="omi-semester" error={errors.semester?.message} hint={semesterHint}>
                  <Input
                    placeholder="es. 2024-S2"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={10}
                    disabled={busy}
                    className="sm:max-w-xs"
                    data-testid="omi-semester"
                    {...register('semester')}
                  />
                </Field>

                <Field
                  label="File CSV"
                  id="omi-file"
                  error={fileError}
                  hint={file ? `Dimensione: ${formatBytes(file.size)}` : 'Solo file .csv, fino a 50 MB.'}
                >
                  <FileDrop
                    ref={fileInput}
                    file={file}
                    disabled={busy}
                    dragOver={dragOver}
                    onDragOver={(e) => {
                      e.preventDefault();
                      if (!busy) setDragOver(true);
                    }}
                    onDragLeave={() => setDragOver(false)}
                    onDrop={onDrop}
                    onChange={onFileChange}
                  />
                </Field>

                <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:items-start sm:justify-between">
                  <div className="space-y-1.5">
                    <Button
                      type="submit"
                      size="md"
                      disabled={missingInput || busy || !!fileError}
                      loading={importing}
                      className="w-full sm:w-auto"
                      data-testid="omi-import-submit"
                    >
                      {!importing && <Upload aria-hidden="true" className="size-4" />}
                      {importing ? 'Importazione in corso...' : 'Importa Dati'}
                    </Button>
                    {missingInput && !busy && <p className="text-sm text-slate-600">{MISSING_INPUT_MESSAGE}.</p>}
                  </div>
                  <Button
                    variant="danger"
                    size="md"
                    disabled={busy}
                    loading={clearing}
                    onClick={() => setConfirmOpen(true)}
                    className="w-full sm:w-auto"
                    data-testid="omi-clear"
                  >
                    {!clearing && <Trash2 aria-hidden="true" className="size-4" />}
                    {clearing ? 'Cancellazione in corso...' : 'Cancella Tutti i Dati'}
                  </Button>
                </div>
              </form>

              {progress && <ImportProgressView progress={progress} />}
              {clearing && <ClearProgressView job={clearJob} />}
            </CardContent>
          </Card>

          {result && <ImportResult job={result} />}
          {failure && !importing && (
            <div role="alert" className="flex gap-3 rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900" data-testid="omi-import-failure">
              <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              <div>
                <p className="font-semibold">{IMPORT_ERROR_TITLE}</p>
                <p className="mt-1 break-words text-sm">{failure}</p>
              </div>
            </div>
          )}
        </div>

        <OmiFileInfo />
      </div>

      <Dialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title="Cancellare tutti i dati OMI?"
        description={CLEAR_CONFIRM_TEXT}
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirmOpen(false)} data-testid="omi-clear-cancel">
              Annulla
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirmOpen(false);
                clearMutation.mutate({});
              }}
              data-testid="omi-clear-confirm"
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Cancella Tutti i Dati
            </Button>
          </>
        }
      />
    </div>
  );
}

function normalize(v: string): string {
  return v.trim().toUpperCase();
}

interface FileDropProps {
  ref: Ref<HTMLInputElement>;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  file: File | null;
  disabled: boolean;
  dragOver: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  onDragOver: (e: DragEvent<HTMLDivElement>) => void;
  onDragLeave: () => void;
  onDrop: (e: DragEvent<HTMLDivElement>) => void;
}

/**
 * A drop area around the native file input. The input stays in the page (keyboard, screen
 * readers, tests) but visually hidden: its own button would speak the browser's language,
 * so an Italian "Scegli file" label opens it.
 */
function FileDrop({ ref, id, file, disabled, dragOver, onChange, onDragOver, onDragLeave, onDrop, ...aria }: FileDropProps) {
  return (
    <div
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={cn(
        'flex items-center gap-3 rounded-xl border-2 border-dashed p-4 transition-colors',
        dragOver ? 'border-brand-orange bg-brand-cream' : 'border-slate-300 bg-slate-50',
        disabled && 'opacity-60',
      )}
    >
      <FileSpreadsheet aria-hidden="true" className="hidden size-8 shrink-0 text-brand-navy sm:block" />
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
        <input
          ref={ref}
          id={id}
          type="file"
          accept=".csv,text/csv"
          disabled={disabled}
          onChange={onChange}
          data-testid="omi-file"
          {...aria}
          className="peer sr-only"
        />
        <label
          htmlFor={id}
          className={cn(
            'inline-flex h-10 shrink-0 cursor-pointer items-center justify-center self-start rounded-lg bg-brand-navy px-4 text-sm font-semibold text-white hover:bg-brand-navy-dark sm:self-auto',
            'peer-focus-visible:ring-2 peer-focus-visible:ring-brand-navy peer-focus-visible:ring-offset-2',
            'peer-disabled:cursor-not-allowed peer-disabled:hover:bg-brand-navy',
          )}
        >
          Scegli file
        </label>
        <span className="min-w-0 text-sm text-slate-700" data-testid="omi-file-name">
          {file ? (
            <span className="break-all font-medium text-slate-900">{file.name}</span>
          ) : (
            <>
              Nessun file selezionato
              <span className="block text-xs text-slate-600">oppure trascinalo qui</span>
            </>
          )}
        </span>
      </div>
    </div>
  );
}

function ImportProgressView({ progress }: { progress: ImportProgress }) {
  if (progress.phase === 'upload') {
    const pct = progress.total ? (progress.loaded / progress.total) * 100 : 0;
    return (
      <ProgressBar
        className="mt-6"
        label="Caricamento del file (1/2)"
        value={pct}
        valueText={`${formatBytes(progress.loaded)} di ${formatBytes(progress.total)}`}
        data-testid="omi-import-progress"
      >
        <span className="break-all">{progress.fileName}</span> · {formatBytes(progress.loaded)} di {formatBytes(progress.total)}
      </ProgressBar>
    );
  }
  const job = progress.job;
  const running = job?.status === 'running';
  const rows = job?.rowsRead ?? 0;
  return (
    <ProgressBar
      className="mt-6"
      label={running ? 'Elaborazione delle righe (2/2)' : "In attesa dell'elaborazione (2/2)"}
      value={job?.progress ?? 0}
      valueText={`${formatNumber(rows)} righe lette`}
      data-testid="omi-import-progress"
    >
      <span data-testid="omi-import-rows">{formatNumber(rows)} righe lette</span>
      {job && (job.inserted > 0 || job.updated > 0) && (
        <>
          {' '}· {formatNumber(job.inserted)} nuove · {formatNumber(job.updated)} aggiornate
        </>
      )}
      {job && job.rejected > 0 && <> · {formatNumber(job.rejected)} scartate</>}
      {job?.bytesTotal ? (
        <span className="block text-slate-600">
          {formatBytes(job.bytesRead)} di {formatBytes(job.bytesTotal)} elaborati
        </span>
      ) : null}
    </ProgressBar>
  );
}

function ClearProgressView({ job }: { job: OmiJob | null }) {
  const total = job?.total ?? null;
  const deleted = job?.deleted ?? 0;
  return (
    <ProgressBar
      className="mt-6"
      tone="danger"
      label="Cancellazione dei dati OMI"
      value={job?.progress ?? 0}
      valueText={total !== null ? `${formatNumber(deleted)} di ${formatNumber(total)} record` : undefined}
      data-testid="omi-clear-progress"
    >
      {total !== null ? `${formatNumber(deleted)} di circa ${formatNumber(total)} record eliminati` : 'Avvio della cancellazione...'}
    </ProgressBar>
  );
}
