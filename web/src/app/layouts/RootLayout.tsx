import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { LoadingState } from '@/components/ui';
import { Footer } from './Footer';
import { Header } from './Header';

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-navy shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Vai al contenuto principale
      </a>
      <Header />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {/* as tall as the screen: the footer stays below the fold until the page arrives (no layout shift) */}
        <Suspense fallback={<LoadingState className="min-h-dvh" />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
