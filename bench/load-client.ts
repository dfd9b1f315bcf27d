/**
 * The load of bench/load.ts, run in a process of its own (the visitors' browsers are not in
 * the server): the parent passes one JSON job as the argument and reads one JSON line back.
 * - `submissions`: N visitors at once, each from its own address, two rooms with one photo
 *   each (POST /api/uploads for both photos at once, the presigned POSTs to S3, then
 *   POST /api/properties); then one more visitor sending `limit + 2` submissions;
 * - `reads`: each route `calls` times, at most `concurrency` in flight over keep-alive
 *   connections, after `warmup` calls.
 */
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { encodePng } from '../test/support/png';
import { call, latency, postForm, r1, visitorIp, type Latency } from './support';

export interface SubmissionsJob {
  kind: 'submissions';
  edge: string;
  visitors: number;
  photoBytes: number;
  /** the per-IP submission limit: one more visitor sends limit + 2 */
  limit: number;
}

export interface ReadsJob {
  kind: 'reads';
  edge: string;
  concurrency: number;
  calls: number;
  warmup: number;
  routes: { name: string; paths: string[]; token: string }[];
}

export interface Visitor {
  n: number;
  draftId: string;
  rooms: { id: string; type: string; key: string; bytes: number }[];
  outcome: 'accepted' | 'refused' | 'failed';
  /** the call that refused or failed, with its status */
  stoppedAt?: string;
  propertyId?: string;
}

export interface SubmissionsResult {
  visitors: Visitor[];
  wallSeconds: number;
  photoBytes: number;
  statuses: Record<string, Record<string, number>>;
  latency: Record<string, Latency>;
  oneVisitorStatuses: number[];
}

export interface ReadFigure extends Latency {
  route: string;
  concurrency: number;
  seconds: number;
  callsPerSecond: number;
  statuses: Record<string, number>;
}

/** A real PNG of random pixels, stored uncompressed so its size is the target. */
function noisePng(targetBytes: number): Buffer {
  const width = 256;
  const rowBytes = 1 + width * 3;
  const height = Math.ceil(targetBytes / rowBytes);
  const raw = randomBytes(rowBytes * height);
  for (let y = 0; y < height; y++) raw[y * rowBytes] = 0;
  return encodePng(width, height, raw, 0);
}

const MILANO_ADDRESSES = ['Via Giuseppe Verdi 12', 'Viale Monza 140', 'Corso Buenos Aires 20', 'Via Padova 55', 'Corso di Porta Romana 7', 'Via Washington 30', 'Viale Certosa 101', 'Via Tortona 14'];

/** The wizard's body for visitor n (contact data derived from n: the parent checks them). */
function wizardBody(n: number, draftId: string, rooms: { id: string; type: string; key: string }[]) {
  return {
    propertyDraftId: draftId,
    website: '',
    address: MILANO_ADDRESSES[n % MILANO_ADDRESSES.length],
    province: 'MI',
    city: 'Milano',
    omiCategory: 'abitazioni_civili',
    propertyType: 'appartamento',
    desiredAmount: `${250 + (n % 300)}.000`,
    surfaceArea: 50 + (n % 120),
    numRooms: 3,
    numBathrooms: 1 + (n % 2),
    floor: String(1 + (n % 6)),
    hasTerrace: n % 3 === 0,
    numTerraces: n % 3 === 0 ? 1 : null,
    terraceSurfaceArea: n % 3 === 0 ? 10 : null,
    condominiumFees: 150,
    features: ['ascensore', 'cantina'],
    condition: ['nuovo', 'ottimo', 'buono', 'da_ristrutturare'][n % 4],
    buildYear: 1960 + (n % 60),
    hasExtraordinaryExpenses: 'no',
    hasAbuses: 'no',
    hasHypothecs: 'no',
    hasApe: 'no',
    rooms: rooms.map((r) => ({ id: r.id, type: r.type, media: [{ key: r.key }] })),
    firstName: 'Visitatore',
    lastName: `Numero ${n}`,
    email: `visitatore.${n}@example.it`,
    phone: `+39347${String(1_000_000 + n).padStart(7, '0')}`,
    privacyConsent: true,
  };
}

