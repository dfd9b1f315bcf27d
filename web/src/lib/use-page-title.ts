import { useEffect } from 'react';

export const BRAND_NAME = 'Opzione Casa';

/** Sets the document title for the current page. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | ${BRAND_NAME}` : `${BRAND_NAME} – Valuta e vendi la tua casa con l'opzione di acquisto`;
  }, [title]);
}
