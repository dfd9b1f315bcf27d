import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { CircleAlert, Table2, Trash2, Upload } from 'lucide-react';
import { OMI_MAX_BYTES, megabytes } from '@domain/uploads';
import { Button, Card, CardContent, CardHeader, Field, Input } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import type { OmiJob } from './api';
import { ClearConfirmDialog } from './ClearConfirmDialog';
import { FileDrop } from './FileDrop';
import { formatBytes } from './format';
import { ClearProgressView, ImportProgressView } from './ImportProgressView';
import { ImportResult } from './ImportResult';
import { OmiFileInfo } from './OmiFileInfo';
import { importFormSchema, MISSING_INPUT_MESSAGE, normalizeSemester, type ImportFormInput, type ImportFormValues } from './schemas';
import { useCsvFile } from './use-csv-file';
import { useLeaveSignal } from './use-leave-signal';
import { useOmiClear } from './use-omi-clear';
import { IMPORT_ERROR_TITLE, useOmiImport } from './use-omi-import';
import { useResumeLiveJob } from './use-resume-live-job';

const FILE_HINT = `Solo file .csv, fino a ${megabytes(OMI_MAX_BYTES)} MB.`;

/** /omi-import (spec 001): upload an OMI CSV with its semester, follow the import, clear all the data. */
export default function OmiImportPage() {
  usePageTitle('Importazione Dati OMI');
  const signal = useLeaveSignal();
  const [confirmOpen, setConfirmOpen] = useState(false);

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

  const csv = useCsvFile((semester) => setValue('semester', semester, { shouldValidate: true, shouldDirty: true, shouldTouch: true }));
  const importer = useOmiImport({ signal, onCompleted: csv.reset });
  const clearer = useOmiClear({ signal, onCleared: importer.dismiss });

  const { start: startImport } = importer;
  const { start: startClear } = clearer;
  const resumeImport = useCallback((job: OmiJob) => startImport({ resume: job }), [startImport]);
  const resumeClear = useCallback((job: OmiJob) => startClear({ resume: job }), [startClear]);
  useResumeLiveJob(resumeImport, resumeClear);

  const { importing } = importer;
  const { clearing } = clearer;
  const busy = importing || clearing;
  const { file } = csv;

  const onSubmit = (values: ImportFormValues) => {
    if (!file) {
      toast.error('Attenzione', { description: MISSING_INPUT_MESSAGE });
      return;
    }
    if (csv.error) return;
    startImport({ file, semester: values.semester });
  };

  const missingInput = !file || semesterValue.trim() === '';
  const semesterHint =
    csv.prefilled && normalizeSemester(semesterValue) === csv.prefilled ? `Ricavato dal nome del file (${csv.prefilled}).` : 'Formato AAAA-S1 o AAAA-S2.';

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

                <Field label="File CSV" id="omi-file" error={csv.error} hint={file ? `Dimensione: ${formatBytes(file.size)}` : FILE_HINT}>
                  <FileDrop ref={csv.inputRef} file={file} disabled={busy} onChange={csv.onChange} onDropFile={csv.onDropFile} />
                </Field>

                <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:items-start sm:justify-between">
                  <div className="space-y-1.5">
                    <Button
                      type="submit"
                      size="md"
                      disabled={missingInput || busy || !!csv.error}
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

              {importer.progress && <ImportProgressView progress={importer.progress} />}
              {clearing && <ClearProgressView job={clearer.job} />}
            </CardContent>
          </Card>

          {importer.result && <ImportResult job={importer.result} />}
          {importer.failure && !importing && (
            <div role="alert" className="flex gap-3 rounded-2xl border border-red-300 bg-red-50 p-5 text-red-900" data-testid="omi-import-failure">
              <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              <div>
                <p className="font-semibold">{IMPORT_ERROR_TITLE}</p>
                <p className="mt-1 break-words text-sm">{importer.failure}</p>
              </div>
            </div>
          )}
        </div>

        <OmiFileInfo />
      </div>

      <ClearConfirmDialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() => {
          setConfirmOpen(false);
          startClear({});
        }}
      />
    </div>
  );
}
