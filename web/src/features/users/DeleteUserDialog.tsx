import { Trash2 } from 'lucide-react';
import { Button, Dialog } from '@/components/ui';
import type { UserListItem } from './api';

/** Confirmation before deleting a user, saying what goes and what stays. */
export function DeleteUserDialog({
  user,
  deleting,
  onClose,
  onConfirm,
}: {
  user: UserListItem | null;
  deleting: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={user !== null}
      onClose={onClose}
      title="Eliminare l'utente?"
      description="Sei sicuro di voler eliminare questo utente? L'operazione non può essere annullata."
      footer={
        <>
          <Button variant="outline" onClick={onClose} data-testid="user-delete-cancel">
            Annulla
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleting} data-testid="user-delete-confirm">
            <Trash2 aria-hidden="true" className="size-4" />
            Elimina
          </Button>
        </>
      }
    >
      <p className="text-sm break-words text-slate-700">
        Utente: <strong>{user?.fullName || user?.email}</strong>
        {user?.fullName ? <> ({user.email})</> : null}
      </p>
      <p className="mt-3 text-sm font-medium text-slate-800">Verranno rimossi:</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
        <li>il profilo (nome, email, dati aziendali);</li>
        <li>i ruoli e i gruppi;</li>
        <li>l&apos;account di accesso: non potrà più entrare.</li>
      </ul>
      <p className="mt-3 text-sm text-slate-700">Le sue richieste di valutazione restano registrate, scollegate dall&apos;utente.</p>
    </Dialog>
  );
}
