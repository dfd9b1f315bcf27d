import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The element the URL's #hash names, scrolled into view once `ready` (the list that holds it
 * has loaded: the browser's own jump happens before a client-rendered list exists). Returns
 * the id, so the page can mark that element.
 */
export function useScrollToHash(ready: boolean): string | undefined {
  const { hash } = useLocation();
  const id = hash.length > 1 ? decodeURIComponent(hash.slice(1)) : undefined;
  useEffect(() => {
    if (!ready || !id) return;
    const el = document.getElementById(id);
    if (!el) return;
    el.scrollIntoView({ block: 'center' });
    if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  }, [ready, id]);
  return id;
}
