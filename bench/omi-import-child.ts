/**
 * Runs one OMI import in a process of its own, as a Lambda would, and prints its figures
 * (wall time, peak RSS) as one JSON line. Used by bench/omi.ts; the environment (table,
 * bucket, emulator endpoints) comes from the parent.
 */
import { runImport } from '../functions/omi/run-import';

const [bucket, key, jobId, semester, fileName] = process.argv.slice(2);
const started = Date.now();
const outcome = await runImport({ bucket: bucket!, key: key!, jobId: jobId!, semester, fileName: fileName! });
console.log(
  JSON.stringify({
    outcome,
    wallMs: Date.now() - started,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
process.exit(0);
