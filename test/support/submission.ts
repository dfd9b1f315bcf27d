/**
 * Helpers for the submission integration tests: calls from a chosen loopback address (each
 * test its own client IP, so the per-IP rate limit of one test never touches another),
 * real small PNG and MP4 bytes, browser-like POST uploads to the media bucket, and reads
 * of what the table holds for a property.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { edge, stack, type ApiResult } from './helpers';
import { encodePng } from './png';
import type { SubmissionInput } from '../../functions/domain/property/schema';
import type { UploadForm } from '../../functions/domain/property/upload';

export type { UploadForm };

// Each test file loads this module anew: a random 127.X.Y.0/24 per file keeps files apart too.
const subnet = `127.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
let nextIp = 1;
/** A fresh loopback client address (Linux routes all of 127/8 to lo). */
export function newClientIp(): string {
  if (nextIp > 254) throw new Error('too many client addresses in one test file');
  return `${subnet}.${nextIp++}`;
}

/** A call through the edge (origin secret, infra/local/edge.ts) from the loopback address `ip`; `headers` are added. */
export function apiFrom<T = Record<string, unknown>>(ip: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
  const url = new URL(`${stack().urls.api}/api${path}`);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: ip,
        headers: {
          ...edge(),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}


/** A real PNG (decodable by any viewer): width x height, one colour. */
export function pngBytes(width = 4, height = 4, rgb: [number, number, number] = [255, 102, 3]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return encodePng(width, height, Buffer.concat(Array.from({ length: height }, () => row)));
}

/** A small ISO-BMFF file: the ftyp and free boxes an MP4 starts with, plus an empty mdat. */
export function mp4Bytes(): Buffer {
  const box = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + data.length);
    head.write(type, 4, 'ascii');
    return Buffer.concat([head, data]);
  };
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41')]));
  return Buffer.concat([ftyp, box('free', Buffer.alloc(0)), box('mdat', Buffer.alloc(16))]);
}

/** POSTs the file to the bucket as a browser would (multipart form, file last). */
export async function postToBucket(form: Pick<UploadForm, 'url' | 'fields'>, bytes: Buffer, fileName: string, fieldOverrides: Record<string, string> = {}) {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ ...form.fields, ...fieldOverrides })) fd.append(k, v);
  fd.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = await fetch(form.url, { method: 'POST', body: fd });
  return { status: res.status, text: await res.text() };
}

/** Asks POST /uploads for a form and uploads the bytes with it. */
export async function upload(ip: string, draftId: string, roomId: string, fileName: string, contentType: string, bytes: Buffer): Promise<UploadForm> {
  const res = await apiFrom<UploadForm>(ip, 'POST', '/uploads', { propertyDraftId: draftId, roomId, fileName, contentType, size: bytes.length });
  if (res.status !== 200) throw new Error(`upload form refused: ${res.status} ${JSON.stringify(res.body)}`);
  const posted = await postToBucket(res.body, bytes, fileName);
  if (posted.status >= 300) throw new Error(`bucket refused the upload: ${posted.status} ${posted.text}`);
  return res.body;
}

export async function dossier(propertyId: string): Promise<Record<string, unknown>[]> {
  const res = await ddb().send(
    new QueryCommand({
      TableName: stack().env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.propertyDossier(propertyId).pk },
      ConsistentRead: true,
    }),
  );
  return res.Items ?? [];
}

export async function outboxOf(propertyId: string): Promise<Record<string, unknown> | undefined> {
  const res = await ddb().send(new GetCommand({ TableName: stack().env.TABLE_NAME, Key: keys.outbox(`lead-${propertyId}`), ConsistentRead: true }));
  return res.Item;
}

/** Test-only full scan (never in a request path): the invitations that point at a property. */
export async function invitationsOf(propertyId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb().send(
      new ScanCommand({
        TableName: stack().env.TABLE_NAME,
        FilterExpression: 'entity = :e AND propertyId = :p',
        ExpressionAttributeValues: { ':e': 'invitation', ':p': propertyId },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

export const newId = () => randomUUID();

/** A complete wizard body: every step, contact data and consent (its fields checked against the contract). */
export function fullBody(draftId: string, rooms: unknown[] = []) {
  return {
    propertyDraftId: draftId,
    sourceId: 'fonte-test',
    website: '',
    address: 'Via Giuseppe Verdi 12',
    province: 'MI',
    city: 'Milano',
    omiCategory: 'abitazioni_civili',
    propertyType: 'appartamento',
    desiredAmount: '320.000',
    surfaceArea: 92,
    numRooms: 4,
    numBathrooms: 2,
    floor: '3',
    hasTerrace: true,
    numTerraces: 1,
    terraceSurfaceArea: 14.5,
    condominiumFees: 180,
    hasExtraordinaryExpenses: 'si',
    extraordinaryExpensesDetails: 'Rifacimento facciata',
    extraordinaryExpensesAmount: '8.500',
    features: ['ascensore', 'cantina', 'doppi_vetri'],
    condition: 'buono',
    buildYear: 1968,
    hasBox: true,
    numBox: 1,
    hasGarage: false,
    numGarage: null,
    hasAbuses: 'no',
    abusesDetails: '',
    hasHypothecs: 'si',
    numHypothecs: 1,
    hasApe: 'si',
    apeClass: 'D',
    hasWaterInfiltrations: true,
    waterInfiltrationsDetails: 'Macchia in bagno',
    notes: 'Disponibile per visite il sabato',
    rooms,
    firstName: 'Giulia',
    lastName: 'Bianchi',
    email: 'giulia.bianchi@example.it',
    phone: '347 765 4321',
    privacyConsent: true,
  } satisfies Partial<SubmissionInput>;
}

/** Waits out the last seconds of a fixed rate-limit window, so a limit test never straddles two windows. */
export async function awayFromWindowEdge(windowSeconds: number, marginSeconds = 30): Promise<void> {
  const left = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
  if (left < marginSeconds) await new Promise((r) => setTimeout(r, (left + 1) * 1000));
}
