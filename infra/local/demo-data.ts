/**
 * Demo data of `npm start` (never of the tests): on a fresh data folder, the back office
 * would open on empty pages and every valuation would say "dati OMI non disponibili". So,
 * through the product's own public paths, exactly as a person would:
 * 1. the demo admin imports the real OMI files of the Comune di Milano shipped in
 *    test/fixtures/omi (2025/1 quotations and zones: presigned POST -> S3 event -> import);
 * 2. two Milano requests are submitted through POST /properties (the wizard's call), one of
 *    them in the demo seller's name;
 * 3. two options listed to agents, with room photos (demo-marketplace.ts);
 * 4. the demo seller's option signed and the availability link sent; the console prints it
 *    (demo-availability.ts).
 * Idempotent: each step runs only when its data is missing (fixed draft ids make a re-run a
 * retry of the same submission). Runs in the background; `npm start` is usable meanwhile.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { LOCAL_REGION } from './setup';
import type { LocalStack } from './stack';
import { seedDemoMarketplace } from './demo-marketplace';
import { migrateLegacyOptionStates } from '../../functions/model/option';
import { indexZoneHistories } from '../../functions/model/omi/history-index';
import { digestPending } from '../../functions/model/omi/comune-digest';
import { seedDemoAvailability } from './demo-availability';
import { edgeHeaders } from './edge';

const OMI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'omi');
const OMI_FILES = [
  { file: 'QI_1292013_1_20251_ZONE.csv', semester: '2025-S1' },
  { file: 'QI_1292013_1_20251_VALORI.csv', semester: '2025-S1' },
];

/** Fixed ids: a second `npm start` retries the same submissions instead of adding new ones. */
const DEMO_REQUESTS = [
  {
    propertyDraftId: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4d01',
    forSeller: true,
    address: 'Via Giuseppe Verdi 12',
    surfaceArea: 92,
    floor: '3',
    desiredAmount: '420.000',
    features: ['ascensore', 'cantina', 'doppi_vetri'],
    hasTerrace: true,
    numTerraces: 1,
    terraceSurfaceArea: 12,
    condition: 'buono',
  },
  {
    propertyDraftId: '0d3e7b52-5a4f-4c1e-9d7a-6f1c2b3a4d02',
    forSeller: false,
    address: 'Viale Monza 140',
    surfaceArea: 68,
    floor: 'terra',
    desiredAmount: '250.000',
    features: ['cantina'],
    hasTerrace: false,
    numTerraces: null,
    terraceSurfaceArea: null,
    condition: 'da_ristrutturare',
  },
] as const;

type Log = (line: string) => void;

async function call<T>(stack: LocalStack, method: string, route: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.urls.api}/api${route}`, {
    method,
    // in place of CloudFront: the API answers only requests carrying the origin secret
    headers: { ...edgeHeaders(stack.env.ORIGIN_SECRET!), 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function signIn(stack: LocalStack, email: string, password: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: stack.urls.cognito,
    region: LOCAL_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const res = await cognito.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack.pool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    return res.AuthenticationResult!.IdToken!;
  } finally {
    cognito.destroy();
  }
}

async function importOmi(stack: LocalStack, token: string, log: Log): Promise<void> {
  const existing = await call<{ total: number }>(stack, 'GET', '/omi/quotations?page=1', undefined, token);
  if (existing.status === 200 && existing.body.total > 0) return;
  for (const { file, semester } of OMI_FILES) {
    const up = await call<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>(stack, 'POST', '/omi/uploads', { fileName: file, semester }, token);
    if (up.status !== 201) throw new Error(`upload OMI ${file}: ${up.status}`);
    const form = new FormData();
    for (const [k, v] of Object.entries(up.body.upload.fields)) form.append(k, v);
    form.append('file', new Blob([await readFile(path.join(OMI_DIR, file))]), file);
    const sent = await fetch(up.body.upload.url, { method: 'POST', body: form });
    await sent.text();
    if (sent.status !== 204) throw new Error(`S3 OMI ${file}: ${sent.status}`);
    for (let i = 0; i < 600; i++) {
      const job = await call<{ status: string; error?: string }>(stack, 'GET', `/omi/imports/${up.body.jobId}`, undefined, token);
      if (job.body.status === 'completed') break;
      if (job.body.status === 'failed') throw new Error(`import OMI ${file}: ${job.body.error ?? 'non riuscito'}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  log('dati demo: quotazioni OMI di Milano 2025-S1 importate');
}

