import { Trash2 } from 'lucide-react';
import { Button, Dialog } from '@/components/ui';

/** What DELETE /me removes, in the dialog's words. */
export const REMOVED_DATA = [
  'il profilo',
  'gli immobili e le richieste',
  "le verifiche d'identità",
  'i comproprietari',
  'le deleghe',
  'i documenti, le foto e i video caricati',
  "l'accesso al sito (e-mail e password)",
] as const;

/** Confirmation of the account deletion: lists what goes, irreversible. */
export function DeleteAccountDialog({
  open,
  deleting,
  onClose,
  onConfirm,
}: {
  open: boolean;
  deleting: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!deleting) onClose();
      }}
      title="Eliminare definitivamente l'account?"
      description="L'operazione non si può annullare. Verranno eliminati:"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={deleting}>
            Annulla
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleting} data-testid="seller-delete-confirm">
            {!deleting && <Trash2 aria-hidden="true" className="size-4" />}
            {deleting ? 'Eliminazione in corso...' : 'Elimina account'}
          </Button>
        </>
      }
    >
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" data-testid="seller-delete-list">
        {REMOVED_DATA.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </Dialog>
  );
}
