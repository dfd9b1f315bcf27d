import { OPTION_STATE_LABELS, optionStateOf, type OptionState } from '@domain/option-lifecycle';
import { Badge, type BadgeVariant } from '@/components/ui';

const VARIANTS: Record<OptionState, BadgeVariant> = {
  created: 'outline',
  sent: 'secondary',
  signed: 'warning',
  published: 'default',
  assigned: 'success',
  exercised: 'success',
  expired: 'secondary',
  cancelled: 'destructive',
};

/** The option's state as a badge, the same on every admin and seller page. */
export function OptionStateBadge({ status, className }: { status: string; className?: string }) {
  const state = optionStateOf({ status });
  return (
    <Badge variant={VARIANTS[state]} className={className} data-testid="option-state" data-state={state}>
      {OPTION_STATE_LABELS[state]}
    </Badge>
  );
}
