/** Tying an OMI row to a current comune (domain/omi/comune-match.ts), rule by rule. */
import { describe, expect, it } from 'vitest';
import { comuneIdsOf, matchOmiComune, namesCompatible, omiComuneId, unmatchedComuneId } from '../../functions/domain/omi/comune-match';
import { findComune } from '../../functions/domain/places/comuni';

const ref = (r: Partial<Parameters<typeof matchOmiComune>[0]>) => ({ prov: 'MI', regione: 'LOMBARDIA', comuneIstat: '', comuneAmm: '', comuneDescrizione: '', ...r });

describe('namesCompatible', () => {
  it.each([
    ['San Benedetto del Tronto', 'S BENEDETTO DEL TRONTO'],
    ['Castione della Presolana', 'CASTIONE D PRESOLANA'],
    ["Sant'Anatolia di Narco", 'SANT`ANATOLIA DI NARCO'],
    ['Forlì', 'FORLI`'],
    ['Bolzano/Bozen', 'BOLZANO'],
    ['Bolzano/Bozen', 'BOLZANO .BOZEN.'],
    ["Reggio nell'Emilia", 'REGGIO NELL`EMILIA'],
    // cut at 50 characters by AdE: the last word is a prefix
    ['Cortina sulla Strada del Vino/Kurtinig an der Weinstraße', 'CORTINA SULLA STRADA DEL VINO .KURTINIG AN DER WEINSTRASSE.'.slice(0, 50)],
  ])('%s ~ %s', (istat, omi) => expect(namesCompatible(istat, omi)).toBe(true));

  it.each([
    ['Monza', 'MONZAMBANO'],
    ['San Donato Milanese', 'S DONATO'],
    ['Castione della Presolana', 'CASTIONE'],
    ['Cesena', 'CESENATICO'],
  ])('%s is not %s', (istat, omi) => expect(namesCompatible(istat, omi)).toBe(false));
});

describe('matchOmiComune', () => {
  it('takes the ISTAT code when the comune is the same (cadastral code or name)', () => {
    expect(matchOmiComune(ref({ comuneIstat: '3015146', comuneAmm: 'F205', comuneDescrizione: 'MILANO' }))).toEqual({
      comune: findComune('MI', 'Milano'),
      by: 'istat',
    });
  });

  it('does not trust a code alone: another comune behind a reused code is found by its cadastral code', () => {
    // 015146 is Milano today; a row claiming that code for Monza (F704) is Monza
    const m = matchOmiComune(ref({ comuneIstat: '3015146', comuneAmm: 'F704', comuneDescrizione: 'MONZA' }));
    expect(m).toEqual({ comune: findComune('MB', 'Monza'), by: 'catastale' });
  });

  it('ties a comune that moved province through its cadastral code (Monza MI -> MB)', () => {
    const m = matchOmiComune(ref({ comuneIstat: '3015149', comuneAmm: 'F704', comuneDescrizione: 'MONZA' }));
    expect(m).toEqual({ comune: findComune('MB', 'Monza'), by: 'catastale' });
  });

  it('falls back to the name within the region, abbreviations expanded, when the codes say nothing', () => {
    const m = matchOmiComune(ref({ prov: 'AP', regione: 'MARCHE', comuneIstat: '11044999', comuneAmm: 'Z999', comuneDescrizione: 'S BENEDETTO DEL TRONTO' }));
    expect(m).toEqual({ comune: findComune('AP', 'San Benedetto del Tronto'), by: 'nome' });
    // the region comes from the code's prefix, else from Regione
    expect(matchOmiComune(ref({ prov: 'AP', regione: 'MARCHE', comuneIstat: '', comuneAmm: '', comuneDescrizione: 'S BENEDETTO DEL TRONTO' }))?.by).toBe('nome');
    // not in another region
    expect(matchOmiComune(ref({ prov: 'MI', regione: 'LOMBARDIA', comuneIstat: '3015999', comuneAmm: 'Z999', comuneDescrizione: 'S BENEDETTO DEL TRONTO' }))).toBeNull();
  });

  it('leaves unmatched a name that fits several comuni of the region, and a comune that no longer exists', () => {
    // "S MARTINO" abbreviates many comuni of Piemonte
    expect(matchOmiComune(ref({ prov: 'AT', regione: 'PIEMONTE', comuneIstat: '1005999', comuneAmm: 'Z999', comuneDescrizione: 'S MARTINO ALFIERI' }))?.comune.name).toBe(
      'San Martino Alfieri',
    );
    expect(matchOmiComune(ref({ prov: 'TO', regione: 'PIEMONTE', comuneIstat: '1001999', comuneAmm: 'Z999', comuneDescrizione: 'S' }))).toBeNull();
    // Piovera (AL), merged into Alluvioni Piovera in 2018
    expect(matchOmiComune(ref({ prov: 'AL', regione: 'PIEMONTE', comuneIstat: '1006130', comuneAmm: 'G695', comuneDescrizione: 'PIOVERA' }))).toBeNull();
  });
});

describe('comune ids', () => {
  it('stores a tied row under the ISTAT code and an untied one under province and name', () => {
    expect(omiComuneId(ref({ comuneIstat: '3015149', comuneAmm: 'F704', comuneDescrizione: 'MONZA' }))).toBe('108033');
    expect(omiComuneId(ref({ prov: 'AL', regione: 'PIEMONTE', comuneIstat: '1006130', comuneAmm: 'G695', comuneDescrizione: 'PIOVERA' }))).toBe('AL#piovera');
    expect(unmatchedComuneId('al', 'Piovera')).toBe('AL#piovera');
  });

  it('looks a comune of the form up by its ISTAT code, then by province and name', () => {
    expect(comuneIdsOf('MB', 'Monza')).toEqual(['108033', 'MB#monza']);
    expect(comuneIdsOf('MI', 'Atlantide')).toEqual(['MI#atlantide']);
  });
});
