import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Last-resort error screen (an exception while rendering a route). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : (error as Error)?.message;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold text-brand-navy">Si è verificato un errore</h1>
      <p className="text-slate-700">Ricarica la pagina o torna alla home. Se il problema persiste contatta l&apos;assistenza.</p>
      {detail && <p className="text-sm text-slate-600">{detail}</p>}
      <a href="/" className="rounded-lg bg-brand-orange-dark px-4 py-2 font-semibold text-white hover:bg-brand-orange-darker">
        Torna alla Home
      </a>
    </main>
  );
}
