/**
 * `npm run sign -- <documento.pdf> --nome "Laura Verdi" --cf VRDLRA80A41F205X [--pades]`:
 * signs a document downloaded from the local app with a certificate of the local demo CA
 * (infra/local/local-signing.ts) for that name and codice fiscale, and writes
 * `<documento>.pdf.p7m` (CAdES) or `<documento>-firmato.pdf` (PAdES) beside it. Several
 * `--nome/--cf` pairs: one signature each (the option with its co-owners). Local only: the
 * local app trusts this CA, AWS trusts only the Italian trusted list.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isValidFiscalCode } from '../../functions/domain/onboarding/rules';
import { issueSignerCertificate, signCades, signPades, type TestSigner } from './digital-signing';
import { localCa } from './local-signing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATA_DIR = path.join(ROOT, '.local', 'data');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { nome: { type: 'string', multiple: true }, cf: { type: 'string', multiple: true }, pades: { type: 'boolean', default: false } },
});
const file = positionals[0];
const names = values.nome ?? [];
const codes = (values.cf ?? []).map((c) => c.trim().toUpperCase());
if (!file || names.length === 0 || names.length !== codes.length) {
  console.error('Uso: npm run sign -- <documento.pdf> --nome "Nome Cognome" --cf CODICEFISCALE [--nome ... --cf ...] [--pades]');
  process.exit(2);
}
const invalid = codes.find((c) => !isValidFiscalCode(c));
if (invalid) {
  console.error(`Codice fiscale non valido: ${invalid}`);
  process.exit(2);
}

const ca = await localCa(DATA_DIR);
const signers: TestSigner[] = [];
for (const [i, full] of names.entries()) {
  const [givenName, ...rest] = full.trim().split(/\s+/);
  signers.push(await issueSignerCertificate(ca, { givenName: givenName!, surname: rest.join(' ') || givenName!, fiscalCode: codes[i]! }));
}
const document = new Uint8Array(await readFile(file));
let out: string;
if (values.pades) {
  let signed: Uint8Array = document;
  for (const s of signers) signed = await signPades(signed, s);
  out = file.replace(/\.pdf$/i, '') + '-firmato.pdf';
  await writeFile(out, signed);
} else {
  out = `${file}.p7m`;
  await writeFile(out, await signCades(document, signers));
}
console.log(`Firmato da ${names.join(', ')} con la CA locale di prova: ${out}`);
