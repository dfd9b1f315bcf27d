import { LayoutDashboard, UserRound } from 'lucide-react';
import { AreaLayout } from '@/app/layouts/AreaLayout';
import { useSignOut } from '@/lib/auth';

const items = [
  { to: '/seller-dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/seller-profile', label: 'Profilo', icon: UserRound },
] as const;

/** Seller area: side menu toggled by Ctrl/Cmd+B, state kept in a cookie for 7 days. */
export default function SellerLayout() {
  const signOut = useSignOut();
  // local sign-out, then a full load of the home page
  const onLogout = () => signOut({ to: '/', fullReload: true });
  return <AreaLayout menuTitle="Menu Venditore" items={items} onLogout={onLogout} collapsibleCookie="sidebar_state" />;
}
