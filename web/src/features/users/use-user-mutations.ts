import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ROLE_LABELS, type AgentDecision, type Role } from '@domain/users';
import { errorMessage } from '@/lib/api';
import { decideAgent, deleteUser, updateUserRole, userKeys, type UserListItem } from './api';

export const displayName = (u: UserListItem) => u.fullName || u.email;

/**
 * The three writes of the users table: role change, agent approval or rejection, deletion.
 * Each refreshes the list when it settles; `onDecided` and `onDeleted` close their dialogs.
 */
export function useUserMutations({ onDecided, onDeleted }: { onDecided: () => void; onDeleted: () => void }) {
  const queryClient = useQueryClient();
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
      onDecided();
      toast.success(decision === 'approve' ? 'Agente approvato' : 'Agente rifiutato', {
        description: `${displayName(updated)} riceverà un'e-mail con l'esito.`,
      });
    },
    onError: (err, { decision }) => {
      onDecided();
      toast.error(decision === 'approve' ? "Impossibile approvare l'agente" : "Impossibile rifiutare l'agente", { description: errorMessage(err) });
    },
    onSettled: invalidate,
  });

  const remove = useMutation({
    mutationFn: (user: UserListItem) => deleteUser(user.id),
    onSuccess: (_, user) => {
      onDeleted();
      toast.success('Utente eliminato', { description: displayName(user) });
    },
    onError: (err) => {
      onDeleted();
      toast.error("Impossibile eliminare l'utente", { description: errorMessage(err) });
    },
    onSettled: invalidate,
  });

  return { role, decide, remove };
}
