import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Tabs } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';
import { MyRequestsTab } from './MyRequestsTab';
import { AssignedOptionsTab, AvailableOptionsTab } from './OptionsTabs';

const TABS = ['requests', 'available', 'assigned'] as const;
type Tab = (typeof TABS)[number];
const isTab = (v: string | null): v is Tab => (TABS as readonly (string | null)[]).includes(v);

/**
 * Opzioni di Acquisto of the agent area: three tabs, 'Le Mie Richieste' by default (the tab
 * is in the address, ?tab=, so Stripe's return pages and the approval e-mail open the right one).
 */
export default function AgentPurchaseOptionsPage() {
  usePageTitle('Opzioni di Acquisto');
  const [params, setParams] = useSearchParams();
  const tab: Tab = isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'requests';
  const [watchPayment, setWatchPayment] = useState(false);

  // back from Stripe Checkout: say what happened once, then drop the parameter
  useEffect(() => {
    const outcome = params.get('pagamento');
    if (!outcome) return;
    if (outcome === 'completato') {
      setWatchPayment(true);
      toast.success('Pagamento inviato', { description: "La richiesta risulterà 'Pagata' appena Stripe conferma il pagamento." });
    } else if (outcome === 'annullato') {
      toast.info('Pagamento annullato', { description: 'Puoi pagare quando vuoi con "Paga Ora".' });
    }
    const next = new URLSearchParams(params);
    next.delete('pagamento');
    setParams(next, { replace: true });
  }, [params, setParams]);

  return (
    <div>
      <h1 className="text-2xl font-bold sm:text-3xl">Opzioni di Acquisto</h1>
      <p className="mt-2 text-slate-700">Gestisci le opzioni di acquisto disponibili e quelle a te assegnate.</p>
      <Tabs
        className="mt-6"
        label="Sezioni delle opzioni di acquisto"
        value={tab}
        onChange={(value) => setParams({ tab: value }, { replace: true })}
        items={[
          { value: 'requests', label: 'Le Mie Richieste', content: <MyRequestsTab watchPayment={watchPayment} />, testId: 'tab-requests' },
          { value: 'available', label: 'Opzioni Disponibili', content: <AvailableOptionsTab />, testId: 'tab-available' },
          { value: 'assigned', label: 'Opzioni in Carico', content: <AssignedOptionsTab />, testId: 'tab-assigned' },
        ]}
      />
    </div>
  );
}
