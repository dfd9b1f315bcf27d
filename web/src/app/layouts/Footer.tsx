import { Link } from 'react-router-dom';
import { useConfig } from '@/lib/config';

export function Footer() {
  const { company, privacyUrl } = useConfig();
  const year = new Date().getFullYear();
  const internal = privacyUrl.startsWith('/');
  const linkClass =
    'rounded underline decoration-slate-400 underline-offset-4 hover:text-white hover:decoration-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white';
  return (
    <footer className="mt-auto bg-brand-navy text-slate-200" data-testid="site-footer">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-10 sm:grid-cols-2 sm:px-6">
        <div className="space-y-1 text-sm">
          <p className="text-base font-semibold text-white">{company.name}</p>
          <p>{company.address}</p>
          <p>P.IVA {company.vatNumber}</p>
          {company.email && (
            <p>
              <a href={`mailto:${company.email}`} className={linkClass}>
                {company.email}
              </a>
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2 text-sm sm:items-end">
          <nav aria-label="Informazioni legali">
            {internal ? (
              <Link to={privacyUrl} className={linkClass}>
                Privacy Policy
              </Link>
            ) : (
              <a href={privacyUrl} className={linkClass}>
                Privacy Policy
              </a>
            )}
          </nav>
          <p>
            © {year} {company.name}
          </p>
        </div>
      </div>
    </footer>
  );
}
