// first: before any module creates a zod schema (see the module)
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/App';
import { configureAmplify } from './lib/amplify';
import { loadConfig } from './lib/config';

function BootError() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold text-brand-navy">Servizio momentaneamente non disponibile</h1>
      <p className="text-slate-700">Non è stato possibile caricare la configurazione dell&apos;applicazione. Riprova tra qualche minuto.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-lg bg-brand-orange-dark px-4 py-2 font-semibold text-white hover:bg-brand-orange-darker focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-navy focus-visible:ring-offset-2"
      >
        Riprova
      </button>
    </main>
  );
}

async function boot() {
  const root = createRoot(document.getElementById('root')!);
  try {
    const config = await loadConfig();
    configureAmplify(config);
  } catch (err) {
    console.error('Boot failed:', err);
    root.render(<BootError />);
    return;
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
