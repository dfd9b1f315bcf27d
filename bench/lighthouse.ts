/**
 * `npm run bench:lighthouse`: Lighthouse (mobile preset, the default configuration: a mid
 * range phone, 4x CPU slowdown, slow 4G simulated) on `/`, `/auth`, `/seller-dashboard`
 * (signed in as the demo seller) and `/admin` (signed in as the demo admin).
 *
 * What it measures is what users get: the production build of the SPA (vite build, as
 * `npm run deploy`) served by the local stand-in of CloudFront (infra/local/web-server.ts:
 * the distribution's security headers, caching and compression) in front of the local stack
 * with the demo data of `npm start` (OMI quotations, requests, options). Chromium is the
 * system one (CHROMIUM_PATH, default /usr/bin/chromium). For the signed-in pages the person
 * signs in once through the UI in a Chromium profile opened on a remote-debugging port, and
 * Lighthouse runs against that same browser without resetting its storage, so the session
 * stays.
 *
 * Bars (issue "production readiness"): performance >= 90, accessibility 100, best practices
 * >= 95. Prints the four category scores and LCP, TBT, CLS per page, the audits that cost
 * points, and writes bench/results/lighthouse.json. Run it alone on the machine (flock
 * a shared lock file): CPU contention lowers the performance score.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { resetAws } from '../functions/lib/aws';
import { resetConfig } from '../functions/lib/config';
import { seedDemoData } from '../infra/local/demo-data';
import { freePort } from '../infra/local/emulators';
import { startLocalStack } from '../infra/local/stack';
import { startStaticWeb } from '../infra/local/web-server';
import { demoAccount, machine, quiet, ROOT, writeResults } from './support';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const BARS = { performance: 90, accessibility: 100, 'best-practices': 95 } as const;

interface PageRun {
  path: string;
  as: 'anonymous' | 'seller' | 'admin';
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /**
   * Lighthouse's measure of this machine's CPU speed: the simulated 4x slowdown multiplies
   * what the host takes, so the same build scores lower on a slower host (its docs place a
   * typical desktop at 1000-2000)
   */
  benchmarkIndex: number;
  /** the audits of the four categories that did not pass, with what they cost */
  failing: { id: string; title: string; score: number | null; displayValue?: string }[];
  meetsBars: boolean;
}

const log = (line: string) => console.log(line);
const CPU_SLOWDOWN = Number(process.env.BENCH_LH_CPU_SLOWDOWN ?? 0) || undefined;

