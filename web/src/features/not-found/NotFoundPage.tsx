import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Home } from 'lucide-react';
import { ButtonLink } from '@/components/ui';
import { usePageTitle } from '@/lib/use-page-title';

export default function NotFoundPage() {
  usePageTitle('Pagina non trovata');
  const location = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <h1 className="flex flex-col items-center gap-3">
        <span className="text-7xl font-extrabold tracking-tight text-brand-navy">404</span>
        <span className="text-xl font-semibold text-slate-800" lang="en">
          Oops! Page not found
        </span>
      </h1>
      <p className="mt-4 text-slate-700">La pagina che cerchi non esiste o è stata spostata.</p>
      <ButtonLink to="/" className="mt-8" size="lg" data-testid="not-found-home">
        <Home aria-hidden="true" className="size-5" />
        Torna alla Home
      </ButtonLink>
    </div>
  );
}
