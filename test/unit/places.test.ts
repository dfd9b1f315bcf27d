import { describe, expect, it } from 'vitest';
import { loadComuni, provinces, provinceByCode, PLACES_SOURCE } from '../../functions/domain/places';
import { allComuni, comuniOf, findComune, isComuneOf } from '../../functions/domain/places/comuni';

describe('Italian provinces and comuni (ISTAT)', () => {
  it('has all 107 provinces and 7,896 comuni, each in a known province', () => {
    expect(provinces()).toHaveLength(107);
    expect(PLACES_SOURCE).toMatchObject({ comuni: 7896, provinces: 107 });
    const all = allComuni();
    expect(all).toHaveLength(7896);
    const codes = new Set(provinces().map((p) => p.code));
    expect(all.every((c) => codes.has(c.province))).toBe(true);
    expect(new Set(all.map((c) => c.istat)).size).toBe(7896);
  });

  it('covers the 20 regions and orders provinces by name', () => {
    expect(new Set(provinces().map((p) => p.region)).size).toBe(20);
    const names = provinces().map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'it')));
  });

  it('knows provinces by code, with region and ISTAT code', () => {
    expect(provinceByCode('mi')).toEqual({ code: 'MI', name: 'Milano', region: 'Lombardia', istat: '015' });
    expect(provinceByCode('SU')?.region).toBe('Sardegna');
    expect(provinceByCode('XX')).toBeUndefined();
  });

  it('lists the comuni of a province', () => {
    const mi = comuniOf('MI');
    expect(mi.length).toBe(133);
    expect(mi.find((c) => c.name === 'Milano')).toEqual({ name: 'Milano', istat: '015146', province: 'MI' });
    expect(comuniOf('RM').some((c) => c.name === 'Roma')).toBe(true);
    expect(comuniOf('XX')).toEqual([]);
  });

  it('checks that a comune belongs to a province, accent-, case- and backtick-insensitively', () => {
    expect(isComuneOf('MI', 'Milano')).toBe(true);
    expect(isComuneOf('RM', 'Milano')).toBe(false);
    expect(findComune('FC', 'forli')?.name).toBe('Forlì');
    expect(findComune('PG', 'SANT`ANATOLIA DI NARCO')?.name).toBe("Sant'Anatolia di Narco");
    expect(findComune('BZ', 'Bozen')?.name).toBe('Bolzano/Bozen');
    expect(isComuneOf('CO', 'Uggiate con Ronago')).toBe(true);
  });

  it('loads the comuni lazily as one module', async () => {
    const mod = await loadComuni();
    expect(mod.isComuneOf('NA', 'Napoli')).toBe(true);
    expect(await loadComuni()).toBe(mod);
  });
});
