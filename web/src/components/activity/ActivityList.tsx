import { Link } from 'react-router-dom';
import { formatDateTime } from '@domain/format';
import { ACTOR_LABELS, activityKindLabel, activityTransitionText, type ActivityEntry } from '@domain/activity';

/**
 * The activity history as a list (newest first as given): when, what, who, the state before
 * and after and the note. `withProperty` links each entry to its request (the admins' feed).
 */
export function ActivityList({ entries, withProperty = false }: { entries: readonly ActivityEntry[]; withProperty?: boolean }) {
  return (
    <ol className="divide-y divide-slate-200" data-testid="activity-list">
      {entries.map((e) => {
        const transition = activityTransitionText(e);
        const who = e.actor.name ? `${ACTOR_LABELS[e.actor.role]} (${e.actor.name})` : ACTOR_LABELS[e.actor.role];
        return (
          <li key={e.id} className="py-3" data-testid="activity-entry" data-kind={e.kind}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <p className="font-semibold text-brand-navy">{activityKindLabel(e.kind)}</p>
              <time dateTime={e.at} className="text-sm tabular-nums text-slate-600">
                {formatDateTime(e.at)}
              </time>
            </div>
            <p className="text-sm text-slate-700">
              {who}
              {transition && (
                <>
                  {' · '}
                  <span data-testid="activity-transition">{transition}</span>
                </>
              )}
            </p>
            {e.note && <p className="mt-0.5 text-sm break-words text-slate-700">{e.note}</p>}
            {withProperty && e.propertyId && (
              <Link to={`/investigation/${e.propertyId}`} className="mt-0.5 inline-block text-sm font-medium text-brand-navy underline underline-offset-2">
                {e.propertyLabel ? `Apri la richiesta: ${e.propertyLabel}` : 'Apri la richiesta'}
              </Link>
            )}
          </li>
        );
      })}
    </ol>
  );
}
