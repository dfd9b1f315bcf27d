/** Imports an OMI file the way /omi-import does (presigned POST, then the job), so the valuation has data. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { api, tokenForRole } from './helpers';

export async function importOmi(file: string, semester: string): Promise<void> {
  const token = await tokenForRole('admin');
  const name = path.basename(file);
  const up = await api<{ jobId: string; upload: { url: string; fields: Record<string, string> } }>('POST', '/omi/uploads', { token, body: { fileName: name, semester } });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const form = new FormData();
  for (const [k, v] of Object.entries(up.body.upload.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(readFileSync(file))]), name);
  expect((await fetch(up.body.upload.url, { method: 'POST', body: form })).status).toBe(204);
  const start = Date.now();
  for (;;) {
    const status = (await api<{ status: string }>('GET', `/omi/imports/${up.body.jobId}`, { token })).body.status;
    if (status === 'completed') return;
    if (status === 'failed' || Date.now() - start > 60_000) throw new Error(`OMI import ${name}: ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
