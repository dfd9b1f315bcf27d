import { Check, Pencil, Trash2, X } from 'lucide-react';
import { formatDate } from '@domain/format';
import { AGENT_STATUS_LABELS, ROLE_LABELS, ROLES, type Role } from '@domain/users';
import { Badge, Button, CARD_LABEL, Select } from '@/components/ui';
import { USER_TYPE_LABELS } from '@/lib/labels';
import type { UserListItem } from './api';
import { displayName } from './use-user-mutations';

const td = 'px-4 py-3 align-middle max-sm:block max-sm:py-1';

/** What a row does and shows while a write on its user is in flight. */
export interface UserRowProps {
  user: UserListItem;
  /** the signed-in admin's own row */
  self: boolean;
  /** the role shown in the select (the requested one while the change is saved) */
  shownRole: Role;
  roleBusy: boolean;
  decideBusy: boolean;
  approving: boolean;
  onRoleChange: (role: Role) => void;
  onApprove: () => void;
  onReject: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** the row another page linked to (/users#user-{id}) */
  highlighted?: boolean;
}

/** One user of the table (a card on a phone). */
export function UserRow(props: UserRowProps) {
  const { user: u, self } = props;
  return (
    <tr
      id={`user-${u.id}`}
      className={`scroll-mt-24 border-t border-slate-200 max-sm:grid max-sm:grid-cols-1 max-sm:py-3 max-sm:first:border-t-0 ${props.highlighted ? 'bg-sky-50 outline-2 -outline-offset-2 outline-brand-navy' : u.agentStatus === 'pending' ? 'bg-amber-50/60' : ''}`}
      data-testid="user-row"
      data-user-id={u.id}
      data-agent-status={u.agentStatus ?? ''}
    >
      <UserNameCell user={u} self={self} />
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
      <RoleSelectCell {...props} />
      <td className={`${td} max-sm:pt-2`}>
        <div className="flex flex-col items-end gap-2 max-sm:items-start">
          {u.agentStatus === 'pending' && <AgentDecisionButtons {...props} />}
          <UserActions {...props} />
        </div>
      </td>
    </tr>
  );
}

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

function UserNameCell({ user: u, self }: { user: UserListItem; self: boolean }) {
  return (
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
  );
}

/** The role select; an admin cannot take the admin role away from themselves. */
function RoleSelectCell({ user: u, self, shownRole, roleBusy, onRoleChange }: UserRowProps) {
  const selectId = `role-${u.id}`;
  return (
    <td className={`${td} max-sm:py-2`}>
      <label htmlFor={selectId} className="sr-only">
        Ruolo di {displayName(u)}
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
        onChange={(e) => onRoleChange(e.target.value as Role)}
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
  );
}

/** Approve or reject a pending agent. */
function AgentDecisionButtons({ user, decideBusy, approving, onApprove, onReject }: UserRowProps) {
  const name = displayName(user);
  return (
    <div className="flex flex-wrap justify-end gap-2 max-sm:justify-start">
      <Button size="sm" onClick={onApprove} loading={approving} disabled={decideBusy} aria-label={`Approva l'agente ${name}`} data-testid="user-approve">
        <Check aria-hidden="true" className="size-4" />
        Approva
      </Button>
      <Button variant="outline" size="sm" onClick={onReject} disabled={decideBusy} aria-label={`Rifiuta l'agente ${name}`} data-testid="user-reject">
        <X aria-hidden="true" className="size-4" />
        Rifiuta
      </Button>
    </div>
  );
}

/** Edit and delete (an admin cannot delete their own account). */
function UserActions({ user: u, self, onEdit, onDelete }: UserRowProps) {
  const name = displayName(u);
  return (
    <div className="flex gap-2">
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Modifica ${name}`} title="Modifica" data-testid="user-edit" className="sm:px-2.5">
        <Pencil aria-hidden="true" className="size-4" />
        <span className="sm:sr-only">Modifica</span>
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={onDelete}
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
  );
}
