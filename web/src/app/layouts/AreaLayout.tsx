import { useCallback, useEffect, useId, useState, type ComponentType } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { LogOut, PanelLeft } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface AreaMenuItem {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
}

export interface AreaLayoutProps {
  /** heading and accessible name of the side menu */
  menuTitle: string;
  items: readonly AreaMenuItem[];
  onLogout: () => void | Promise<void>;
  /** when set, the menu can be hidden (button or Ctrl/Cmd+B) and its state is kept in this cookie for 7 days */
  collapsibleCookie?: string;
}

const COOKIE_MAX_AGE = 60 * 60 * 24 * 7;

function readCookie(name: string): string | undefined {
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

const itemClass =
  'flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy';

/** Reserved-area layout: a side menu (a bar on top on small screens) and the page. */
export function AreaLayout({ menuTitle, items, onLogout, collapsibleCookie }: AreaLayoutProps) {
  const menuId = useId();
  const [open, setOpen] = useState(() => !collapsibleCookie || readCookie(collapsibleCookie) !== 'false');

  const toggle = useCallback(() => {
    setOpen((value) => {
      const next = !value;
      if (collapsibleCookie) document.cookie = `${collapsibleCookie}=${next}; path=/; max-age=${COOKIE_MAX_AGE}; SameSite=Lax`;
      return next;
    });
  }, [collapsibleCookie]);

  useEffect(() => {
    if (!collapsibleCookie) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [collapsibleCookie, toggle]);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row md:py-10">
      {collapsibleCookie && (
        <button
          type="button"
          onClick={toggle}
          aria-expanded={open}
          aria-controls={menuId}
          title="Mostra o nascondi il menu (Ctrl+B)"
          className="hidden size-10 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-brand-navy hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy md:inline-flex"
        >
          <PanelLeft aria-hidden="true" className="size-5" />
          <span className="sr-only">{open ? 'Nascondi menu' : 'Mostra menu'}</span>
        </button>
      )}
      <aside id={menuId} className={cn('md:w-60 md:shrink-0', !open && 'md:hidden')}>
        <div className="rounded-2xl border border-slate-200 bg-white p-3 shadow-sm md:sticky md:top-24">
          <h2 className="px-3 pb-2 pt-1 text-xs font-bold uppercase tracking-wider text-slate-600">{menuTitle}</h2>
          <nav aria-label={menuTitle}>
            <ul className="flex flex-wrap gap-1 md:flex-col">
              {items.map(({ to, label, icon: Icon }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    end
                    className={({ isActive }) =>
                      cn(itemClass, isActive ? 'bg-brand-navy text-white' : 'text-slate-800 hover:bg-slate-100')
                    }
                  >
                    <Icon aria-hidden="true" className="size-4" />
                    {label}
                  </NavLink>
                </li>
              ))}
              <li className="md:mt-2 md:border-t md:border-slate-200 md:pt-2">
                <button
                  type="button"
                  onClick={() => void onLogout()}
                  className={cn(itemClass, 'w-full text-red-800 hover:bg-red-50')}
                >
                  <LogOut aria-hidden="true" className="size-4" />
                  Logout
                </button>
              </li>
            </ul>
          </nav>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
