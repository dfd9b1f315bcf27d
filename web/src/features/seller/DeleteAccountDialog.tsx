import { Trash2 } from 'lucide-react';
import type { ErasurePlan } from '@domain/seller';
import { Button, Dialog, ErrorState, LoadingState } from '@/components/ui';

/**
 * Confirmation of the account deletion: says beforehand which case applies (GET /me/erasure):
 * what is erased, what is kept, for what and how long; irreversible. The confirm button
 * waits for the plan: nobody confirms without having read it.
 */
export function DeleteAccountDialog({
  open,
  deleting,
  plan,
  planError,
  onRetryPlan,
  onClose,
  onConfirm,
}: {
  open: boolean;
  deleting: boolean;
  plan: ErasurePlan | undefined;
  planError: unknown;
  onRetryPlan: () => void;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const contract = plan?.case === 'contract';
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!deleting) onClose();
      }}
      title="Eliminare definitivamente l'account?"
      description={
        contract
          ? "L'operazione non si può annullare. Hai un'opzione di acquisto firmata o affidata a un agente: il contratto resta valido e alcuni dati vanno conservati."
          : "L'operazione non si può annullare."
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={deleting}>
            Annulla
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleting} disabled={!plan} data-testid="seller-delete-confirm">
            {!deleting && <Trash2 aria-hidden="true" className="size-4" />}
            {deleting ? 'Eliminazione in corso...' : 'Elimina account'}
          </Button>
        </>
      }
    >
      {planError ? (
        <ErrorState title="Impossibile verificare cosa verrà eliminato" error={planError} onRetry={onRetryPlan} className="p-2" />
      ) : !plan ? (
        <LoadingState className="min-h-24" />
      ) : (
        <div className="space-y-4 text-sm text-slate-800" data-testid="seller-delete-plan" data-case={plan.case}>
          <div>
            <p className="font-semibold">Verranno eliminati:</p>
            <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="seller-delete-list">
              {plan.erased.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </div>
          {contract && plan.keptProperties.length > 0 && (
            <div>
              <p className="font-semibold">Immobili con l&apos;opzione firmata o affidata a un agente:</p>
              <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="seller-delete-kept-properties">
                {plan.keptProperties.map((p) => (
                  <li key={p.id}>{p.city ? `${p.address}, ${p.city}` : p.address}</li>
                ))}
              </ul>
            </div>
          )}
          <div>
            <p className="font-semibold">Cosa resta:</p>
            <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="seller-delete-kept">
              {plan.kept.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </Dialog>
  );
}