async function submissions(job: SubmissionsJob): Promise<SubmissionsResult> {
  const photos = [noisePng(job.photoBytes), noisePng(job.photoBytes)];
  const ms: Record<string, number[]> = { 'POST /api/uploads': [], 'POST presigned (S3)': [], 'POST /api/properties': [], 'visitor: first call to answer': [] };
  const statuses: Record<string, Record<string, number>> = {};
  const count = (name: string, status: number | string) => {
    const s = (statuses[name] ??= {});
    s[String(status)] = (s[String(status)] ?? 0) + 1;
  };

  async function visit(n: number): Promise<Visitor> {
    const ip = visitorIp(n);
    const v: Visitor = { n, draftId: randomUUID(), rooms: [], outcome: 'accepted' };
    const started = performance.now();
    const stop = (what: string, status: number | string): Visitor => {
      v.outcome = typeof status === 'number' && status >= 400 && status < 500 ? 'refused' : 'failed';
      v.stoppedAt = `${what} ${status}`;
      return v;
    };
    // both photos at once, as the wizard uploads them as soon as they are chosen
    const uploads = await Promise.all(
      (['soggiorno', 'cucina'] as const).map(async (type, i) => {
        const roomId = randomUUID();
        const fileName = `${type}-${n}.png`;
        const form = await call<{ key: string; url: string; fields: Record<string, string> }>(job.edge, 'POST', '/api/uploads', {
          ip,
          body: { propertyDraftId: v.draftId, roomId, fileName, contentType: 'image/png', size: photos[i]!.length },
        });
        const formStatus = form.error ? 'network' : form.status;
        count('POST /api/uploads', formStatus);
        if (form.status !== 200) return { error: `POST /api/uploads ${formStatus}`, status: formStatus };
        ms['POST /api/uploads']!.push(form.ms);
        const posted = await postForm(form.body, photos[i]!, fileName);
        const postStatus = posted.status || 'network';
        count('POST presigned (S3)', postStatus);
        if (posted.status < 200 || posted.status >= 300) return { error: `POST presigned (S3) ${postStatus}`, status: postStatus };
        ms['POST presigned (S3)']!.push(posted.ms);
        return { room: { id: roomId, type, key: form.body.key, bytes: photos[i]!.length } };
      }),
    );
    for (const u of uploads) if (u.error) return stop(u.error.replace(/ \S+$/, ''), u.status);
    v.rooms = uploads.map((u) => u.room!);
    const res = await call<{ propertyId: string }>(job.edge, 'POST', '/api/properties', { ip, body: wizardBody(n, v.draftId, v.rooms) });
    const status = res.error ? 'network' : res.status;
    count('POST /api/properties', status);
    if (res.status !== 201) return stop('POST /api/properties', status);
    ms['POST /api/properties']!.push(res.ms);
    ms['visitor: first call to answer']!.push(performance.now() - started);
    v.propertyId = res.body.propertyId;
    return v;
  }

  const t0 = performance.now();
  const visitors = await Promise.all(Array.from({ length: job.visitors }, (_, n) => visit(n)));
  const wallSeconds = r1((performance.now() - t0) / 1000);

  // the per-IP limit still holds for one visitor
  const one = visitorIp(job.visitors + 10);
  const oneVisitorStatuses: number[] = [];
  for (let i = 0; i < job.limit + 2; i++) {
    oneVisitorStatuses.push((await call(job.edge, 'POST', '/api/properties', { ip: one, body: wizardBody(100_000 + i, randomUUID(), []) })).status);
  }
  return {
    visitors,
    wallSeconds,
    photoBytes: photos[0]!.length,
    statuses,
    latency: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, latency(v)])),
    oneVisitorStatuses,
  };
}

async function reads(job: ReadsJob): Promise<ReadFigure[]> {
  const out: ReadFigure[] = [];
  for (const route of job.routes) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
    const run = async (total: number) => {
      const ms: number[] = [];
      const statuses: Record<string, number> = {};
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: job.concurrency }, async () => {
          for (let i = next++; i < total; i = next++) {
            const res = await call(job.edge, 'GET', route.paths[i % route.paths.length]!, { token: route.token, agent });
            const key = res.error ? 'network' : String(res.status);
            statuses[key] = (statuses[key] ?? 0) + 1;
            ms.push(res.ms);
          }
        }),
      );
      return { ms, statuses, seconds: (performance.now() - t0) / 1000 };
    };
    await run(job.warmup);
    const { ms, statuses, seconds } = await run(job.calls);
    agent.destroy();
    out.push({ route: route.name, concurrency: job.concurrency, ...latency(ms), seconds: r1(seconds), callsPerSecond: Math.round(job.calls / seconds), statuses });
  }
  return out;
}

const job = JSON.parse(process.argv[2] ?? '{}') as SubmissionsJob | ReadsJob;
const result = job.kind === 'submissions' ? await submissions(job) : await reads(job);
const usage = process.cpuUsage();
console.log(JSON.stringify({ result, clientCpuSeconds: r1((usage.user + usage.system) / 1e6) }));
process.exit(0);
