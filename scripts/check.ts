/**
 * `npm run check`: the three TypeScript projects and eslint, two at a time (each is one
 * single-threaded process: on two cores this halves the wait). Every output is printed
 * whole, in order, after its process ends; the exit code is the first failure's.
 */
import { spawn } from 'node:child_process';

const jobs: [string, string[]][] = [
  ['eslint', ['eslint', '.']],
  ['tsc functions, infra, test', ['tsc', '-p', 'tsconfig.json']],
  ['tsc web', ['tsc', '-p', 'web/tsconfig.json']],
  ['tsc e2e', ['tsc', '-p', 'test/tsconfig.e2e.json']],
];
const PARALLEL = 2;

function run([name, args]: [string, string[]]): Promise<{ name: string; code: number; out: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('close', (code) => resolve({ name, code: code ?? 1, out, ms: Date.now() - started }));
  });
}

const queue = [...jobs];
const results: Awaited<ReturnType<typeof run>>[] = [];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) results.push(await run(job));
  }),
);
let exitCode = 0;
for (const r of results.sort((a, b) => jobs.findIndex(([n]) => n === a.name) - jobs.findIndex(([n]) => n === b.name))) {
  const text = r.out.split('\n').filter((l) => !/^npm warn Unknown (user|env) config/.test(l)).join('\n').trim();
  console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)${text ? `\n${text}` : ''}`);
  if (r.code !== 0 && !exitCode) exitCode = r.code;
}
process.exit(exitCode);
