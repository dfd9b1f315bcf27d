import { Component, lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, LoadingState } from '@/components/ui';

const PropertyWizard = lazy(() => import('@/components/property-wizard/PropertyWizard'));

/** A failed chunk load (e.g. a release replaced the files while the page was open) asks for a reload. */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <p className="text-slate-800">Non è stato possibile caricare il modulo di candidatura. Ricarica la pagina: i dati già inseriti restano salvati.</p>
        <Button onClick={() => window.location.reload()}>Ricarica la pagina</Button>
      </div>
    );
  }
}

/**
 * Mounts the submission wizard when its section comes near the viewport (or at once when
 * the page opens on #candidatura), so the home route's first load carries neither the
 * wizard nor its form libraries; the comuni list comes later still, with the province.
 */
export function WizardSection() {
  const anchor = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(() => typeof window !== 'undefined' && window.location.hash === '#candidatura');

  useEffect(() => {
    if (show) return;
    const el = anchor.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setShow(true);
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setShow(true);
          io.disconnect();
        }
      },
      { rootMargin: '1200px 0px' },
    );
    io.observe(el);
    // the hero's "Candida il tuo immobile" link jumps here: load at once
    const onHash = () => window.location.hash === '#candidatura' && setShow(true);
    window.addEventListener('hashchange', onHash);
    return () => {
      io.disconnect();
      window.removeEventListener('hashchange', onHash);
    };
  }, [show]);

  const placeholder = (
    <div className="min-h-[32rem] rounded-2xl border border-slate-200 bg-white shadow-sm">
      <LoadingState label="Caricamento del modulo..." className="min-h-[32rem]" />
    </div>
  );

  return (
    <div ref={anchor} data-testid="wizard-section">
      {show ? (
        <LoadFailure>
          <Suspense fallback={placeholder}>
            <PropertyWizard />
          </Suspense>
        </LoadFailure>
      ) : (
        placeholder
      )}
    </div>
  );
}
