import { normalizeWords } from './names';

/**
 * Matching an address to OMI zone descriptions (ZONE files), e.g. zone B15 of Milano is
 * 'CENTRO STORICO - BRERA', C16 'CENISIO, FARINI, SARPI'.
 *
 * A description is split into place names at `,` `-` `/` `(` `)`. A place name matches when
 * all its words appear consecutively in the address (case-, accent- and
 * punctuation-insensitive). A name starting with a street word (via, viale, corso,
 * piazza, ...) also matches on the rest ("CORSO MAGENTA" matches "C.so Magenta 12"), for a
 * lower score. Names shorter than 4 letters, generic words ("centro storico", "zona")
 * and the comune's own name never match. The score is the number of letters matched:
 * the longest place name wins ("Corso Venezia 5" -> 'TURATI, MOSCOVA, CORSO VENEZIA' over
 * 'VENEZIA, PORTA VITTORIA, PORTA ROMANA').
 */
const STREET_WORDS = new Set([
  'via', 'viale', 'v', 'vle', 'corso', 'c', 'so', 'piazza', 'p', 'za', 'pza', 'piazzale', 'largo', 'lgo', 'vicolo',
  'strada', 'str', 'contrada', 'localita', 'loc', 'frazione', 'fraz', 'borgo', 'lungomare', 'lungotevere', 'quartiere', 'q',
]);
const GENERIC = new Set([
  'centro', 'centro storico', 'zona', 'zona agricola', 'periferia', 'semicentro', 'frazioni', 'restante territorio',
  'resto del territorio', 'intero territorio comunale', 'centro urbano', 'area', 'aree', 'zona industriale',
]);

export interface ZoneDescription {
  linkZona: string;
  zonaDescr: string;
}

export interface ZoneMatch {
  linkZona: string;
  /** the place name of the description that matched, as written there */
  matched: string;
  score: number;
}

function placeNames(descr: string): string[] {
  return descr
    .split(/[,\-/()]+/)
    .map((p) => p.trim())
    .filter(Boolean);
}

function containsPhrase(haystack: string, phrase: string): boolean {
  return ` ${haystack} `.includes(` ${phrase} `);
}

/** Zones whose description matches the address, best first (empty when none does). */
export function matchZones(address: string, zones: readonly ZoneDescription[], comune?: string): ZoneMatch[] {
  const addr = normalizeWords(address);
  if (!addr) return [];
  const comuneWords = comune ? normalizeWords(comune) : '';
  const out: ZoneMatch[] = [];
  for (const zone of zones) {
    let best: ZoneMatch | undefined;
    for (const name of placeNames(zone.zonaDescr)) {
      const words = normalizeWords(name);
      if (!words || GENERIC.has(words) || words === comuneWords) continue;
      let score = 0;
      if (words.replace(/ /g, '').length >= 4 && containsPhrase(addr, words)) score = words.replace(/ /g, '').length;
      else {
        const parts = words.split(' ');
        while (parts.length > 1 && STREET_WORDS.has(parts[0]!)) parts.shift();
        const rest = parts.join(' ');
        if (rest !== words && rest.replace(/ /g, '').length >= 4 && !GENERIC.has(rest) && containsPhrase(addr, rest)) {
          score = rest.replace(/ /g, '').length - 0.5;
        }
      }
      if (score > 0 && (!best || score > best.score)) best = { linkZona: zone.linkZona, matched: name, score };
    }
    if (best) out.push(best);
  }
  return out.sort((a, b) => b.score - a.score || a.linkZona.localeCompare(b.linkZona));
}