async function main() {
  quiet();
  log('building the SPA (production)...');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'opzione-casa-bench-lighthouse-'));
  const webPort = await freePort();
  const stack = await startLocalStack({ appOrigin: `http://localhost:${webPort}`, dataDir });
  Object.assign(process.env, stack.env);
  resetConfig();
  resetAws();
  const web = await startStaticWeb({ port: webPort, distDir: path.join(ROOT, 'web', 'dist'), apiUrl: stack.urls.api, config: stack.runtimeConfig });
  const profiles: string[] = [];
  const runs: PageRun[] = [];
  try {
    log('demo data (OMI import, requests, options)...');
    await seedDemoData(stack, (l) => log(`  ${l}`));

    /** a Chromium with its own profile on a remote-debugging port; signed in through the UI when `account` is given */
    const browserFor = async (account?: { email: string; password: string }, landing?: string): Promise<{ port: number; context: BrowserContext }> => {
      const port = await freePort();
      const profile = await mkdtemp(path.join(os.tmpdir(), 'lighthouse-profile-'));
      profiles.push(profile);
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        locale: 'it-IT',
        timezoneId: 'Europe/Rome',
        args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
      });
      if (account) {
        const page = context.pages()[0] ?? (await context.newPage());
        page.setDefaultTimeout(30_000);
        await page.goto(`${web.url}/auth`);
        await page.getByTestId('login-email').fill(account.email);
        await page.getByTestId('login-password').fill(account.password);
        await page.getByTestId('login-submit').click();
        await page.waitForURL((u) => u.pathname === landing);
        await page.goto('about:blank');
      }
      return { port, context };
    };

    const audit = async (port: number, pathname: string, as: PageRun['as']) => {
      const result = await lighthouse(`${web.url}${pathname}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        disableStorageReset: true,
        // BENCH_LH_CPU_SLOWDOWN: an extra row for a slower host (the default, 4, is the preset's)
        ...(CPU_SLOWDOWN ? { throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN } } : {}),
      });
      const lhr = result!.lhr;
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as PageRun['scores'];
      const auditIds = new Set(CATEGORIES.flatMap((c) => (lhr.categories[c]?.auditRefs ?? []).filter((r) => r.weight > 0).map((r) => r.id)));
      const failing = [...auditIds]
        .map((id) => lhr.audits[id]!)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
        .map((a) => ({ id: a.id, title: a.title, score: a.score, displayValue: a.displayValue }));
      const run: PageRun = {
        path: pathname,
        as,
        scores,
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
        cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
        benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
        failing,
        meetsBars: scores.performance >= BARS.performance && scores.accessibility >= BARS.accessibility && scores['best-practices'] >= BARS['best-practices'],
      };
      if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== pathname) throw new Error(`${pathname}: Lighthouse ended on ${lhr.finalDisplayedUrl} (session lost?)`);
      runs.push(run);
      log(
        `${pathname.padEnd(18)} ${as.padEnd(9)} perf ${String(scores.performance).padStart(3)}  a11y ${String(scores.accessibility).padStart(3)}  bp ${String(scores['best-practices']).padStart(3)}  seo ${String(scores.seo).padStart(3)}  LCP ${run.lcpMs} ms  TBT ${run.tbtMs} ms  CLS ${run.cls}  CPU index ${run.benchmarkIndex}`,
      );
      for (const w of lhr.runWarnings) log(`    warning: ${w}`);
      for (const f of failing) log(`    - ${f.id}: ${f.title}${f.displayValue ? ` (${f.displayValue})` : ''}`);
      // where the layout shifts come from (Lighthouse's own attribution), when they cost points
      const shifts = (lhr.audits['layout-shifts']?.details as { items?: { score: number; node?: { snippet?: string; selector?: string } }[] } | undefined)?.items ?? [];
      // which scripts keep the main thread busy, when the score misses its bar
      const bootup = (lhr.audits['bootup-time']?.details as { items?: { url: string; scripting: number; total: number }[] } | undefined)?.items ?? [];
      if (scores.performance < BARS.performance) {
        // and the long tasks themselves, in order (Lighthouse's 'long-tasks' audit)
        const longTasks = (lhr.audits['long-tasks']?.details as { items?: { url: string; startTime: number; duration: number }[] } | undefined)?.items ?? [];
        for (const b of bootup.slice(0, 4)) log(`    script ${Math.round(b.scripting)} ms of ${Math.round(b.total)} ms: ${b.url.replace(web.url, '')}`);
        const work = (lhr.audits['mainthread-work-breakdown']?.details as { items?: { groupLabel: string; duration: number }[] } | undefined)?.items ?? [];
        log(`    main thread: ${work.map((w) => `${w.groupLabel} ${Math.round(w.duration)} ms`).join(', ')}`);
        for (const t of [...longTasks].sort((a, b) => a.startTime - b.startTime)) log(`    long task at ${Math.round(t.startTime)} ms, ${Math.round(t.duration)} ms: ${t.url.replace(web.url, '')}`);
      }
      if (run.cls > 0.1) for (const s of shifts.slice(0, 5)) log(`    shift ${s.score.toFixed(3)}: ${s.node?.selector ?? '?'} ${s.node?.snippet?.slice(0, 160) ?? ''}`);
    };

    const anonymous = await browserFor();
    await audit(anonymous.port, '/', 'anonymous');
    await audit(anonymous.port, '/auth', 'anonymous');
    await anonymous.context.close();

    const seller = await browserFor(demoAccount(stack, 'seller'), '/seller-dashboard');
    await audit(seller.port, '/seller-dashboard', 'seller');
    await seller.context.close();

    const admin = await browserFor(demoAccount(stack, 'admin'), '/admin');
    await audit(admin.port, '/admin', 'admin');
    await admin.context.close();

    const file = await writeResults(CPU_SLOWDOWN ? `lighthouse-cpu${CPU_SLOWDOWN}x` : 'lighthouse', {
      measuredAt: new Date().toISOString(),
      lighthouse: (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version,
      preset: `mobile (default config: simulated slow 4G, ${CPU_SLOWDOWN ?? 4}x CPU slowdown)`,
      machine: machine(),
      bars: BARS,
      pages: runs,
    });
    const missed = runs.filter((r) => !r.meetsBars);
    log(missed.length ? `bars missed on: ${missed.map((r) => r.path).join(', ')}` : 'every page meets the bars');
    log(`written ${file}`);
  } finally {
    await web.stop();
    await stack.stop();
    for (const p of [...profiles, dataDir]) await rm(p, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(err);
    process.exit(1);
  },
);
