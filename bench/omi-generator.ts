/**
 * A national-size OMI VALORI file (and its ZONE file), generated with the real format and
 * its quirks (test/fixtures/omi/README.md): title line, header, `;` with a trailing `;`
 * on every line, ~1,000 rows with `0;0` prices, empty Stato, Stato_prev `P` or a space,
 * backtick accents and apostrophes (`SANT`ANATOLIA`, `FORLI``), Latin-1 bytes for accented
 * letters, decimal-comma rents. 20 regions, 107 provinces, ~7,965 comuni, ~24,400 zones,
 * >= 160,000 rows. Deterministic (seeded): the same seed gives the same file.
 */
import iconv from 'iconv-lite';

export const REGIONS: { area: string; name: string; provs: string[] }[] = [
  { area: 'NORD-OVEST', name: 'PIEMONTE', provs: ['TO', 'VC', 'NO', 'CN', 'AT', 'AL', 'BI', 'VB'] },
  { area: 'NORD-OVEST', name: "VALLE D'AOSTA", provs: ['AO'] },
  { area: 'NORD-OVEST', name: 'LOMBARDIA', provs: ['VA', 'CO', 'SO', 'MI', 'BG', 'BS', 'PV', 'CR', 'MN', 'LC', 'LO', 'MB'] },
  { area: 'NORD-EST', name: 'TRENTINO-ALTO ADIGE', provs: ['BZ', 'TN'] },
  { area: 'NORD-EST', name: 'VENETO', provs: ['VR', 'VI', 'BL', 'TV', 'VE', 'PD', 'RO'] },
  { area: 'NORD-EST', name: 'FRIULI-VENEZIA GIULIA', provs: ['UD', 'GO', 'TS', 'PN'] },
  { area: 'NORD-OVEST', name: 'LIGURIA', provs: ['IM', 'SV', 'GE', 'SP'] },
  { area: 'NORD-EST', name: 'EMILIA-ROMAGNA', provs: ['PC', 'PR', 'RE', 'MO', 'BO', 'FE', 'RA', 'FC', 'RN'] },
  { area: 'CENTRO', name: 'TOSCANA', provs: ['MS', 'LU', 'PT', 'FI', 'LI', 'PI', 'AR', 'SI', 'GR', 'PO'] },
  { area: 'CENTRO', name: 'UMBRIA', provs: ['PG', 'TR'] },
  { area: 'CENTRO', name: 'MARCHE', provs: ['PU', 'AN', 'MC', 'AP', 'FM'] },
  { area: 'CENTRO', name: 'LAZIO', provs: ['VT', 'RI', 'RM', 'LT', 'FR'] },
  { area: 'SUD', name: 'ABRUZZO', provs: ['AQ', 'TE', 'PE', 'CH'] },
  { area: 'SUD', name: 'MOLISE', provs: ['CB', 'IS'] },
  { area: 'SUD', name: 'CAMPANIA', provs: ['CE', 'BN', 'NA', 'AV', 'SA'] },
  { area: 'SUD', name: 'PUGLIA', provs: ['FG', 'BA', 'TA', 'BR', 'LE', 'BT'] },
  { area: 'SUD', name: 'BASILICATA', provs: ['PZ', 'MT'] },
  { area: 'SUD', name: 'CALABRIA', provs: ['CS', 'CZ', 'RC', 'KR', 'VV'] },
  { area: 'ISOLE', name: 'SICILIA', provs: ['TP', 'PA', 'ME', 'AG', 'CL', 'EN', 'CT', 'RG', 'SR'] },
  { area: 'ISOLE', name: 'SARDEGNA', provs: ['SS', 'NU', 'CA', 'OR', 'SU'] },
];

const TYPES: { code: number; descr: string; p: number; factor: number }[] = [
  { code: 20, descr: 'Abitazioni civili', p: 1, factor: 1 },
  { code: 21, descr: 'Abitazioni di tipo economico', p: 0.7, factor: 0.8 },
  { code: 19, descr: 'Abitazioni signorili', p: 0.12, factor: 1.35 },
  { code: 1, descr: 'Ville e Villini', p: 0.5, factor: 1.1 },
  { code: 13, descr: 'Box', p: 0.55, factor: 0.45 },
  { code: 5, descr: 'Negozi', p: 0.5, factor: 1.05 },
  { code: 6, descr: 'Uffici', p: 0.38, factor: 0.95 },
  { code: 9, descr: 'Magazzini', p: 0.3, factor: 0.4 },
  { code: 10, descr: 'Laboratori', p: 0.22, factor: 0.45 },
  { code: 8, descr: 'Capannoni industriali', p: 0.14, factor: 0.35 },
  { code: 7, descr: 'Capannoni tipici', p: 0.07, factor: 0.3 },
  { code: 22, descr: 'Abitazioni tipiche dei luoghi', p: 0.12, factor: 0.9 },
  { code: 14, descr: 'Posti auto coperti', p: 0.05, factor: 0.35 },
];

