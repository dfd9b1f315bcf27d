import { Badge, type BadgeVariant } from '@/components/ui';

/** Spec 001, OMI data: OTTIMO default, NORMALE secondary, SCADENTE destructive, anything else outline. */
export function statoVariant(stato: string | null): BadgeVariant {
  switch (stato) {
    case 'OTTIMO':
      return 'default';
    case 'NORMALE':
      return 'secondary';
    case 'SCADENTE':
      return 'destructive';
    default:
      return 'outline';
  }
}

export function StatoBadge({ stato }: { stato: string | null }) {
  return <Badge variant={statoVariant(stato)}>{stato || 'Non indicato'}</Badge>;
}
