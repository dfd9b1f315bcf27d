import { useSyncExternalStore } from 'react';
import { toOptionDuration, type OptionDuration } from '@domain/fees';

/**
 * The option duration the person chose in the home simulator or the wizard, shared by the
 * two (same page, the wizard loaded later) and kept for the browser tab: the wizard's
 * `optionDuration` follows the simulator and the simulator the wizard.
 */
const STORAGE_KEY = 'option-duration';
const listeners = new Set<() => void>();

function read(): OptionDuration | null {
  try {
    return toOptionDuration(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

let chosen: OptionDuration | null = typeof window === 'undefined' ? null : read();

/** The duration chosen in this tab, or null when none was chosen yet. */
export function chosenOptionDuration(): OptionDuration | null {
  return chosen;
}

export function chooseOptionDuration(months: OptionDuration): void {
  if (chosen === months) return;
  chosen = months;
  try {
    sessionStorage.setItem(STORAGE_KEY, String(months));
  } catch {
    // storage unavailable (private mode): the choice still holds for this page
  }
  for (const l of listeners) l();
}

export function subscribeOptionDuration(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen duration, re-rendering on each choice. */
export function useChosenOptionDuration(): OptionDuration | null {
  return useSyncExternalStore(subscribeOptionDuration, chosenOptionDuration, () => null);
}
