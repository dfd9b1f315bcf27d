/**
 * The local demo's certification authority for "firma digitale": created once per data folder
 * (`.local/data/signing/ca.json`, its key included: it signs nothing but local test
 * certificates) and registered in the local trust store at every start, as the daily refresh
 * stores the Italian trusted list's CAs in AWS. `npm run sign` issues a certificate under it
 * for a name and codice fiscale and signs a downloaded document with it (.p7m or PAdES), so a
 * person trying the product locally can sign the option or a delegation digitally.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { addTrustAnchor } from '../../functions/lib/trust-store';
import { createTestCa, type TestCa } from './digital-signing';

const CA_NAME = 'Opzione Casa CA locale di prova';
const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;

interface StoredCa {
  name: string;
  certificate: string;
  pem: string;
  privateKey: string;
  publicKey: string;
}

const caFile = (dataDir: string) => path.join(dataDir, 'signing', 'ca.json');

/** The data folder's CA: read back, or created and saved on first use. */
export async function localCa(dataDir: string): Promise<TestCa> {
  const file = caFile(dataDir);
  const stored = await readFile(file, 'utf8').then((t) => JSON.parse(t) as StoredCa, () => undefined);
  const { subtle } = globalThis.crypto;
  if (stored) {
    const [privateKey, publicKey] = await Promise.all([
      subtle.importKey('pkcs8', Buffer.from(stored.privateKey, 'base64'), ECDSA, true, ['sign']),
      subtle.importKey('spki', Buffer.from(stored.publicKey, 'base64'), ECDSA, true, ['verify']),
    ]);
    return { name: stored.name, certificate: new Uint8Array(Buffer.from(stored.certificate, 'base64')), pem: stored.pem, keys: { privateKey, publicKey } };
  }
  const ca = await createTestCa({ name: CA_NAME });
  const [privateKey, publicKey] = await Promise.all([subtle.exportKey('pkcs8', ca.keys.privateKey), subtle.exportKey('spki', ca.keys.publicKey)]);
  const record: StoredCa = {
    name: ca.name,
    certificate: Buffer.from(ca.certificate).toString('base64'),
    pem: ca.pem,
    privateKey: Buffer.from(privateKey).toString('base64'),
    publicKey: Buffer.from(publicKey).toString('base64'),
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(record, null, 2), { mode: 0o600 });
  return ca;
}

/** The local CA in the local trust store (the media bucket's `trust/anchors/`). */
export async function registerLocalCa(dataDir: string): Promise<void> {
  await addTrustAnchor((await localCa(dataDir)).certificate);
}
