/**
 * Comune names. OMI files write accents as a letter plus a backtick (`FORLI``, `CANTU``)
 * and apostrophes as a backtick too (`SANT`ANATOLIA DI NARCO`); older files mix Latin-1
 * accented letters. The name is kept as published for display; searches and lookups use
 * `comuneSearchKey`, which is case-, accent-, apostrophe- and spacing-insensitive:
 * "Sant'Anatolia di Narco", "SANT`ANATOLIA DI NARCO" and "sant anatolia di narco" all give
 * "santanatoliadinarco"; "Forlì" and "FORLI`" both give "forli".
 */
export function comuneSearchKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * Words of a free text, normalized (lower case, no accents, punctuation as spaces), for
 * matching an address against zone descriptions. Apostrophes and backticks split words:
 * "Via dell'Indipendenza" gives "via dell indipendenza", so a zone named 'INDIPENDENZA'
 * matches it.
 */
export function normalizeWords(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Province code: two letters, upper case. */
export function normalizeProvincia(value: string): string {
  return value.trim().toUpperCase();
}

export const PROVINCIA_PATTERN = /^[A-Z]{2}$/;
