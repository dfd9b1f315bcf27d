import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CheckCircle2, Mail } from 'lucide-react';
import { formatDateTime, formatEuro } from '@domain/format';
import type { RequestDossier } from '@domain/requests';
import { latestAvailable, REVIEW_MESSAGES } from '@domain/review/rules';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { requestKeys, sendEstimate } from './api';
import { Facts } from './parts';

/** Step 2: the estimate e-mail with the registration link; when it went is restored from emailSentAt. */
export function EstimateStep({ dossier }: { dossier: RequestDossier }) {
  const queryClient = useQueryClient();
  const propertyId = dossier.property.id;
  const latest = dossier.valuations.at(-1);
  const valuation = latest?.available ? latest : undefined;
  const sentAt = latestAvailable(dossier.valuations)?.emailSentAt ?? dossier.property.estimateSentAt ?? null;
  const email = dossier.property.email;

  const send = useMutation({
    mutationFn: () => sendEstimate(propertyId),
    onSuccess: (r) => {
      toast.success(REVIEW_MESSAGES.emailSent, {
        description: r.delivery === 'sent' ? `Stima inviata a ${email}` : "L'email partirà al prossimo tentativo automatico",
      });
      void queryClient.invalidateQueries({ queryKey: requestKeys.dossier(propertyId) });
    },
    onError: (err) => toast.error(REVIEW_MESSAGES.emailFailed, { description: errorMessage(err) }),
  });

  return (
    <div className="space-y-4">
      <p className="text-slate-700">
        Il venditore riceve la stima (intervallo, ribasso prudenziale e valore proposto) e il link per registrarsi e vedere l'opzione di acquisto.
      </p>
      <Facts
        rows={[
          { label: 'Destinatario', value: email || 'Email del venditore mancante' },
          { label: 'Valore proposto', value: valuation?.adjustedAvg !== undefined ? formatEuro(valuation.adjustedAvg) : '—' },
          { label: 'Ribasso prudenziale', value: valuation?.cautiousDiscount !== undefined ? `${valuation.cautiousDiscount}%` : '—' },
        ]}
      />
      {sentAt && (
        <p className="flex items-center gap-2 font-medium text-green-800" data-testid="estimate-sent">
          <CheckCircle2 aria-hidden="true" className="size-5" />
          Email inviata il <time dateTime={sentAt}>{formatDateTime(sentAt)}</time>
        </p>
      )}
      {!valuation && <p className="text-sm text-slate-600">Serve una valutazione disponibile per inviare la stima.</p>}
      <Button variant={sentAt ? 'outline' : 'primary'} onClick={() => send.mutate()} loading={send.isPending} disabled={!valuation || !email} data-testid="estimate-send">
        {!send.isPending && <Mail aria-hidden="true" className="size-4" />}
        {sentAt ? 'Invia di nuovo la stima' : 'Invia email di stima'}
      </Button>
    </div>
  );
}
