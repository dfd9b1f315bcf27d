import { describe, expect, it } from 'vitest';
import { nextRoomName, ROOM_TYPES, ROOM_TYPE_LABELS, roomNames, withRoomNames } from '../../functions/domain/property';

describe('room naming: type plus a sequence number among rooms of the same type', () => {
  it('numbers each type on its own, in the order added', () => {
    expect(roomNames([{ type: 'camera_da_letto' }, { type: 'cucina' }, { type: 'camera_da_letto' }, { type: 'bagno' }, { type: 'camera_da_letto' }])).toEqual([
      'Camera da letto 1',
      'Cucina 1',
      'Camera da letto 2',
      'Bagno 1',
      'Camera da letto 3',
    ]);
  });

  it('renumbers without gaps after a removal', () => {
    const rooms = [{ type: 'bagno' as const }, { type: 'bagno' as const }, { type: 'bagno' as const }];
    expect(roomNames(rooms.filter((_, i) => i !== 0))).toEqual(['Bagno 1', 'Bagno 2']);
  });

  it('names the next room of a type', () => {
    expect(nextRoomName([{ type: 'soggiorno' }, { type: 'cucina' }], 'soggiorno')).toBe('Soggiorno 2');
    expect(nextRoomName([], 'balcone_terrazzo')).toBe('Balcone/Terrazzo 1');
  });

  it('has the 11 room types of the spec with their labels', () => {
    expect(ROOM_TYPES.map((t) => ROOM_TYPE_LABELS[t])).toEqual([
      'Soggiorno', 'Cucina', 'Camera da letto', 'Bagno', 'Balcone/Terrazzo', 'Cantina', 'Garage', 'Esterno fabbricato', 'Mappe', 'Planimetrie', 'Altro',
    ]);
  });

  it('attaches names to room objects', () => {
    expect(withRoomNames([{ id: 'a', type: 'cantina' as const }])).toEqual([{ id: 'a', type: 'cantina', name: 'Cantina 1' }]);
  });
});
