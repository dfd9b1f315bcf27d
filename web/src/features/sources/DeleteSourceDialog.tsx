import { Trash2 } from 'lucide-react';
import { Button, Dialog } from '@/components/ui';

export const DELETE_CONFIRM_TEXT = 'Sei sicuro di voler eliminare questa fonte?';

/** The spec's confirmation before deleting a source. */
export function DeleteSourceDialog({
  name,
  open,
  deleting,
  onClose,
  onConfirm,
}: {
  name: string;
  open: boolean;
  deleting: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Eliminare la fonte?"
      description={DELETE_CONFIRM_TEXT}
      footer={
        <>
          <Button variant="outline" onClick={onClose} data-testid="source-delete-cancel">
            Annulla
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleting} data-testid="source-delete-confirm">
            <Trash2 aria-hidden="true" className="size-4" />
            Elimina
          </Button>
        </>
      }
    >
      <p className="text-sm break-words text-slate-700">
        Fonte: <strong>{name}</strong>. Le richieste già ricevute restano registrate.
      </p>
    </Dialog>
  );
}