async function submitRequests(stack: LocalStack, log: Log): Promise<void> {
  const seller = stack.accounts.find((a) => a.role === 'seller');
  const sellerId = seller ? (JSON.parse(Buffer.from((await signIn(stack, seller.email, seller.password)).split('.')[1]!, 'base64url').toString()) as { sub: string }).sub : undefined;
  let created = 0;
  for (const r of DEMO_REQUESTS) {
    // already there: nothing to do (and no call spent against the per-IP submission limit)
    const done = await ddb().send(new GetCommand({ TableName: stack.env.TABLE_NAME, Key: keys.property(r.propertyDraftId) }));
    if (done.Item) continue;
    const [firstName, lastName] = r.forSeller && seller ? seller.fullName.split(' ') : ['Paolo', 'Ferrari'];
    const res = await call<{ propertyId: string; createdAt: string }>(stack, 'POST', '/properties', {
      propertyDraftId: r.propertyDraftId,
      website: '',
      address: r.address,
      province: 'MI',
      city: 'Milano',
      omiCategory: 'abitazioni_civili',
      propertyType: 'appartamento',
      desiredAmount: r.desiredAmount,
      surfaceArea: r.surfaceArea,
      numRooms: 3,
      numBathrooms: 1,
      floor: r.floor,
      hasTerrace: r.hasTerrace,
      numTerraces: r.numTerraces,
      terraceSurfaceArea: r.terraceSurfaceArea,
      features: r.features,
      condition: r.condition,
      hasExtraordinaryExpenses: 'no',
      hasAbuses: 'no',
      hasHypothecs: 'no',
      hasApe: 'no',
      rooms: [],
      firstName,
      lastName,
      email: r.forSeller && seller ? seller.email : 'paolo.ferrari@example.it',
      phone: r.forSeller && seller?.phone ? seller.phone : '+393401112233',
      privacyConsent: true,
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`richiesta demo: ${res.status} ${JSON.stringify(res.body)}`);
    if (r.forSeller && sellerId) {
      // the demo seller owns it, as after claiming the estimate e-mail's invitation
      await ddb().send(
        new UpdateCommand({
          TableName: stack.env.TABLE_NAME,
          Key: keys.property(res.body.propertyId),
          UpdateExpression: 'SET userId = :u, gsi1pk = :g1, gsi1sk = :g1s',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(userId)',
          ExpressionAttributeValues: {
            ':u': sellerId,
            ':g1': keys.sellerIndex(sellerId, res.body.createdAt).gsi1pk,
            ':g1s': keys.sellerIndex(sellerId, res.body.createdAt).gsi1sk,
          },
        }),
      ).catch((err: Error) => {
        if (err.name !== 'ConditionalCheckFailedException') throw err;
      });
    }
    created++;
  }
  if (created) log(`dati demo: ${created} richieste di valutazione a Milano`);
}

/** OMI first, so the demo requests are valued on submission as real ones are. */
export async function seedDemoData(stack: LocalStack, log: Log): Promise<void> {
  const admin = stack.accounts.find((a) => a.role === 'admin');
  if (!admin) return;
  const token = await signIn(stack, admin.email, admin.password);
  await importOmi(stack, token, log);
  // OMI data stored before the zones' history index gets its keys (the daily indexOmiHistory job does it on AWS)
  const history = await indexZoneHistories();
  if (history.indexed) log(`dati OMI: indice delle serie storiche per ${history.indexed} semestri e province (${history.items} voci)`);
  // and their comune digests (the same daily job)
  const digests = await digestPending();
  if (digests.built) log(`dati OMI: riepiloghi per comune di ${digests.built} semestri e province`);
  await submitRequests(stack, log);
  // options stored before the lifecycle get their state (the daily expireOptions job does it on AWS)
  const migrated = await migrateLegacyOptionStates();
  if (migrated) log(`opzioni aggiornate al ciclo di vita: ${migrated}`);
  // options listed to agents, with room photos (infra/local/demo-marketplace.ts)
  await seedDemoMarketplace(stack, (method, route, body, bearer) => call(stack, method, route, body, bearer), token, log);
  // the demo seller's availability link (infra/local/demo-availability.ts)
  const seller = stack.accounts.find((a) => a.role === 'seller');
  if (seller) {
    await seedDemoAvailability(stack, (method, route, body, bearer) => call(stack, method, route, body, bearer), token, () => signIn(stack, seller.email, seller.password), log);
  }
}