const SYLLABLES = ['ca', 'sa', 'mon', 'te', 'ri', 'va', 'lo', 'bor', 'go', 'ne', 'pi', 'an', 'to', 'ma', 'ro', 'li', 'ce', 'ver', 'no', 'fi', 'la', 'gra', 'ni', 'po', 'ste', 'rez', 'zo', 'ba', 'gna', 'se', 'di', 'mi', 'tor', 're', 'vi', 'ga', 'del', 'lu', 'cor', 'bel'];
const PREFIXES = ['SAN ', 'SANTA ', 'CASTEL ', 'MONTE ', 'BORGO ', 'VILLA ', 'ROCCA ', 'PIEVE '];
const SUFFIXES = [' DI SOPRA', ' DI SOTTO', ' MARITTIMA', ' SUL MARE', ' AL PIANO', ' TERME', ' SCALO'];
const STREETS = ['VIA ROMA', 'PIAZZA GARIBALDI', 'CORSO ITALIA', 'VIA MAZZINI', 'VIALE EUROPA', 'VIA DANTE', 'STAZIONE', 'OSPEDALE', 'PORTO', 'CASTELLO', 'BORGO ANTICO', 'ZONA INDUSTRIALE', 'COLLINA', 'LUNGOMARE', 'CIMITERO', 'VIA DEI MILLE', 'PIAZZA DUOMO', 'PARCO', 'SANT`ANNA', "LOCALITA' CASE SPARSE"];

/** mulberry32: a small seeded generator, so every run builds the same data */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenRow {
  area: string;
  regione: string;
  prov: string;
  istat: string;
  cat: string;
  amm: string;
  comune: string;
  fascia: string;
  zona: string;
  linkZona: string;
  codTip: number;
  descr: string;
  stato: '' | 'NORMALE' | 'OTTIMO' | 'SCADENTE';
  prev: boolean;
  min: number;
  max: number;
  locMin: number;
  locMax: number;
}

export interface GenZone {
  area: string;
  regione: string;
  prov: string;
  istat: string;
  cat: string;
  amm: string;
  comune: string;
  fascia: string;
  descr: string;
  zona: string;
  linkZona: string;
}

export interface NationalData {
  rows: GenRow[];
  zones: GenZone[];
  comuni: { prov: string; name: string }[];
}

export function generateNational(opts: { seed?: number; comuni?: number; targetZones?: number } = {}): NationalData {
  const rand = rng(opts.seed ?? 20251);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const totalComuni = opts.comuni ?? 7965;
  const provs = REGIONS.flatMap((r, ri) => r.provs.map((p, pi) => ({ region: r, ri, pi, prov: p, weight: 20 + rand() * 160 })));
  const weightSum = provs.reduce((s, p) => s + p.weight, 0);
  const rows: GenRow[] = [];
  const zones: GenZone[] = [];
  const comuniOut: { prov: string; name: string }[] = [];
  let assigned = 0;
  let accentCount = 0;
  provs.forEach((p, idx) => {
    const n = idx === provs.length - 1 ? totalComuni - assigned : Math.max(3, Math.round((p.weight / weightSum) * totalComuni));
    assigned += n;
    const names = new Set<string>();
    let zoneSeq = 0;
    for (let c = 0; c < n; c++) {
      let name = '';
      while (!name || names.has(name)) {
        const syl = 2 + Math.floor(rand() * 3);
        let base = '';
        for (let s = 0; s < syl; s++) base += pick(SYLLABLES);
        base = base.toUpperCase();
        const r = rand();
        if (r < 0.025) name = `SANT\`${base}`;
        else if (r < 0.045) name = `${base.replace(/[AEIOU]$/, '')}U\``; // CANTU` style
        else if (r < 0.06) name = `${base.slice(0, -1)}${pick(['À', 'È', 'Ì', 'Ò', 'Ù'])}`; // Latin-1 byte in the file
        else if (r < 0.2) name = `${pick(PREFIXES)}${base}`;
        else if (r < 0.26) name = `${base}${pick(SUFFIXES)}`;
        else name = base;
      }
      if (/[ÀÈÌÒÙ]/.test(name)) accentCount++;
      names.add(name);
      comuniOut.push({ prov: p.prov, name });
      const capoluogo = c === 0;
      const zoneCount = capoluogo ? (p.prov === 'RM' ? 230 : p.prov === 'MI' ? 42 : 12 + Math.floor(rand() * 40)) : [1, 2, 2, 3, 3, 3, 3, 4][Math.floor(rand() * 8)]!;
      const istat = `${p.ri + 1}${String(p.pi * 97 + 1).padStart(3, '0')}${String(c + 1).padStart(3, '0')}`.replace(/^0+/, '');
      const cat = `${String.fromCharCode(65 + (c % 26))}${c % 10}${String.fromCharCode(65 + (p.pi % 26))}${String.fromCharCode(65 + (p.ri % 26))}`;
      const amm = `${String.fromCharCode(65 + ((c * 7) % 26))}${String(c % 1000).padStart(3, '0')}`;
      const level = (p.region.area === 'ISOLE' || p.region.area === 'SUD' ? 900 : 1400) * (capoluogo ? 1.8 : 1) * (0.6 + rand() * 0.8);
      for (let z = 0; z < zoneCount; z++) {
        const fascia = zoneCount === 1 ? 'B' : z === 0 ? 'B' : z < zoneCount * 0.25 ? 'C' : z < zoneCount * 0.7 ? 'D' : z < zoneCount - 1 ? 'E' : 'R';
        const zona = `${fascia}${z + 1}`;
        zoneSeq++;
        const linkZona = `${p.prov}${String(zoneSeq).padStart(8, '0')}`;
        const zLevel = level * (fascia === 'B' ? 1.3 : fascia === 'C' ? 1.1 : fascia === 'D' ? 0.9 : fascia === 'E' ? 0.75 : 0.55);
        const parts = [pick(STREETS), pick(STREETS), pick(STREETS)].filter((v, i, a) => a.indexOf(v) === i);
        zones.push({ area: p.region.area, regione: p.region.name, prov: p.prov, istat, cat, amm, comune: name, fascia, descr: parts.join(', '), zona, linkZona });
        for (const t of TYPES) {
          if (t.code !== 20 && rand() > t.p) continue;
          const states: { stato: GenRow['stato']; prev: boolean; f: number }[] = [{ stato: 'NORMALE', prev: true, f: 1 }];
          if (rand() < 0.4) states.push({ stato: 'OTTIMO', prev: false, f: 1.3 });
          if (rand() < 0.08) states.push({ stato: 'SCADENTE', prev: false, f: 0.7 });
          if (rand() < 0.004) states[0]!.stato = '';
          for (const s of states) {
            const min = Math.round((zLevel * t.factor * s.f) / 50) * 50;
            const max = Math.round((min * (1.2 + rand() * 0.3)) / 50) * 50;
            const missing = rand() < 0.0063;
            rows.push({
              area: p.region.area, regione: p.region.name, prov: p.prov, istat, cat, amm, comune: name, fascia, zona, linkZona,
              codTip: t.code, descr: t.descr, stato: s.stato, prev: s.prev,
              min: missing ? 0 : min, max: missing ? 0 : max,
              locMin: missing ? 0 : Math.round(min / 28) / 10, locMax: missing ? 0 : Math.round(max / 26) / 10,
            });
          }
        }
      }
    }
  });
  void accentCount;
  return { rows, zones, comuni: comuniOut };
}

