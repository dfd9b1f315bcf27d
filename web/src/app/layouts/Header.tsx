import { Link, useLocation } from 'react-router-dom';
import { LayoutDashboard, LogIn, LogOut } from 'lucide-react';
import { toast } from 'sonner';
import { Button, ButtonLink } from '@/components/ui';
import { errorMessage } from '@/lib/api';
import { useMe, useSession, useSignOut } from '@/lib/auth';
import { BRAND_NAME } from '@/lib/use-page-title';
import { areaFor } from '@/lib/post-sign-in';
import { Logo } from './Logo';

export function Header() {
  const { session, isLoading } = useSession();
  const me = useMe();
  const signOut = useSignOut();
  const { pathname } = useLocation();
  // the sign-in pages have their own form: no header button there
  const onSignInPage = pathname === '/auth' || pathname === '/seller-register';
  const area = session ? areaFor({ groups: me.data?.groups ?? session.groups, userType: me.data?.userType }) : null;

  const onLogout = async () => {
    try {
      await signOut({ to: '/' });
      toast.success('Logout effettuato', { description: 'A presto!' });
    } catch (err) {
      toast.error('Errore', { description: errorMessage(err) });
    }
  };

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:h-18 sm:px-6">
        <Link
          to="/"
          data-testid="header-logo"
          className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:ring-offset-2"
        >
          <Logo />
          <span className="sr-only">{BRAND_NAME} – Home</span>
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          {isLoading ? (
            <span className="h-9 w-24" aria-hidden="true" />
          ) : session ? (
            <>
              {area && (
                <ButtonLink to={area} variant="ghost" size="sm" data-testid="header-area">
                  <LayoutDashboard aria-hidden="true" className="size-4" />
                  <span className="sr-only sm:not-sr-only">La mia area</span>
                </ButtonLink>
              )}
              <Button variant="outline" size="sm" onClick={onLogout} data-testid="header-logout">
                <LogOut aria-hidden="true" className="size-4" />
                Logout
              </Button>
            </>
          ) : onSignInPage ? null : (
            <ButtonLink to="/auth" variant="primary" size="sm" data-testid="header-login">
              <LogIn aria-hidden="true" className="size-4" />
              Accedi
            </ButtonLink>
          )}
        </nav>
      </div>
    </header>
  );
}
