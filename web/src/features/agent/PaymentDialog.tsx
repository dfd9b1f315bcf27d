import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, Copy, CreditCard, Landmark } from 'lucide-react';
import { formatDecimal, formatEuroCents } from '@domain/format';
import { AGENT_MESSAGES, type AgentRequestView } from '@domain/agent-requests';
import { Button, Dialog } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { useConfig } from '@/lib/config';
import { createCardPayment } from './api';

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success('Copiato!');
    } catch {
      toast.error('Errore', { description: 'Copia non riuscita: seleziona il testo e copialo a mano.' });
    }
  };
  return (
    <div className="py-3">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="flex items-start justify-between gap-3">
        <span className="min-w-0 break-all font-mono text-base font-semibold text-slate-900 select-all" data-testid={testId}>
          {value}
        </span>
        <Button variant="ghost" size="sm" onClick={() => void copy()} aria-label={`Copia ${label.toLowerCase()}`}>
          <Copy aria-hidden="true" className="size-4" />
        </Button>
      </dd>
    </div>
  );
}

/**
 * 'Scegli Metodo di Pagamento' for a request awaiting payment: card (a Stripe Checkout page in
 * a new tab; "not configured" without Stripe) or bank transfer (the account from the runtime
 * config, reference "OPZ-" + the first 8 characters of the request id, the commission amount).
 */
export function PaymentDialog({ request, onClose }: { request: AgentRequestView | null; onClose: () => void }) {
  const { payments } = useConfig();
  const [method, setMethod] = useState<'choose' | 'bank'>('choose');
  const close = () => {
    setMethod('choose');
    onClose();
  };
  const card = useMutation({
    mutationFn: async ({ r, tab }: { r: AgentRequestView; tab: Window | null }) => {
      try {
        const { url } = await createCardPayment(r.id);
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else window.location.assign(url);
      } catch (err) {
        tab?.close();
        throw err;
      }
    },
    onError: (err) => toast.error(AGENT_MESSAGES.paymentLinkFailed, { description: errorMessage(err) }),
  });

  const place = request ? (request.propertyCity ? `${request.propertyAddress}, ${request.propertyCity}` : request.propertyAddress) : '';
  return (
    <Dialog
      open={request !== null}
      onClose={close}
      title="Scegli Metodo di Pagamento"
      description={request ? `${place}: provvigione del ${formatDecimal(request.requestedCommissionPercentage)}%, ${formatEuroCents(request.commissionAmount)}` : undefined}
    >
      {request && method === 'choose' && (
        <div className="grid gap-3" data-testid="payment-methods">
          <div>
            <Button
              variant="outline"
              className="h-auto w-full justify-start py-4 text-left"
              onClick={() => {
                // the tab opens now, in the click, so no popup blocker stops it; the URL follows
                card.mutate({ r: request, tab: window.open('', '_blank') });
              }}
              loading={card.isPending}
              disabled={!payments.card}
              aria-describedby={payments.card ? undefined : 'card-off'}
              data-testid="pay-card"
            >
              {!card.isPending && <CreditCard aria-hidden="true" className="size-5 shrink-0" />}
              <span>
                <span className="block text-base">Carta di credito o debito</span>
                <span className="block text-sm font-normal text-slate-600">Pagamento sicuro con Stripe, in una nuova scheda</span>
              </span>
            </Button>
            {!payments.card && (
              <p id="card-off" className="mt-1 text-sm text-slate-700" data-testid="card-not-configured">
                Il pagamento con carta non è configurato: usa il bonifico bancario.
              </p>
            )}
          </div>
          <Button variant="outline" className="h-auto w-full justify-start py-4 text-left" onClick={() => setMethod('bank')} data-testid="pay-bank">
            <Landmark aria-hidden="true" className="size-5 shrink-0" />
            <span>
              <span className="block text-base">Bonifico bancario</span>
              <span className="block text-sm font-normal text-slate-600">L&apos;amministratore conferma il pagamento all&apos;arrivo del bonifico</span>
            </span>
          </Button>
        </div>
      )}
      {request && method === 'bank' && (
        <div data-testid="bank-transfer">
          <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 px-4">
            <CopyRow label="Intestatario" value={payments.bankTransfer.beneficiary} testId="bank-beneficiary" />
            <CopyRow label="IBAN" value={payments.bankTransfer.iban} testId="bank-iban" />
            <CopyRow label="Causale" value={request.reference} testId="bank-reference" />
            <CopyRow label="Importo" value={formatEuroCents(request.commissionAmount)} testId="bank-amount" />
          </dl>
          <p className="mt-3 text-sm text-slate-700">
            Indica la causale esattamente come sopra. All&apos;arrivo del bonifico l&apos;amministratore registra il pagamento e l&apos;opzione
            passa in &quot;Opzioni in Carico&quot;.
          </p>
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={() => setMethod('choose')}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              Indietro
            </Button>
            <Button variant="secondary" onClick={close}>
              Chiudi
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
