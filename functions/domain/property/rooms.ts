import { ROOM_TYPE_LABELS, type RoomType } from './enums';

/**
 * Room names (spec 000 section 3): the type's label plus a sequence number among the rooms
 * of the same type, in the order the rooms were added: 'Camera da letto 1',
 * 'Camera da letto 2', 'Cucina 1'. Removing a room renumbers the following ones of its
 * type, so the names always run 1..n without gaps. The SPA and the server share this.
 */
export function roomNames(rooms: readonly { type: RoomType }[]): string[] {
  const seen = new Map<RoomType, number>();
  return rooms.map(({ type }) => {
    const n = (seen.get(type) ?? 0) + 1;
    seen.set(type, n);
    return `${ROOM_TYPE_LABELS[type]} ${n}`;
  });
}

/** The name a new room of this type gets when appended to the list. */
export function nextRoomName(rooms: readonly { type: RoomType }[], type: RoomType): string {
  return roomNames([...rooms, { type }]).at(-1)!;
}

/** The rooms with their names. */
export function withRoomNames<R extends { type: RoomType }>(rooms: readonly R[]): (R & { name: string })[] {
  const names = roomNames(rooms);
  return rooms.map((r, i) => ({ ...r, name: names[i]! }));
}
