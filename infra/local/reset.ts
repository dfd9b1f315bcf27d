/** `npm run reset`: deletes the local data folder (tables, files, users). */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.local/data');
await rm(dir, { recursive: true, force: true });
console.log(`Dati locali cancellati (${dir}). Il prossimo "npm start" riparte da zero con gli account demo.`);
