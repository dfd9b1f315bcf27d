/**
 * Regenerates functions/domain/places/cadastral.json: the cadastral code (codice catastale,
 * "Belfiore") of every comune of comuni.json, from the ISTAT list "Elenco comuni italiani"
 * (column "Codice Catastale del comune") as shipped by the npm package codice-fiscale-js
 * (src/lista-comuni.js: code, sigla, name, 1 for a current comune).
 *
 *   cd /tmp && npm pack codice-fiscale-js && tar xzf codice-fiscale-js-*.tgz
 *   npx tsx scripts/build-cadastral.ts /tmp/package
 *
 * The OMI files carry the code in `Comune_amm`: it names a comune for the Agenzia delle
 * Entrate and does not change when the comune moves to a new province (Monza MI -> MB,
 * Barletta BA -> BT, Carbonia CA -> CI -> SU), while its ISTAT code does. The import ties
 * each OMI row to a current comune through it (domain/omi/comune-match.ts).
 *
 * Output: per province sigla, the codes of its comuni concatenated (4 characters each) in
 * the order of comuni.json, so the server carries ~32 KB rather than a keyed map. The
 * package is not a dependency of the project; every comune of comuni.json must get a code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comuneSearchKey } from '../functions/domain/omi/names';
import { comuniOf } from '../functions/domain/places/comuni';
import { PROVINCES } from '../functions/domain/places/provinces';

const pkgDir = path.resolve(process.argv[2] ?? '/tmp/package');
const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string };
const source = readFileSync(path.join(pkgDir, 'src/lista-comuni.js'), 'utf8');
const ENTRY = /\['([A-Z]\d{3})', '([A-Z]{2})', (?:'((?:[^'\\]|\\.)*)'|"([^"]*)"), ([01])\]/g;

/** current comuni: sigla + name key -> cadastral code */
const current = new Map<string, string>();
for (const m of source.matchAll(ENTRY)) {
  if (m[5] !== '1') continue;
  const name = (m[3] ?? m[4])!.replace(/\\'/g, "'");
  current.set(`${m[2]}|${comuneSearchKey(name)}`, m[1]!);
}

const out: Record<string, string> = {};
const missing: string[] = [];
for (const p of PROVINCES) {
  out[p.code] = comuniOf(p.code)
    .map((c) => {
      // the package writes bilingual comuni by one of their names ("BOLZANO", "SAN CANDIDO")
      const keys = [c.name, ...c.name.split('/'), ...c.name.split('-')].map(comuneSearchKey);
      const code = keys.map((k) => current.get(`${p.code}|${k}`)).find(Boolean);
      if (!code) missing.push(`${p.code} ${c.name}`);
      return code ?? '????';
    })
    .join('');
}
if (missing.length) throw new Error(`No cadastral code for: ${missing.join(', ')}`);

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../functions/domain/places');
writeFileSync(path.join(outDir, 'cadastral.json'), `${JSON.stringify(out)}\n`);
console.log(`cadastral codes of ${Object.values(out).join('').length / 4} comuni from ${pkg.name}@${pkg.version} -> ${outDir}`);
