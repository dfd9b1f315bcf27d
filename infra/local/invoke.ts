/**
 * `npm run invoke -- <route-or-trigger-id> <event.json>`: runs one handler with an event
 * file (see events/) against the running local stack (`npm start` must be running), and
 * prints what it returned. HTTP events get the origin secret, as CloudFront adds it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes, triggers } from '../../functions/routes';
import { edgeHeaders } from './edge';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [id, eventFile] = process.argv.slice(2);
const all = [...routes, ...triggers] as readonly { id: string; handler: string }[];
const def = all.find((d) => d.id === id);
if (!def || !eventFile) {
  console.error(`Uso: npm run invoke -- <id> <file evento>\nId disponibili: ${all.map((d) => d.id).join(', ')}`);
  process.exit(2);
}
const env = JSON.parse(await readFile(path.join(ROOT, '.local', 'env.json'), 'utf8').catch(() => {
  console.error('Nessun ambiente locale: avvia prima "npm start".');
  process.exit(1);
})) as Record<string, string>;
Object.assign(process.env, env);
const event = JSON.parse(await readFile(path.resolve(eventFile), 'utf8'));
// an HTTP event arrives as through CloudFront: with the origin secret of the running stack
if ((routes as readonly { id: string }[]).some((r) => r.id === id) && env.ORIGIN_SECRET) {
  event.headers = { ...event.headers, ...edgeHeaders(env.ORIGIN_SECRET) };
  // the samples stand for a token the authorizer just verified: issued now, its e-mail verified
  const claims = event.requestContext?.authorizer?.jwt?.claims as Record<string, unknown> | undefined;
  if (claims) {
    claims.iat ??= String(Math.floor(Date.now() / 1000));
    claims.email_verified ??= 'true';
  }
}
const mod = (await import(path.join(ROOT, 'functions', `${def.handler}.ts`))) as { handler: (e: unknown) => Promise<unknown> };
console.log(JSON.stringify(await mod.handler(event), null, 2));