const VALORI_HEADER =
  'Area_territoriale;Regione;Prov;Comune_ISTAT;Comune_cat;Sez;Comune_amm;Comune_descrizione;Fascia;Zona;LinkZona;Cod_Tip;Descr_Tipologia;Stato;Stato_prev;Compr_min;Compr_max;Sup_NL_compr;Loc_min;Loc_max;Sup_NL_loc;';
const ZONE_HEADER =
  'Area_territoriale;Regione;Prov;Comune_ISTAT;Comune_cat;Sez;Comune_amm;Comune_descrizione;Fascia;Zona_Descr;Zona;LinkZona;Cod_tip_prev;Descr_tip_prev;Stato_prev;Microzona;';

const dec = (n: number) => (n === 0 ? '0' : String(n).replace('.', ','));

/** The VALORI file, Latin-1 encoded, for a semester like '2025-S1'; prices scaled by `priceFactor`. */
export function valoriFile(data: NationalData, semester: string, priceFactor = 1): Buffer {
  const [year, half] = semester.split('-S');
  const lines = [`Quotazioni Immobiliari : Valori di Mercato - Semestre ${year}/${half} - elaborazione del 23-NOV-25`, VALORI_HEADER];
  for (const r of data.rows) {
    const min = Math.round(r.min * priceFactor);
    const max = Math.round(r.max * priceFactor);
    lines.push(
      `${r.area};${r.regione};${r.prov};${r.istat};${r.cat}; ;${r.amm};${r.comune};${r.fascia};${r.zona};${r.linkZona};${r.codTip};${r.descr};${r.stato};${r.prev ? 'P' : ' '};${min};${max};L;${dec(r.locMin)};${dec(r.locMax)};L;`,
    );
  }
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'latin1');
}

export function zoneFile(data: NationalData, semester: string): Buffer {
  const [year, half] = semester.split('-S');
  const lines = [`Quotazioni Immobiliari : Informazioni di Zona OMI - Semestre ${year}/${half} - elaborazione del 23-NOV-25`, ZONE_HEADER];
  for (const z of data.zones) {
    lines.push(`${z.area};${z.regione};${z.prov};${z.istat};${z.cat}; ;${z.amm};${z.comune};${z.fascia};'${z.descr}';${z.zona};${z.linkZona};20;Abitazioni civili;N;0;`);
  }
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'latin1');
}
