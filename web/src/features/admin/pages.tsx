import { Link, useParams } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { ComingSoon } from '../placeholder/ComingSoon';

export function AdminDashboardPage() {
  return <ComingSoon title="Dashboard Admin" subtitle="Tutte le richieste di valutazione, dalla più recente." />;
}

export function UsersPage() {
  return <ComingSoon title="Gestione Utenti" />;
}

export function ActiveOptionsPage() {
  return <ComingSoon title="Opzioni di Acquisto Attive" />;
}

export function InvestigationPage() {
  const { propertyId = '' } = useParams();
  return (
    <ComingSoon
      title="Istruttoria Immobile"
      subtitle={<span className="break-all">Immobile {propertyId}</span>}
      before={
        <Link
          to="/admin"
          className="mb-4 inline-flex items-center gap-1.5 rounded font-medium text-brand-navy hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Torna alla dashboard
        </Link>
      }
    />
  );
}
