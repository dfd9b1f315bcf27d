/**
 * The real OMI files the tests and the benchmark use, shipped in test/fixtures/omi (source
 * and checksums in its README). The national 2017/2 archive is extracted once per machine
 * into the temp folder, keyed by its checksum.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

export const OMI_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'omi');

/** Comune di Milano, 2025/1 and 2024/2 (446 rows each), and its 2025/1 zones (43). */
export const MILANO = {
  valori2025: path.join(OMI_FIXTURES, 'QI_1292013_1_20251_VALORI.csv'),
  valori2024: path.join(OMI_FIXTURES, 'QI_1292023_1_20242_VALORI.csv'),
  zone2025: path.join(OMI_FIXTURES, 'QI_1292013_1_20251_ZONE.csv'),
  /** crafted from zone2025 (test/fixtures/omi/README.md): B12 described as another area, B13 reworded */
  zone2024Redrawn: path.join(OMI_FIXTURES, 'QI_1292023_1_20242_ZONE.csv'),
};

export const NATIONAL_ZIP = path.join(OMI_FIXTURES, 'national-2017-2.zip');

/** The whole of Italy, 2017/2: VALORI (162,080 rows) and ZONE (27,356 rows), as files on disk. */
export function nationalSample(): { valori: string; zone: string } {
  const zip = readFileSync(NATIONAL_ZIP);
  const sum = createHash('sha256').update(zip).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `omi-national-2017-2-${sum}`);
  const valori = path.join(dir, 'QI_294581_1_20172_VALORI.csv');
  const zone = path.join(dir, 'QI_294581_1_20172_ZONE.csv');
  if (!existsSync(valori) || !existsSync(zone)) {
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(unzipSync(zip))) {
      // write then rename: a concurrent reader never sees half a file
      const tmp = path.join(dir, `${name}.${process.pid}.part`);
      writeFileSync(tmp, bytes);
      renameSync(tmp, path.join(dir, name));
    }
  }
  return { valori, zone };
}
