import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trash2, UserCheck } from 'lucide-react';
import { DELETE_CONFIRM_WORD, isDeleteConfirmed, REQUEST_MESSAGES } from '@domain/requests';
import { Button, Dialog, Field, Input, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { listUsers, requestKeys, type UserListItem } from './api';

/** Deleting a request: the admin types 'elimina' (any case); confirm stays disabled until then. */
export function DeleteRequestDialog({
  label,
  open,
  deleting,
  onClose,
  onConfirm,
}: {
  label: string;
  open: boolean;
  deleting: boolean;
  onClose: () => void;
  onConfirm: (typed: string) => void;
}) {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (open) setTyped('');
  }, [open]);
  const ok = isDeleteConfirmed(typed);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Eliminare la richiesta?"
      description="La richiesta, le sue stanze, foto, valutazioni e documenti verranno eliminati definitivamente."
      footer={
        <>
          <Button variant="outline" onClick={onClose} data-testid="request-delete-cancel">
            Annulla
          </Button>
          <Button variant="danger" onClick={() => onConfirm(typed)} disabled={!ok} loading={deleting} data-testid="request-delete-confirm">
            <Trash2 aria-hidden="true" className="size-4" />
            Elimina
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (ok && !deleting) onConfirm(typed);
        }}
        className="space-y-3"
      >
        <p className="text-sm break-words text-slate-700">
          Richiesta: <strong>{label}</strong>
        </p>
        <Field label={<>Per confermare scrivi <strong>{DELETE_CONFIRM_WORD}</strong></>}>
          <Input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus data-testid="request-delete-word" />
        </Field>
      </form>
    </Dialog>
  );
}

const userLabel = (u: UserListItem) => (u.fullName ? `${u.fullName} (${u.email})` : u.email);

/** Assigning the request to a user: the list of users, first option 'Nessun utente' (refused). */
export function AssignUserDialog({
  open,
  currentUserId,
  assigning,
  onClose,
  onAssign,
}: {
  open: boolean;
  currentUserId: string | null;
  assigning: boolean;
  onClose: () => void;
  onAssign: (userId: string) => void;
}) {
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();
  useEffect(() => {
    if (open) {
      setUserId(currentUserId ?? '');
      setError(undefined);
    }
  }, [open, currentUserId]);
  const users = useQuery({ queryKey: requestKeys.users, queryFn: ({ signal }) => listUsers(signal), enabled: open, staleTime: 60_000 });

  const submit = () => {
    if (!userId) {
      // said under the field, in the dialog (a toast with the same words would repeat it)
      setError(REQUEST_MESSAGES.userRequired);
      return;
    }
    onAssign(userId);
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Assegna utente"
      description="L'utente scelto diventa il titolare della richiesta."
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Annulla
          </Button>
          <Button type="submit" form={formId} variant="secondary" loading={assigning} disabled={users.isPending} data-testid="assign-confirm">
            <UserCheck aria-hidden="true" className="size-4" />
            Assegna
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Field
          label="Utente"
          error={error ?? (users.isError ? `Impossibile caricare gli utenti: ${errorMessage(users.error)}` : undefined)}
          hint={users.isPending ? 'Caricamento degli utenti...' : undefined}
        >
          <Select
            value={userId}
            onChange={(e) => {
              setUserId(e.target.value);
              setError(undefined);
            }}
            data-testid="assign-user"
          >
            <option value="">Nessun utente</option>
            {(users.data?.items ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {userLabel(u)}
              </option>
            ))}
          </Select>
        </Field>
      </form>
    </Dialog>
  );
}
