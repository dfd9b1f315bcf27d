import type { ReactNode } from 'react';
import { formatDateTime, formatSlotDate } from '@domain/format';
import { INTEREST_LABELS, VISIT_STATUS_LABELS, type Visit, type VisitStatus } from '@domain/visits';
import { Badge, type BadgeVariant } from '@/components/ui';

const VARIANTS: Record<VisitStatus, BadgeVariant> = { booked: 'success', cancelled: 'secondary', declined: 'destructive', done: 'default' };

/**
 * Visits by date and time, the same on the agent's, the seller's and the admin's pages: when,
 * state, agent, until when it can be cancelled or moved, the seller's reason, the outcome;
 * `actions` adds the page's buttons to a visit.
 */
export function VisitList({ visits, showAgent = true, actions }: { visits: readonly Visit[]; showAgent?: boolean; actions?: (v: Visit) => ReactNode }) {
  return (
    <ul className="divide-y divide-slate-200" data-testid="visit-list">
      {visits.map((v) => (
        <li key={v.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="visit" data-visit-id={v.id} data-status={v.status}>
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-brand-navy">
              {formatSlotDate(v.date)}, {v.start}–{v.end}{' '}
              <Badge variant={VARIANTS[v.status]} className="ml-1 align-middle" data-testid="visit-status">
                {VISIT_STATUS_LABELS[v.status]}
              </Badge>
            </p>
            {showAgent && <p className="text-slate-700">Agente: {v.agentName}</p>}
            {v.status === 'booked' && <p className="text-slate-600">Annullabile o spostabile dall&apos;agente fino al {formatDateTime(v.cutoffAt)}</p>}
            {v.declineReason && <p className="break-words text-slate-700">Motivo del rifiuto: {v.declineReason}</p>}
            {v.outcome && (
              <p className="break-words text-slate-700" data-testid="visit-outcome">
                Esito: {INTEREST_LABELS[v.outcome.interest]}
                {v.outcome.note ? ` · ${v.outcome.note}` : ''}
              </p>
            )}
          </div>
          {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions(v)}</div>}
        </li>
      ))}
    </ul>
  );
}
