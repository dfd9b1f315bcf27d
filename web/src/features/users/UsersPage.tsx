import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Check, Pencil, Trash2, Users, X } from 'lucide-react';
import { formatDate } from '@domain/format';
import { AGENT_STATUS_LABELS, ROLE_LABELS, ROLES, type AgentDecision, type Role } from '@domain/users';
import { Badge, Button, CARD_LABEL, Card, CardTable, Dialog, EmptyState, ErrorState, LoadingState, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { useSession } from '@/lib/auth';
import { USER_TYPE_LABELS } from '@/lib/labels';
import { usePageTitle } from '@/lib/use-page-title';
import { decideAgent, deleteUser, listUsers, updateUserRole, userKeys, type UserListItem } from './api';
import { DeleteUserDialog } from './DeleteUserDialog';
import { EditUserDialog } from './EditUserDialog';

export const LOAD_ERROR = 'Impossibile caricare gli utenti';

/** Gestione Utenti (admin only, see the route guard): every user, role, edit, delete, agent approval. */
export default function UsersPage() {
  usePageTitle('Gestione Utenti');
  const query = useQuery({ queryKey: userKeys.all, queryFn: ({ signal }) => listUsers(signal) });
  const users = query.data?.items;
  const pending = users?.filter((u) => u.agentStatus === 'pending').length ?? 0;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">Gestione Utenti</h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        Tutti gli utenti registrati: modifica i dati, assegna il ruolo di amministratore, elimina un account. Gli agenti
        immobiliari che si sono registrati attendono la tua approvazione e compaiono per primi.
      </p>
      {pending > 0 && (
        <p className="mt-3 font-medium text-amber-900" data-testid="users-pending-count">
          {pending === 1 ? '1 agente in attesa di approvazione' : `${pending} agenti in attesa di approvazione`}
        </p>
      )}

      <Card className="mt-6 overflow-hidden">
        {query.isPending ? (
          <LoadingState label="Caricamento degli utenti..." className="min-h-48" />
        ) : query.isError ? (
          <ErrorState title={LOAD_ERROR} error={query.error} onRetry={() => void query.refetch()} testId="users-error" />
        ) : users && users.length > 0 ? (
          <UsersTable users={users} />
        ) : (
          <EmptyState icon={Users} title="Nessun utente" testId="users-empty">
            <p className="text-sm text-slate-600">Gli utenti compariranno qui dopo la registrazione.</p>
          </EmptyState>
        )}
      </Card>
    </div>
  );
}

const displayName = (u: UserListItem) => u.fullName || u.email;

