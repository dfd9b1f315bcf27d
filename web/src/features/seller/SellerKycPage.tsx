import { ComingSoon } from '../placeholder/ComingSoon';

export default function SellerKycPage() {
  return (
    <ComingSoon
      title="Completa la tua pratica"
      subtitle="Verifica dell'identità, comproprietari, deleghe e firma dell'opzione di acquisto."
    />
  );
}
