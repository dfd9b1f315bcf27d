/** Helpers of the OMI integration tests: upload through the presigned POST, wait for jobs. */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { api, tokenForRole } from '../support/helpers';
import { MILANO } from '../support/omi-samples';
import type { OmiJob } from '../../functions/model/omi/jobs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { requireConfig } from '../../functions/lib/config';
import { ddb } from '../../functions/model/db';
import { bumpDataState } from '../../functions/model/omi/data-state';
import { omiKeys } from '../../functions/model/keys';
import { forEachKeyOf } from '../../functions/model/omi/semesters';

export const VALORI_2025 = MILANO.valori2025;
export const VALORI_2024 = MILANO.valori2024;
export const ZONE_2025 = MILANO.zone2025;

export async function admin(): Promise<string> {
  return tokenForRole('admin');
}

export interface Upload {
  jobId: string;
  key: string;
  upload: { method: 'POST'; url: string; fields: Record<string, string> };
}

export async function createUpload(fileName: string, semester: string): Promise<Upload> {
  const res = await api<Upload>('POST', '/omi/uploads', { token: await admin(), body: { fileName, semester } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Sends the file to S3 exactly as the browser does (multipart form with the policy fields). */
export async function postToS3(up: Upload, content: Buffer | string, fileName = up.key.split('/').pop()!): Promise<number> {
  const form = new FormData();
  for (const [k, v] of Object.entries(up.upload.fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? Buffer.from(content) : content]), fileName);
  const res = await fetch(up.upload.url, { method: 'POST', body: form });
  await res.text();
  return res.status;
}

export async function waitForJob(path: string, timeoutMs = 60_000): Promise<OmiJob> {
  const token = await admin();
  const start = Date.now();
  for (;;) {
    const res = await api<OmiJob>('GET', path, { token });
    expect(res.status).toBe(200);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    if (Date.now() - start > timeoutMs) throw new Error(`job ${path} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Upload + S3 + wait: the import page's whole flow. */
export async function importFile(path: string, semester: string, content?: Buffer | string, fileName?: string): Promise<OmiJob> {
  const name = fileName ?? path.split('/').pop()!;
  const up = await createUpload(name, semester);
  expect(await postToS3(up, content ?? (await readFile(path)), name)).toBe(204);
  return waitForJob(`/omi/imports/${up.jobId}`);
}

export async function clearAll(): Promise<OmiJob> {
  const res = await api<OmiJob>('POST', '/omi/clear', { token: await admin(), body: { confirm: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitForJob(`/omi/clear/${res.body.id}`);
}

export interface QuotationPage {
  items: Record<string, unknown>[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  semesters: string[];
}

export async function quotations(query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return api<QuotationPage & { message?: string }>('GET', `/omi/quotations${qs ? `?${qs}` : ''}`, { token: await admin() });
}

/**
 * A semester and province as OMI data stored before the zones' history index: its items
 * lose their history keys and the manifest no longer lists the province as indexed (its
 * updatedAt moves, so the data state, and every valuation cache, changes).
 */
export async function unindexHistory(semester: string, prov: string): Promise<number> {
  const TableName = requireConfig('TABLE_NAME');
  let items = 0;
  await forEachKeyOf(semester, prov, async (Key) => {
    await ddb().send(new UpdateCommand({ TableName, Key, UpdateExpression: 'REMOVE gsi2pk, gsi2sk' }));
    items++;
  });
  await ddb().send(
    new UpdateCommand({
      TableName,
      Key: omiKeys.semester(semester),
      UpdateExpression: 'SET updatedAt = :now DELETE historyIndexed :p',
      ExpressionAttributeValues: { ':now': new Date().toISOString(), ':p': new Set([prov]) },
    }),
  );
  await bumpDataState();
  return items;
}

/** A semester and province as OMI data stored before the comune digests: its manifest names none (the old buckets stay until a clear). */
export async function undigest(semester: string, prov: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: requireConfig('TABLE_NAME'),
      Key: omiKeys.semester(semester),
      UpdateExpression: 'SET updatedAt = :now REMOVE digests.#p',
      ExpressionAttributeNames: { '#p': prov },
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
    }),
  );
  await bumpDataState();
}

/** Marks (or unmarks) a province of a semester as under a quotations import, as an import does while it runs. */
export async function markDirty(semester: string, prov: string, dirty: boolean): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: requireConfig('TABLE_NAME'),
      Key: omiKeys.semester(semester),
      UpdateExpression: `${dirty ? 'ADD' : 'DELETE'} dirty :p SET updatedAt = :now`,
      ExpressionAttributeValues: { ':now': new Date().toISOString(), ':p': new Set([prov]) },
    }),
  );
  await bumpDataState();
}
