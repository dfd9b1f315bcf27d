import { ComingSoon } from '../placeholder/ComingSoon';

export default function AvailabilityPage() {
  return (
    <ComingSoon
      title="Le tue disponibilità"
      subtitle="Indica i giorni e gli orari in cui l'immobile può essere visitato."
    />
  );
}
