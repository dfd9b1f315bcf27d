import { useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Toaster } from 'sonner';

/** The open modal dialog nearest the top of the top layer (the last opened is the last in it; DOM order is close enough). */
function topModal(): HTMLDialogElement | null {
  const open = [...document.querySelectorAll<HTMLDialogElement>('dialog[open]')];
  const modal = open.filter((d) => {
    try {
      return d.matches(':modal');
    } catch {
      return true; // a browser without :modal: any open dialog
    }
  });
  return modal.at(-1) ?? null;
}

/**
 * The one toaster of the app (sonner), kept above whatever is on screen: a modal <dialog> sits
 * in the browser's top layer and makes the page under it inert, so toasts rendered in the page
 * would show under its backdrop, unclickable and never announced. The toaster's element moves
 * into the open modal dialog while there is one and back to <body> when it closes: the same
 * element (moved, not re-rendered), so a toast shown just before a dialog closes stays.
 */
export function ToasterHost() {
  const [host] = useState(() => {
    const el = document.createElement('div');
    el.dataset.toasterHost = '';
    return el;
  });
  useLayoutEffect(() => {
    const place = () => {
      const target = topModal() ?? document.body;
      if (host.parentElement !== target) target.appendChild(host);
    };
    place();
    // showModal()/close() toggle `open`; a dialog unmounted while open leaves the tree
    const observer = new MutationObserver(place);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    return () => {
      observer.disconnect();
      host.remove();
    };
  }, [host]);
  return createPortal(
    // at the bottom: on a phone a toast at the top covers the header and the page title (the live region is the same)
    <Toaster
      position="bottom-right"
      offset={24}
      mobileOffset={{ bottom: 16, left: 16, right: 16 }}
      closeButton
      containerAriaLabel="Notifiche"
      toastOptions={{ duration: 5000 }}
    />,
    host,
  );
}
