import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/api';
import { formatNumber } from './format';
import { getClearJob, omiKeys, pollJob, startClear, type OmiJob } from './api';

export const CLEAR_ERROR_TITLE = 'Errore durante la cancellazione dei dati';

/**
 * "Cancella Tutti i Dati": starts the clear in the background (or follows one already
 * running) and polls it until it is over, with a toast at the end.
 */
export function useOmiClear({ signal, onCleared }: { signal: () => AbortSignal | undefined; onCleared: () => void }) {
  const queryClient = useQueryClient();
  const [job, setJob] = useState<OmiJob | null>(null);

  const mutation = useMutation({
    mutationFn: async (req: { resume?: OmiJob }): Promise<OmiJob> => {
      const pollSignal = signal();
      const started = req.resume ?? (await startClear());
      const jobId = started.id;
      setJob(started);
      return pollJob((s) => getClearJob(jobId, s), setJob, pollSignal);
    },
    onSuccess: (done) => {
      void queryClient.invalidateQueries({ queryKey: omiKeys.all });
      if (done.status === 'completed') {
        onCleared();
        toast.success('Tutti i dati OMI sono stati cancellati', {
          description: done.deleted ? `${formatNumber(done.deleted)} record eliminati` : undefined,
        });
      } else {
        toast.error(CLEAR_ERROR_TITLE, { description: done.error ?? undefined });
      }
    },
    onError: (err) => {
      if ((err as Error).name === 'AbortError') return;
      toast.error(CLEAR_ERROR_TITLE, { description: errorMessage(err) });
    },
    onSettled: () => setJob(null),
  });

  return { start: mutation.mutate, clearing: mutation.isPending, job };
}
