import { ComingSoon } from '../placeholder/ComingSoon';

export default function SellerDashboardPage() {
  return <ComingSoon width="content" title="Le mie richieste" subtitle="Segui lo stato delle richieste per i tuoi immobili." />;
}