/** An e-mail that, when it must wrap, wraps before the @. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

function UsersTable({ users }: { users: UserListItem[] }) {
  const queryClient = useQueryClient();
  const { session } = useSession();
  const [editing, setEditing] = useState<UserListItem | null>(null);
  const [deleting, setDeleting] = useState<UserListItem | null>(null);
  const [rejecting, setRejecting] = useState<UserListItem | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: userKeys.all });

  const role = useMutation({
    mutationFn: ({ user, role }: { user: UserListItem; role: Role }) => updateUserRole(user.id, role),
    onSuccess: (updated) => {
      toast.success('Ruolo aggiornato', { description: `${displayName(updated)}: ${ROLE_LABELS[updated.role]}` });
    },
    // role failures show the server's message
    onError: (err) => toast.error('Errore', { description: errorMessage(err) }),
    onSettled: invalidate,
  });

  const decide = useMutation({
    mutationFn: ({ user, decision }: { user: UserListItem; decision: AgentDecision }) => decideAgent(user.id, decision),
    onSuccess: (updated, { decision }) => {
      setRejecting(null);
      toast.success(decision === 'approve' ? 'Agente approvato' : 'Agente rifiutato', {
        description: `${displayName(updated)} riceverà un'e-mail con l'esito.`,
      });
    },
    onError: (err, { decision }) => {
      setRejecting(null);
      toast.error(decision === 'approve' ? "Impossibile approvare l'agente" : "Impossibile rifiutare l'agente", { description: errorMessage(err) });
    },
    onSettled: invalidate,
  });

  const remove = useMutation({
    mutationFn: (user: UserListItem) => deleteUser(user.id),
    onSuccess: (_, user) => {
      setDeleting(null);
      toast.success('Utente eliminato', { description: displayName(user) });
    },
    onError: (err) => {
      setDeleting(null);
      toast.error("Impossibile eliminare l'utente", { description: errorMessage(err) });
    },
    onSettled: invalidate,
  });

  const th = 'px-4 py-3 text-left font-semibold text-slate-700 whitespace-nowrap';
  const td = 'px-4 py-3 align-middle max-sm:block max-sm:py-1';

  return (
    <>
      <CardTable label="Tabella degli utenti" caption="Utenti: prima gli agenti in attesa di approvazione, poi in ordine di nome" minWidth="sm:min-w-[1000px]" testId="users-table">
        <thead className="bg-slate-50 max-sm:sr-only">
          <tr>
            <th scope="col" className={th}>Nome</th>
            <th scope="col" className={th}>Email</th>
            <th scope="col" className={th}>Tipo utente</th>
            <th scope="col" className={th}>Registrato il</th>
            <th scope="col" className={th}>Ruolo</th>
            <th scope="col" className={th}>Cambia ruolo</th>
            <th scope="col" className={th}>
              <span className="sr-only">Azioni</span>
            </th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {users.map((u) => {
            const self = session?.userId === u.id;
            const name = displayName(u);
            const roleBusy = role.isPending && role.variables?.user.id === u.id;
            const shownRole = roleBusy ? role.variables!.role : u.role;
            const decideBusy = decide.isPending && decide.variables?.user.id === u.id;
            const selectId = `role-${u.id}`;
            return (
              <tr
                key={u.id}
                className={`border-t border-slate-200 max-sm:grid max-sm:grid-cols-1 max-sm:py-3 max-sm:first:border-t-0 ${u.agentStatus === 'pending' ? 'bg-amber-50/60' : ''}`}
                data-testid="user-row"
                data-user-id={u.id}
                data-agent-status={u.agentStatus ?? ''}
              >
                <th scope="row" className={`${td} min-w-36 max-w-52 text-left font-medium break-words text-slate-900 max-sm:max-w-none`}>
                  <span>{u.fullName || <span className="text-slate-600 italic">Senza nome</span>}</span>
                  {u.agentStatus === 'pending' && (
                    <Badge variant="warning" className="mt-1 block w-fit" data-testid="user-pending-badge">
                      {AGENT_STATUS_LABELS.pending}
                    </Badge>
                  )}
                  {u.agentStatus === 'rejected' && (
                    <Badge variant="destructive" className="mt-1 block w-fit">
                      {AGENT_STATUS_LABELS.rejected}
                    </Badge>
                  )}
                  {self && <span className="ml-1 text-xs font-normal text-slate-600">(tu)</span>}
                </th>
                <td className={`${td} text-slate-700 [overflow-wrap:anywhere] sm:min-w-52 sm:max-w-72 ${CARD_LABEL}`} data-label="Email">
                  <EmailText email={u.email} />
                </td>
                <td className={`${td} whitespace-nowrap text-slate-700 ${CARD_LABEL}`} data-label="Tipo utente">
                  {USER_TYPE_LABELS[u.userType] ?? u.userType}
                </td>
                <td className={`${td} whitespace-nowrap text-slate-700 ${CARD_LABEL}`} data-label="Registrato il">
                  {u.createdAt ? <time dateTime={u.createdAt}>{formatDate(u.createdAt)}</time> : '—'}
                </td>
                <td className={`${td} ${CARD_LABEL}`} data-label="Ruolo">
                  <Badge variant={u.role === 'admin' ? 'default' : 'secondary'} data-testid="user-role">
                    {ROLE_LABELS[u.role]}
                  </Badge>
                </td>
                <td className={`${td} max-sm:py-2`}>
                  <label htmlFor={selectId} className="sr-only">
                    Ruolo di {name}
                  </label>
                  <span className="mb-1 hidden text-sm font-semibold text-slate-600 max-sm:block" aria-hidden="true">
                    Cambia ruolo:
                  </span>
                  <Select
                    id={selectId}
                    value={shownRole}
                    disabled={roleBusy || (self && u.role === 'admin')}
                    aria-busy={roleBusy || undefined}
                    aria-describedby={self ? `${selectId}-self` : undefined}
                    onChange={(e) => role.mutate({ user: u, role: e.target.value as Role })}
                    className="h-9 w-44 min-w-44 text-sm max-sm:w-full"
                    data-testid="user-role-select"
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_LABELS[r]}
                      </option>
                    ))}
                  </Select>
                  {self && (
                    <span id={`${selectId}-self`} className="sr-only">
                      Non puoi rimuovere a te stesso il ruolo di amministratore
                    </span>
                  )}
                </td>
                <td className={`${td} max-sm:pt-2`}>
                  <div className="flex flex-col items-end gap-2 max-sm:items-start">
                    {u.agentStatus === 'pending' && (
                      <div className="flex flex-wrap justify-end gap-2 max-sm:justify-start">
                        <Button
                          size="sm"
                          onClick={() => decide.mutate({ user: u, decision: 'approve' })}
                          loading={decideBusy && decide.variables?.decision === 'approve'}
                          disabled={decideBusy}
                          aria-label={`Approva l'agente ${name}`}
                          data-testid="user-approve"
                        >
                          <Check aria-hidden="true" className="size-4" />
                          Approva
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setRejecting(u)}
                          disabled={decideBusy}
                          aria-label={`Rifiuta l'agente ${name}`}
                          data-testid="user-reject"
                        >
                          <X aria-hidden="true" className="size-4" />
                          Rifiuta
                        </Button>
                      </div>
                    )}
                    <div className="flex gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setEditing(u)}
                        aria-label={`Modifica ${name}`}
                        title="Modifica"
                        data-testid="user-edit"
                        className="sm:px-2.5"
                      >
                        <Pencil aria-hidden="true" className="size-4" />
                        <span className="sm:sr-only">Modifica</span>
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setDeleting(u)}
                        disabled={self}
                        title={self ? 'Non puoi eliminare il tuo account' : 'Elimina'}
                        aria-label={`Elimina ${name}`}
                        aria-describedby={self ? `delete-${u.id}-self` : undefined}
                        data-testid="user-delete"
                        className="text-red-700 sm:px-2.5"
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        <span className="sm:sr-only">Elimina</span>
                      </Button>
                      {self && (
                        <span id={`delete-${u.id}-self`} className="sr-only">
                          Non puoi eliminare il tuo account
                        </span>
                      )}
                    </div>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </CardTable>

      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <DeleteUserDialog
        user={deleting}
        deleting={remove.isPending}
        onClose={() => {
          if (!remove.isPending) setDeleting(null);
        }}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
      <Dialog
        open={rejecting !== null}
        onClose={() => {
          if (!decide.isPending) setRejecting(null);
        }}
        title="Rifiutare l'agente?"
        description="L'account non verrà approvato e l'agente riceverà un'e-mail. La decisione non si può cambiare da qui."
        footer={
          <>
            <Button variant="outline" onClick={() => setRejecting(null)} data-testid="user-reject-cancel">
              Annulla
            </Button>
            <Button
              variant="danger"
              loading={decide.isPending}
              onClick={() => rejecting && decide.mutate({ user: rejecting, decision: 'reject' })}
              data-testid="user-reject-confirm"
            >
              <X aria-hidden="true" className="size-4" />
              Rifiuta
            </Button>
          </>
        }
      >
        <p className="text-sm break-words text-slate-700">
          Agente: <strong>{rejecting ? displayName(rejecting) : ''}</strong>
          {rejecting?.fullName ? <> ({rejecting.email})</> : null}
        </p>
      </Dialog>
    </>
  );
}
