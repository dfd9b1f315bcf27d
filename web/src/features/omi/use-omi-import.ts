import { useCallback, useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api';
import { createUpload, getImportJob, omiKeys, pollJob, uploadToBucket, type OmiJob } from './api';
import { importSummary } from './ImportResult';

export const IMPORT_ERROR_TITLE = "Errore durante l'importazione";

export type ImportProgress =
  | { phase: 'upload'; fileName: string; loaded: number; total: number }
  | {
      phase: 'processing';
      fileName: string | null;
      job: OmiJob | null;
      /**
       * ms of this page's own time (no clock skew) since the job's heartbeat last moved: the time
       * left counts down meanwhile, and after SILENT_AFTER_MS the run may have stopped
       */
      sinceBeatMs?: number;
    };

export type ImportRequest = { file: File; semester: string } | { resume: OmiJob };

/**
 * An OMI import from the page: ask for the upload ticket, send the file to the drop bucket
 * (progress 1/2), then follow the job until it is over (progress 2/2); or follow a job
 * already running. Ends with the result box and a toast, or the failure and a toast.
 */
export function useOmiImport({ signal, onCompleted }: { signal: () => AbortSignal | undefined; onCompleted: () => void }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [result, setResult] = useState<OmiJob | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: async (req: ImportRequest): Promise<OmiJob> => {
      const pollSignal = signal();
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
        await uploadToBucket(ticket, req.file, (loaded, total) => setProgress({ phase: 'upload', fileName: req.file.name, loaded, total }));
      }
      setProgress({ phase: 'processing', fileName, job: known });
      // when the heartbeat last moved, on this page's clock: the server's and the browser's clocks may differ
      let beat = { updatedAt: known?.updatedAt ?? '', at: performance.now() };
      return pollJob(
        (s) => getImportJob(jobId, s),
        (job) => {
          if (job.updatedAt !== beat.updatedAt) beat = { updatedAt: job.updatedAt, at: performance.now() };
          setProgress({ phase: 'processing', fileName: job.fileName ?? fileName, job, sinceBeatMs: performance.now() - beat.at });
        },
        pollSignal,
      );
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
        onCompleted();
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

  // leaving the page during the upload would lose the file
  const uploading = progress?.phase === 'upload';
  useEffect(() => {
    if (!uploading) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);

  /** The data were cleared: the last result and failure no longer hold. */
  const dismiss = useCallback(() => {
    setResult(null);
    setFailure(null);
  }, []);

  return { start: mutation.mutate, importing: mutation.isPending, progress, result, failure, dismiss };
}
