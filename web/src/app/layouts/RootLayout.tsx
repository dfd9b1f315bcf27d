import { Suspense, type ReactNode } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { LoadingState } from '@/components/ui';
import { Footer } from './Footer';
import { Header } from './Header';

/** The header, the page (`children` in its place while the router loads the first page's module) and the footer. */
export function RootLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-navy shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Vai al contenuto principale
      </a>
      <Header />
      {/* at least as tall as the screen: the footer stays below the fold whatever the page's
          height while it loads, so it never moves into view (no layout shift) */}
      <main id="main-content" tabIndex={-1} className="min-h-dvh flex-1 focus:outline-none">
        <Suspense fallback={<LoadingState className="min-h-dvh" />}>
          {children ?? <Outlet />}
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
