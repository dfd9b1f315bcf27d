/**
 * `npm run bench:admin`: the Dashboard Admin list on the local stack. Not a test: it prints
 * the figures and writes them to bench/results/admin.json.
 *
 * The stack as `npm start` runs it (DynamoDB Local with -dbPath in a temporary data folder),
 * 5,000 requests seeded straight into the table (PROPERTY items as the submission writes
 * them, in BatchWriteItem batches, createdAt spread over a year, a few sources), then
 * GET /api/admin/properties through the local gateway as the admin:
 * - the first page (50 newest, with the total from the requests counter): 100 calls;
 * - a search `q` (surnames, comuni, e-mail fragments, rotating): 100 calls;
 * after 5 warm-up calls each; sequential, p50/p95/max of the client-side time.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { startLocalStack } from '../infra/local/stack';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../functions/model/db';
import { resetAws } from '../functions/lib/aws';
import { resetConfig } from '../functions/lib/config';
import { BatchWriter } from '../functions/model/batch-writer';
import { keys, normalizeForSort } from '../functions/model/keys';
import type { RequestList } from '../functions/domain/requests';
import { edgeHeaders } from '../infra/local/edge';
import { writeResults } from './support';

const SEED = 5000;
const CALLS = 100;
const WARMUP = 5;
const log = (...a: unknown[]) => console.log(...a);
process.removeAllListeners('warning');
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.env.LOG_LEVEL ??= 'WARN';

const r1 = (n: number) => Math.round(n * 10) / 10;
function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
const summary = (ms: number[]) => ({ calls: ms.length, p50Ms: r1(pct(ms, 50)), p95Ms: r1(pct(ms, 95)), maxMs: r1(Math.max(...ms)), minMs: r1(Math.min(...ms)) });

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIRST = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Andrea', 'Sara', 'Matteo', 'Elena', 'Niccolò', 'Federica', 'Lorenzo', 'Martina', 'Davide', 'Anna', 'Simone'];
const LAST = ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Ferrè', 'Barbieri', 'Fontana', 'Santoro'];
const PLACES = [
  ['Milano', 'MI'], ['Roma', 'RM'], ['Torino', 'TO'], ['Napoli', 'NA'], ['Bologna', 'BO'], ['Firenze', 'FI'], ['Genova', 'GE'], ['Bari', 'BA'],
  ['Palermo', 'PA'], ['Verona', 'VR'], ['Padova', 'PD'], ['Brescia', 'BS'], ['Monza', 'MB'], ['Bergamo', 'BG'], ['Forlì', 'FC'], ['Cantù', 'CO'],
] as const;
const STREETS = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Piazza Duomo', 'Via Mazzini', 'Viale Europa', 'Via Dante', 'Via Cavour'];
const TYPES = ['appartamento', 'attico', 'villa', 'ufficio', 'negozio'];
const CONDITIONS = ['nuovo', 'ottimo', 'buono', 'da_ristrutturare'];
const FEATURES = ['ascensore', 'cantina', 'doppi_vetri', 'posto_auto', 'balcone', 'riscaldamento_autonomo', 'fibra'];
const SOURCES = ['volantino-navigli', 'campagna-social', 'partner-banca', null, null];

function propertyItem(i: number, rand: () => number, now: number): Record<string, unknown> {
  const id = randomUUID();
  const createdAt = new Date(now - Math.floor(rand() * 365 * 86_400_000) - i).toISOString();
  const firstName = FIRST[Math.floor(rand() * FIRST.length)]!;
  const lastName = LAST[Math.floor(rand() * LAST.length)]!;
  const [city, province] = PLACES[Math.floor(rand() * PLACES.length)]!;
  const email = `${normalizeForSort(firstName)}.${normalizeForSort(lastName).replace(/\s+/g, '')}${i}@example.it`;
  const sourceId = SOURCES[Math.floor(rand() * SOURCES.length)] ?? null;
  const hasTerrace = rand() < 0.4;
  const valued = rand() < 0.6;
  return {
    ...keys.property(id),
    ...keys.propertyIndexes({ sourceId, createdAt }),
    entity: 'property',
    id,
    status: 'submitted',
    sourceId,
    address: `${STREETS[Math.floor(rand() * STREETS.length)]} ${1 + Math.floor(rand() * 150)}`,
    province,
    city,
    cityIstat: null,
    omiCategory: 'abitazioni_civili',
    propertyType: TYPES[Math.floor(rand() * TYPES.length)],
    desiredAmount: 80_000 + Math.floor(rand() * 900) * 1000,
    surfaceArea: 40 + Math.floor(rand() * 180),
    numRooms: 1 + Math.floor(rand() * 6),
    numBathrooms: 1 + Math.floor(rand() * 3),
    floor: String(1 + Math.floor(rand() * 8)),
    hasTerrace,
    numTerraces: hasTerrace ? 1 : null,
    terraceSurfaceArea: hasTerrace ? 8 + Math.floor(rand() * 20) : null,
    condominiumFees: 50 + Math.floor(rand() * 300),
    hasExtraordinaryExpenses: 'no',
    extraordinaryExpensesDetails: null,
    extraordinaryExpensesAmount: null,
    features: FEATURES.filter(() => rand() < 0.4),
    condition: CONDITIONS[Math.floor(rand() * CONDITIONS.length)],
    buildYear: 1930 + Math.floor(rand() * 95),
    hasBox: rand() < 0.3,
    numBox: null,
    hasGarage: false,
    numGarage: null,
    hasAbuses: 'no',
    abusesDetails: null,
    hasHypothecs: 'no',
    numHypothecs: null,
    hasApe: 'si',
    apeClass: ['A1', 'B', 'C', 'D', 'E', 'F', 'G'][Math.floor(rand() * 7)],
    hasWaterInfiltrations: false,
    waterInfiltrationsDetails: null,
    notes: rand() < 0.3 ? 'Disponibile per visite nel fine settimana, preferibilmente la mattina.' : null,
    firstName,
    lastName,
    email,
    phone: `+39347${String(1_000_000 + i).padStart(7, '0')}`,
    privacyConsent: true,
    searchText: normalizeForSort([firstName, lastName, email, city].join(' ')),
    privacyConsentAt: createdAt,
    invitationToken: randomUUID().replace(/-/g, ''),
    roomsCount: 3,
    mediaCount: 5,
    createdAt,
    updatedAt: createdAt,
    ...(valued ? { valuedAt: createdAt } : {}),
  };
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-admin-'));
  const t0 = Date.now();
  const stack = await startLocalStack({ appOrigin: 'http://localhost:5173', dataDir });
  log(`stack up in ${Date.now() - t0} ms (DynamoDB Local -dbPath, as npm start)`);
  Object.assign(process.env, stack.env);
  resetConfig();
  resetAws();
  try {
    const rand = rng(7);
    const now = Date.now();
    const seedStart = Date.now();
    const writer = new BatchWriter(ddb(), stack.env.TABLE_NAME!, { concurrency: 4 });
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < SEED; i++) {
      const item = propertyItem(i, rand, now);
      items.push(item);
      await writer.put(item);
    }
    await writer.flush();
    // the requests counter, as 5,000 submissions would have left it
    await ddb().send(
      new UpdateCommand({ TableName: stack.env.TABLE_NAME!, Key: keys.requestCount(), UpdateExpression: 'ADD #n :n', ExpressionAttributeNames: { '#n': 'count' }, ExpressionAttributeValues: { ':n': SEED } }),
    );
    const seedMs = Date.now() - seedStart;
    const avgItemBytes = Math.round(items.reduce((n, it) => n + JSON.stringify(it).length, 0) / items.length);
    log(`seeded ${SEED} requests in ${seedMs} ms (~${avgItemBytes} bytes of JSON each)`);

    const admin = stack.accounts.find((a) => a.role === 'admin')!;
    const cognito = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: 'eu-south-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    const token = (
      await cognito.send(
        new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack.pool.userPoolClientId, AuthParameters: { USERNAME: admin.email, PASSWORD: admin.password } }),
      )
    ).AuthenticationResult!.IdToken!;
    const call = async (query: string): Promise<{ ms: number; body: RequestList }> => {
      const s = performance.now();
      const res = await fetch(`${stack.urls.api}/api/admin/properties${query}`, { headers: { ...edgeHeaders(stack.env.ORIGIN_SECRET!), authorization: `Bearer ${token}` } });
      const text = await res.text();
      const ms = performance.now() - s;
      if (res.status !== 200) throw new Error(`GET ${query} -> ${res.status} ${text}`);
      return { ms, body: JSON.parse(text) as RequestList };
    };

    // first page
    for (let i = 0; i < WARMUP; i++) await call('');
    const firstPage: number[] = [];
    let firstBody: RequestList | undefined;
    for (let i = 0; i < CALLS; i++) {
      const r = await call('');
      firstPage.push(r.ms);
      firstBody = r.body;
    }
    if (firstBody!.total !== SEED || firstBody!.items.length !== 50) throw new Error(`unexpected first page: total ${firstBody!.total}, ${firstBody!.items.length} rows`);
    const dates = firstBody!.items.map((i) => i.createdAt);
    if ([...dates].sort().reverse().join() !== dates.join()) throw new Error('first page not newest first');
    log('first page', summary(firstPage));

    // second page through the cursor (a few calls, for reference)
    const second: number[] = [];
    for (let i = 0; i < 20; i++) second.push((await call(`?cursor=${firstBody!.nextCursor}`)).ms);

    // search
    const terms = ['rossi', 'Milano', 'ferre', 'giulia.b', 'FORLI', 'de luca', 'example.it', 'cantu', 'moretti12', 'zzz-nessuno'];
    for (let i = 0; i < WARMUP; i++) await call(`?q=${encodeURIComponent(terms[i % terms.length]!)}`);
    const search: number[] = [];
    const matches: Record<string, number> = {};
    for (let i = 0; i < CALLS; i++) {
      const q = terms[i % terms.length]!;
      const r = await call(`?q=${encodeURIComponent(q)}`);
      search.push(r.ms);
      matches[q] = r.body.total;
    }
    log('search', summary(search), matches);

    const results = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1e9), node: process.version, loadAvg: os.loadavg().map(r1) },
      dynamodb: '-dbPath (as npm start)',
      seeded: { requests: SEED, ms: seedMs, avgItemJsonBytes: avgItemBytes },
      route: 'GET /api/admin/properties (through the local gateway, sequential, after 5 warm-up calls)',
      firstPage: { ...summary(firstPage), pageSize: 50, total: firstBody!.total },
      secondPageByCursor: summary(second),
      search: { ...summary(search), terms, totals: matches },
      notes:
        'Each call runs the page Query and a Select COUNT over the whole gsi2 PROPERTIES partition (the exact total), in parallel; ' +
        'with q both filter on contains(searchText, :q), so a search reads every request once for the count.',
    };
    log(`written ${await writeResults('admin', results)}`);
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
