import { FileText, UserRound } from 'lucide-react';
import { toast } from 'sonner';
import { AreaLayout } from '@/app/layouts/AreaLayout';
import { errorMessage } from '@/lib/api';
import { useSignOut } from '@/lib/auth';

const items = [
  { to: '/agent-area/profile', label: 'Profilo Agente', icon: UserRound },
  { to: '/agent-area/purchase-options', label: 'Opzioni di Acquisto', icon: FileText },
] as const;

export default function AgentLayout() {
  const signOut = useSignOut();
  const onLogout = async () => {
    try {
      await signOut({ to: '/' });
      toast.success('Logout effettuato', { description: 'A presto!' });
    } catch (err) {
      toast.error('Errore', { description: errorMessage(err) });
    }
  };
  return <AreaLayout menuTitle="Menu Agente" items={items} onLogout={onLogout} />;
}
