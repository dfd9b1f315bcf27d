import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { Card, CardTable, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { useSession } from '@/lib/auth';
import { usePageTitle } from '@/lib/use-page-title';
import { useScrollToHash } from '@/lib/use-scroll-to-hash';
import { listUsers, userKeys, type UserListItem } from './api';
import { DeleteUserDialog } from './DeleteUserDialog';
import { EditUserDialog } from './EditUserDialog';
import { RejectAgentDialog } from './RejectAgentDialog';
import { UserRow } from './UserRow';
import { useUserMutations } from './use-user-mutations';

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

/** The users, their role and the actions on each; the dialogs of edit, delete and rejection. */
function UsersTable({ users }: { users: UserListItem[] }) {
  const { session } = useSession();
  const [editing, setEditing] = useState<UserListItem | null>(null);
  const [deleting, setDeleting] = useState<UserListItem | null>(null);
  const [rejecting, setRejecting] = useState<UserListItem | null>(null);
  const { role, decide, remove } = useUserMutations({ onDecided: () => setRejecting(null), onDeleted: () => setDeleting(null) });
  // another page's link to one user (an agent's request on /active-options): scrolled to and marked
  const target = useScrollToHash(true);

  return (
    <>
      <CardTable label="Tabella degli utenti" caption="Utenti: prima gli agenti in attesa di approvazione, poi in ordine di nome" minWidth="sm:min-w-[1000px]" testId="users-table">
        <UsersTableHead />
        <tbody className="max-sm:block">
          {users.map((u) => {
            const roleBusy = role.isPending && role.variables?.user.id === u.id;
            const decideBusy = decide.isPending && decide.variables?.user.id === u.id;
            return (
              <UserRow
                key={u.id}
                user={u}
                self={session?.userId === u.id}
                highlighted={target === `user-${u.id}`}
                shownRole={roleBusy ? role.variables!.role : u.role}
                roleBusy={roleBusy}
                decideBusy={decideBusy}
                approving={decideBusy && decide.variables?.decision === 'approve'}
                onRoleChange={(r) => role.mutate({ user: u, role: r })}
                onApprove={() => decide.mutate({ user: u, decision: 'approve' })}
                onReject={() => setRejecting(u)}
                onEdit={() => setEditing(u)}
                onDelete={() => setDeleting(u)}
              />
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
      <RejectAgentDialog
        user={rejecting}
        rejecting={decide.isPending}
        onClose={() => {
          if (!decide.isPending) setRejecting(null);
        }}
        onCancel={() => setRejecting(null)}
        onConfirm={() => rejecting && decide.mutate({ user: rejecting, decision: 'reject' })}
      />
    </>
  );
}

const th = 'px-4 py-3 text-left font-semibold text-slate-700 whitespace-nowrap';

function UsersTableHead() {
  return (
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
  );
}
