import { Trash2 } from 'lucide-react';
import { Button, Dialog } from '@/components/ui';

export const CLEAR_CONFIRM_TEXT = 'Sei sicuro di voler cancellare tutti i dati OMI? Questa azione non può essere annullata.';

/** The spec's confirmation before "Cancella Tutti i Dati". */
export function ClearConfirmDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Cancellare tutti i dati OMI?"
      description={CLEAR_CONFIRM_TEXT}
      footer={
        <>
          <Button variant="outline" onClick={onClose} data-testid="omi-clear-cancel">
            Annulla
          </Button>
          <Button variant="danger" onClick={onConfirm} data-testid="omi-clear-confirm">
            <Trash2 aria-hidden="true" className="size-4" />
            Cancella Tutti i Dati
          </Button>
        </>
      }
    />
  );
}
