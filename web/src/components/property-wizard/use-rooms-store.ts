import { useEffect, useState, useSyncExternalStore } from 'react';
import type { StoredRoom } from './draft';
import { RoomsStore } from './rooms-store';

/** Step 4's rooms and uploads for the component's life (uploads aborted when it goes away). */
export function useRoomsStore(draftId: string, rooms: StoredRoom[]) {
  const [store] = useState(() => new RoomsStore(draftId, rooms));
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  useEffect(() => () => store.dispose(), [store]);
  return { store, snapshot };
}
