import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** A page's code that could not be fetched: the site was updated while this tab stayed open. */
function isStaleChunk(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(message);
}

/**
 * Last-resort error screen (an exception while rendering a route). The error itself goes to
 * the console, never on screen (its text is the browser's, in English); a page whose code is
 * gone after a release asks for a reload instead.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const stale = isStaleChunk(error);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold text-brand-navy">{stale ? 'È disponibile una nuova versione' : notFound ? 'Pagina non trovata' : 'Si è verificato un errore'}</h1>
      <p className="text-slate-700">
        {stale ? 'Il sito è stato aggiornato: ricarica la pagina per continuare.' : "Ricarica la pagina o torna alla home. Se il problema persiste contatta l'assistenza."}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-lg border border-brand-navy px-4 py-2 font-semibold text-brand-navy hover:bg-slate-50"
        >
          Ricarica la pagina
        </button>
        <a href="/" className="rounded-lg bg-brand-orange-dark px-4 py-2 font-semibold text-white hover:bg-brand-orange-darker">
          Torna alla Home
        </a>
      </div>
    </main>
  );
}
