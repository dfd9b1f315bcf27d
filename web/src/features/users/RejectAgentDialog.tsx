import { X } from 'lucide-react';
import { Button, Dialog } from '@/components/ui';
import type { UserListItem } from './api';
import { displayName } from './use-user-mutations';

/** Confirmation before rejecting a pending agent (the decision cannot be changed from here). */
export function RejectAgentDialog({
  user,
  rejecting,
  onClose,
  onCancel,
  onConfirm,
}: {
  user: UserListItem | null;
  rejecting: boolean;
  onClose: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={user !== null}
      onClose={onClose}
      title="Rifiutare l'agente?"
      description="L'account non verrà approvato e l'agente riceverà un'e-mail. La decisione non si può cambiare da qui."
      footer={
        <>
          <Button variant="outline" onClick={onCancel} data-testid="user-reject-cancel">
            Annulla
          </Button>
          <Button variant="danger" loading={rejecting} onClick={onConfirm} data-testid="user-reject-confirm">
            <X aria-hidden="true" className="size-4" />
            Rifiuta
          </Button>
        </>
      }
    >
      <p className="text-sm break-words text-slate-700">
        Agente: <strong>{user ? displayName(user) : ''}</strong>
        {user?.fullName ? <> ({user.email})</> : null}
      </p>
    </Dialog>
  );
}
