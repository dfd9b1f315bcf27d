import { useCallback, useEffect, useRef } from 'react';

/**
 * An AbortSignal that aborts when the component goes away: polling stops when the page is
 * left (the job itself goes on on the server). Read it when the work starts.
 */
export function useLeaveSignal(): () => AbortSignal | undefined {
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    const c = new AbortController();
    controller.current = c;
    return () => c.abort();
  }, []);
  return useCallback(() => controller.current?.signal, []);
}
