import { ComingSoon } from '../placeholder/ComingSoon';

export default function AgentPurchaseOptionsPage() {
  return (
    <ComingSoon
      width="content"
      title="Opzioni di Acquisto"
      subtitle="Gestisci le opzioni di acquisto disponibili e quelle a te assegnate."
    />
  );
}
