/**
 * The admin OMI pages in Chromium: /omi-import (upload to the drop bucket, live progress,
 * result box, toasts, clear) and /omi-data (filters, exact totals, pages of 50), with the
 * real Milano files of the Agenzia Entrate. Expected totals are counted from the files.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, MOBILE, newPage, signIn, saveShot } from '../support/browser';
import { api, stack, tokenForRole, useStackEnv } from '../support/helpers';
import { claimJob, createJob, updateJob } from '../../functions/model/omi/jobs';
import { importOmi } from '../support/omi-import';
import { MILANO, nationalSample } from '../support/omi-samples';

const VALORI_2025 = MILANO.valori2025;
const VALORI_2024 = MILANO.valori2024;

const SEMESTER_FORMAT_MESSAGE = 'Il semestre deve essere nel formato AAAA-S1 o AAAA-S2 (es. 2024-S2)';
const CLEAR_CONFIRM = 'Sei sicuro di voler cancellare tutti i dati OMI? Questa azione non può essere annullata.';

interface Row {
  semester: string;
  prov: string;
  comune: string;
  codTip: string;
  stato: string;
}

/** The data rows of a VALORI file (line 1 title, line 2 header). */
function rowsOf(file: string, semester: string): Row[] {
  const [, header, ...lines] = readFileSync(file, 'latin1').split(/\r?\n/);
  const cols = header!.split(';');
  const at = (name: string) => cols.indexOf(name);
  return lines
    .filter((l) => l.trim())
    .map((l) => l.split(';'))
    .map((f) => ({
      semester,
      prov: f[at('Prov')]!,
      comune: f[at('Comune_descrizione')]!,
      codTip: f[at('Cod_Tip')]!,
      stato: f[at('Stato')]!,
    }));
}

const ALL_ROWS = [...rowsOf(VALORI_2025, '2025-S1'), ...rowsOf(VALORI_2024, '2024-S2')];
const count = (pred: (r: Row) => boolean) => ALL_ROWS.filter(pred).length;
const it_ = (n: number) => new Intl.NumberFormat('it-IT', { useGrouping: true }).format(n).replace(/\u00a0/g, ' ');

let browser: Browser;
let admin: BrowserContext;
const web = () => stack().webUrl!;

const signInAs = (page: Page, role: 'admin' | 'seller', landing: string) =>
  signIn(page, web(), stack().accounts.find((a) => a.role === role)!, landing);

/** Clears every OMI record through the API (the page's own clear is tested below). */
async function clearOmiData() {
  const token = await tokenForRole('admin');
  const started = await api<{ id: string }>('POST', '/omi/clear', { token, body: { confirm: true } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await api<{ status: string; error: string | null }>('GET', `/omi/clear/${started.body.id}`, { token });
    if (job.body.status === 'completed') return;
    if (job.body.status === 'failed' || Date.now() > deadline) throw new Error(`clear ${job.body.status}: ${job.body.error}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function adminPage(pathname: string): Promise<Page> {
  const page = await admin.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}${pathname}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();

interface Snapshot {
  /** aria-valuenow of the progress bar inside `area`, or null when there is none */
  value: string | null;
  text: string;
  submit: string;
  clear: string;
}

/**
 * Records, on every DOM change, what a progress area and the two buttons show: an import
 * of 446 rows or a clear of 892 records can be over between two checks of a test.
 */
async function watch(page: Page, area: string): Promise<() => Promise<Snapshot[]>> {
  await page.evaluate((testId) => {
    const w = window as unknown as { __seen: Snapshot[] };
    w.__seen = [];
    const q = (id: string) => document.querySelector(`[data-testid="${id}"]`);
    new MutationObserver(() => {
      const box = q(testId);
      const entry = {
        value: box?.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') ?? null,
        text: box?.textContent ?? '',
        submit: q('omi-import-submit')?.textContent ?? '',
        clear: q('omi-clear')?.textContent ?? '',
      };
      const last = w.__seen[w.__seen.length - 1];
      if (!last || JSON.stringify(last) !== JSON.stringify(entry)) w.__seen.push(entry);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, area);
  return () => page.evaluate(() => (window as unknown as { __seen: Snapshot[] }).__seen);
}

async function importFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }, semester: string) {
  await page.getByTestId('omi-file').setInputFiles(file);
  await expect.poll(() => page.getByTestId('omi-semester').inputValue()).toBe(semester);
  const seen = await watch(page, 'omi-import-progress');
  const submit = page.getByTestId('omi-import-submit');
  expect(await submit.isEnabled()).toBe(true);
  await submit.click();
  await page.getByTestId('omi-import-result').waitFor({ timeout: 75_000 });
  const snapshots = await seen();
  const running = snapshots.filter((s) => s.value !== null);
  // while it ran: the busy label, and the progress bar with a value
  expect(running.length).toBeGreaterThan(0);
  expect(running.every((s) => s.submit.includes('Importazione in corso...'))).toBe(true);
  expect(running.every((s) => Number(s.value) >= 0 && Number(s.value) <= 100)).toBe(true);
  return running;
}

beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
  await clearOmiData();
  admin = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  const page = await admin.newPage();
  await signInAs(page, 'admin', '/admin');
  await page.close();
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

describe('/omi-import (admin)', () => {
  it('waits for a file and a semester, validates the semester format, and passes axe', async () => {
    const page = await adminPage('/omi-import');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Importazione Dati OMI');
    const submit = page.getByTestId('omi-import-submit');
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByTestId('omi-semester').getAttribute('placeholder')).toBe('es. 2024-S2');
    expect(await page.getByTestId('omi-file').getAttribute('accept')).toContain('.csv');
    const columns = await text(page, 'omi-expected-columns');
    for (const c of ['Area_territoriale', 'Comune_descrizione', 'LinkZona', 'Cod_Tip', 'Stato_prev', 'Compr_min', 'Loc_max']) expect(columns).toContain(c);
    expect(await page.locator('main').textContent()).toContain('semestre + LinkZona + tipologia + stato');

    await page.getByTestId('omi-semester').fill('2025/1');
    await page.getByTestId('omi-semester').blur();
    await page.getByText(SEMESTER_FORMAT_MESSAGE).waitFor();
    expect(await page.getByTestId('omi-semester').getAttribute('aria-invalid')).toBe('true');
    expect(await submit.isDisabled()).toBe(true); // still no file
    await page.getByTestId('omi-semester').fill('2025-s1');
    await expect.poll(() => page.getByText(SEMESTER_FORMAT_MESSAGE).count()).toBe(0);
    await expectAccessible(page);
    await page.close();
  });

  it('refuses a file that is not a .csv with "Il file deve essere in formato CSV"', async () => {
    const page = await adminPage('/omi-import');
    await page.getByTestId('omi-semester').fill('2025-S1');
    await page.getByTestId('omi-file').setInputFiles({ name: 'quotazioni.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK') });
    await expect.poll(() => page.locator('#omi-file-error').textContent()).toBe('Il file deve essere in formato CSV');
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Il file deve essere in formato CSV' }).waitFor();
    expect(await page.getByTestId('omi-import-submit').isDisabled()).toBe(true);
    await page.close();
  });

  it('imports the 2025/1 Milano file: semester from the name, live progress, result box and toast', async () => {
    const page = await adminPage('/omi-import');
    const seen = await importFile(page, VALORI_2025, '2025-S1');
    // the progress bar went through the upload and the processing (rows read so far)
    expect(seen.some((s) => s.text.includes('Caricamento del file'))).toBe(true);
    expect(seen.some((s) => s.text.includes('righe lette'))).toBe(true);

    expect(await text(page, 'omi-result-rows')).toBe('446');
    expect(await text(page, 'omi-result-inserted')).toBe('446');
    expect(await text(page, 'omi-result-updated')).toBe('0');
    expect(await page.getByTestId('omi-result-errors').count()).toBe(0); // errors only when > 0
    expect(await text(page, 'omi-import-result')).toContain('semestre 2025-S1');
    await page.getByText('Importazione completata!', { exact: true }).waitFor();
    await page.getByText('446 nuovi record, 0 aggiornati', { exact: true }).waitFor();
    expect(await page.getByTestId('omi-import-submit').textContent()).toContain('Importa Dati');
    await expectAccessible(page);
    await page.close();
  });

  it('imports the 2024/2 file too: another semester adds 446 records of history', async () => {
    const page = await adminPage('/omi-import');
    await importFile(page, VALORI_2024, '2024-S2');
    expect(await text(page, 'omi-result-rows')).toBe('446');
    expect(await text(page, 'omi-result-inserted')).toBe('446');
    await page.getByText('446 nuovi record, 0 aggiornati', { exact: true }).waitFor();
    await page.close();
  });

  it('says so when the run stops answering for a minute (no time left shown), and carries on when it beats again', async () => {
    // a run that took its job and went silent, as a Lambda that dies leaves it
    const id = `silent-${Date.now()}`;
    await createJob({ id, kind: 'import', fileName: 'QI_silenzio_20251_VALORI.csv', semester: '2025-S1' });
    expect(await claimJob(id, { runId: 'test-run', kind: 'import', bytesTotal: 100_000 })).toBe(true);
    await updateJob(id, 'test-run', { rowsRead: 300, rowsWritten: 250, bytesRead: 30_000, progress: 25, fileKind: 'valori' });
    const page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    try {
      await page.clock.install(); // the page's timers and clock, moved on below
      await page.goto(`${web()}/omi-import`);
      // the page follows the running job, and names its file
      await page.getByText('250 salvate').waitFor();
      expect(await text(page, 'omi-import-file')).toBe('QI_silenzio_20251_VALORI.csv');
      expect(await page.getByTestId('omi-import-silent').count()).toBe(0);

      await page.clock.fastForward(61_000);
      await page.getByTestId('omi-import-silent').waitFor();
      expect(await text(page, 'omi-import-silent')).toBe(
        "Nessun aggiornamento dall'elaborazione da più di un minuto: potrebbe essersi interrotta. Se riprende, ricomincia dall'inizio del file senza duplicare le righe già salvate; se non riprende, ricarica il file.",
      );
      expect(await page.getByTestId('omi-import-speed').count()).toBe(0);
      await expectAccessible(page);

      // a retry took it over: it beats again, the notice goes
      await updateJob(id, 'test-run', { rowsRead: 400, rowsWritten: 350 });
      await page.clock.fastForward(2_000);
      await page.getByText('350 salvate').waitFor();
      expect(await page.getByTestId('omi-import-silent').count()).toBe(0);

      // and it ends: the page shows how
      await updateJob(id, 'test-run', { status: 'failed', error: 'Importazione interrotta: prova' });
      await page.clock.fastForward(2_000);
      await page.getByText('Importazione interrotta: prova').first().waitFor();
    } finally {
      await updateJob(id, 'test-run', { status: 'failed' }).catch(() => undefined);
      await page.close();
    }
  });

  it("counts the time left down between heartbeats on the page's own clock, then takes the next heartbeat's", async () => {
    const id = `countdown-${Date.now()}`;
    await createJob({ id, kind: 'import', fileName: 'QI_conto_20251_VALORI.csv', semester: '2025-S1' });
    const t0 = Date.now();
    expect(await claimJob(id, { runId: 'test-run', kind: 'import', bytesTotal: 100_000 })).toBe(true);
    // heartbeats `afterS` into the run on the server's clock, at 25 rows written per second of about 1.000
    // (36,8 s left at the first: 920 rows' worth, the rebuild's share included)
    const beat = (rowsWritten: number, afterS: number) =>
      updateJob(id, 'test-run', { rowsRead: rowsWritten, rowsWritten, bytesRead: rowsWritten * 100, progress: 25, fileKind: 'valori' }, new Date(t0 + afterS * 1000));
    await beat(250, 10);
    const page = await admin.newPage();
    page.setDefaultTimeout(20_000);
    const secondsLeft = async () => Number(/circa (\d+) s/.exec(await text(page, 'omi-import-speed'))?.[1]);
    try {
      await page.clock.install(); // the page's timers and clock, moved on below
      await page.goto(`${web()}/omi-import`);
      await page.getByText('250 salvate').waitFor();
      const first = await secondsLeft();
      expect(first).toBeGreaterThan(30);
      // no heartbeat for 5 s of the page's time: 5 s less
      await page.clock.fastForward(5_000);
      await expect.poll(secondsLeft).toBeLessThanOrEqual(first - 4);
      expect(await secondsLeft()).toBeGreaterThanOrEqual(first - 6);
      // the next heartbeat brings its own estimate: 500 rows 20 s into the run, the same pace, 10 s less than the first
      await beat(500, 20);
      await page.clock.fastForward(1_000);
      await page.getByText('500 salvate').waitFor();
      expect(Math.abs((await secondsLeft()) - (first - 10))).toBeLessThanOrEqual(1);
    } finally {
      await updateJob(id, 'test-run', { status: 'failed' }).catch(() => undefined);
      await page.close();
    }
  });
});

describe('/omi-data (admin)', () => {
  const all = ALL_ROWS.length; // 892

  it('shows the exact total in pages of 50 with Previous/Next states', async () => {
    const page = await adminPage('/omi-data');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dati OMI');
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 1 - 50 di ${it_(all)}`);
    expect(await text(page, 'omi-page-label')).toBe(`Pagina 1 di ${Math.ceil(all / 50)}`);
    expect(await text(page, 'omi-total')).toBe(`${it_(all)} record trovati`);
    expect(await page.getByTestId('omi-row').count()).toBe(50);
    expect(await page.getByTestId('omi-prev').isDisabled()).toBe(true);
    expect(await page.getByTestId('omi-next').isEnabled()).toBe(true);
    const headers = (await page.locator('thead th').allTextContents()).map((h) => h.trim());
    expect(headers).toEqual(['Comune', 'Prov', 'Zona', 'Tipologia', 'Stato', 'Min €/mq', 'Max €/mq', 'Semestre']);
    // the semester filter offers what the server holds, newest first, after 'Tutti'
    expect(await page.getByTestId('omi-filter-semestre').locator('option').allTextContents()).toEqual(['Tutti', '2025-S1', '2024-S2']);
    expect(await page.getByTestId('omi-filter-tipologia').locator('option').allTextContents()).toEqual([
      'Tutte', 'Abitazioni civili', 'Abitazioni signorili', 'Abitazioni economiche', 'Ville e Villini', 'Negozi', 'Uffici', 'Magazzini',
    ]);
    expect(await page.getByTestId('omi-filter-stato').locator('option').allTextContents()).toEqual(['Tutti', 'Ottimo', 'Normale', 'Scadente']);
    await expectAccessible(page);
    await page.close();
  });

  it('filters by comune, provincia, tipologia, stato and semester, back to page 1 on each change', async () => {
    const page = await adminPage('/omi-data');
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 1 - 50 di ${it_(all)}`);

    // the text filters apply once typing pauses: wait for the request that carries them (every
    // row is in Milano, MI, so the totals alone could not tell an applied filter from a pending one)
    const applied = (param: string) => {
      const response = page.waitForResponse((r) => r.url().includes('/api/omi/quotations?') && r.url().includes(param));
      response.catch(() => undefined); // awaited below; if a step before fails, no stray rejection
      return response;
    };
    let filtered = applied('comune=milano');
    await page.getByTestId('omi-filter-comune').fill('milano'); // partial, any case
    await filtered;
    await expect.poll(() => text(page, 'omi-total')).toBe(`${it_(count((r) => r.comune.toLowerCase().includes('milano')))} record trovati`);

    filtered = applied('provincia=MI');
    await page.getByTestId('omi-filter-provincia').fill('mi');
    expect(await page.getByTestId('omi-filter-provincia').inputValue()).toBe('MI');
    await page.getByTestId('omi-filter-provincia').fill('mil');
    expect(await page.getByTestId('omi-filter-provincia').inputValue()).toBe('MI'); // at most 2 characters
    await filtered;
    await expect.poll(() => text(page, 'omi-total')).toBe(`${it_(count((r) => r.prov === 'MI'))} record trovati`);

    await page.getByTestId('omi-filter-tipologia').selectOption({ label: 'Abitazioni civili' });
    const civili = count((r) => r.prov === 'MI' && r.codTip === '20');
    await expect.poll(() => text(page, 'omi-total')).toBe(`${it_(civili)} record trovati`);

    await page.getByTestId('omi-filter-stato').selectOption({ label: 'Ottimo' });
    const ottimo = count((r) => r.prov === 'MI' && r.codTip === '20' && r.stato === 'OTTIMO');
    expect(ottimo).toBeGreaterThan(50);
    expect(ottimo).toBeLessThanOrEqual(100);
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 1 - 50 di ${it_(ottimo)}`);
    expect(await text(page, 'omi-page-label')).toBe('Pagina 1 di 2');
    expect(await page.getByTestId('omi-prev').isDisabled()).toBe(true);
    expect(await page.getByTestId('omi-next').isEnabled()).toBe(true);
    const badges = await page.getByTestId('omi-row').locator('td:nth-child(5)').allTextContents();
    expect(new Set(badges)).toEqual(new Set(['OTTIMO']));

    // forward to the last page, and back
    await page.getByTestId('omi-next').click();
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 51 - ${ottimo} di ${ottimo}`);
    expect(await text(page, 'omi-page-label')).toBe('Pagina 2 di 2');
    expect(await page.getByTestId('omi-row').count()).toBe(ottimo - 50);
    expect(await page.getByTestId('omi-next').isDisabled()).toBe(true);
    expect(await page.getByTestId('omi-prev').isEnabled()).toBe(true);
    await page.getByTestId('omi-prev').click();
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 1 - 50 di ${ottimo}`);
    expect(await page.getByTestId('omi-prev').isDisabled()).toBe(true);

    // on page 2, a filter change goes back to page 1
    await page.getByTestId('omi-next').click();
    await expect.poll(() => text(page, 'omi-page-label')).toBe('Pagina 2 di 2');
    await page.getByTestId('omi-filter-semestre').selectOption('2025-S1');
    const s1 = count((r) => r.semester === '2025-S1' && r.prov === 'MI' && r.codTip === '20' && r.stato === 'OTTIMO');
    await expect.poll(() => text(page, 'omi-showing')).toBe(`Mostrando 1 - ${s1} di ${s1}`);
    expect(await text(page, 'omi-page-label')).toBe('Pagina 1 di 1');
    expect(await page.getByTestId('omi-prev').isDisabled()).toBe(true);
    expect(await page.getByTestId('omi-next').isDisabled()).toBe(true);

    // 2025/1 line 4: MILANO B12 (fascia B) Abitazioni civili OTTIMO 11100 15300
    const b12 = page.getByTestId('omi-row').filter({ hasText: 'B12' });
    const cells = (await b12.locator('td').allTextContents()).map((c) => c.trim());
    expect(cells).toEqual(['MILANO', 'MI', 'B12Fascia B · Centrale', 'Abitazioni civili', 'OTTIMO', '11.100 €', '15.300 €', '2025-S1']);
    await expectAccessible(page);

    await page.getByTestId('omi-filter-comune').fill('roma');
    await page.getByText('Nessun dato trovato').waitFor();
    expect(await text(page, 'omi-total')).toBe('0 record trovati');
    await page.close();
  });

  it('at 360 px the table scrolls inside its card, not the page', async () => {
    const page = await admin.newPage();
    await page.setViewportSize(MOBILE);
    await page.goto(`${web()}/omi-data`);
    await page.getByTestId('omi-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    const region = page.getByRole('region', { name: 'Tabella dei dati OMI' });
    const { scrollWidth, clientWidth } = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await page.close();
  });

  it("the zone filter draws one zone's history, and says where the zone was redrawn instead of joining two areas", async () => {
    // the zone descriptions: 2025/1 real, 2024/2 crafted with B12 another area (test/fixtures/omi/README.md)
    await importOmi(MILANO.zone2025, '2025-S1');
    await importOmi(MILANO.zone2024Redrawn, '2024-S2');
    const page = await adminPage('/omi-data');
    await page.getByTestId('omi-filter-comune').fill('milano');
    await page.getByTestId('omi-filter-zona').fill('b13');
    const trend = page.getByTestId('omi-zone-trend');
    await trend.getByTestId('omi-zone-trend-chart').locator('path.recharts-area-area').waitFor();
    expect(await trend.getByRole('heading').textContent()).toBe('Andamento delle quotazioni della zona B13 di MILANO (MI)');
    expect(await trend.getByTestId('omi-zone-trend-note').count()).toBe(0); // reworded, not redrawn
    await trend.getByText('Valori per semestre in tabella').click();
    expect(await trend.locator('tbody th[scope="row"]').allTextContents()).toEqual(['2024-S2', '2025-S1']);
    await expect.poll(async () => new Set((await page.getByTestId('omi-row').locator('td:nth-child(3)').allTextContents()).map((z) => z.slice(0, 3)))).toEqual(new Set(['B13']));
    await expectAccessible(page);
    // full page: the sticky header would be drawn where the page is scrolled, over the chart
    const noHeader = 'header { visibility: hidden !important; }';
    await saveShot(page, 'omi', 'omi-zone-history', { style: noHeader });

    await page.getByTestId('omi-filter-zona').fill('b12');
    await trend.getByTestId('omi-zone-trend-note').getByText("Zone OMI ridisegnate dall'Agenzia delle Entrate nel semestre 2025-S1").waitFor();
    expect(await trend.getByTestId('omi-zone-trend-chart').count()).toBe(0); // one semester left: a table, no drawing
    expect(await trend.locator('tbody th[scope="row"]').allTextContents()).toEqual(['2025-S1']);
    await expectAccessible(page);
    await saveShot(trend, 'omi', 'omi-zone-redrawn', { style: noHeader });
    await page.close();
  });
});

describe('re-import and "Cancella Tutti i Dati"', () => {
  it('lists the comuni of a file that match no comune of the form (Piovera, merged in 2018), and ties Monza (under MI in 2017) to MB', async () => {
    // the national 2017/2 lines of Monza and Piovera, as published
    const lines = readFileSync(nationalSample().valori, 'latin1').split(/\r?\n/);
    const keep = lines.slice(2).filter((l) => /^[^;]*;[^;]*;(MI;3015149;|AL;1006130;)/.test(l));
    const buffer = Buffer.from([...lines.slice(0, 2), ...keep, ''].join('\r\n'), 'latin1');
    const page = await adminPage('/omi-import');
    await importFile(page, { name: 'QI_294581_1_20172_VALORI.csv', mimeType: 'text/csv', buffer }, '2017-S2');
    const box = page.getByTestId('omi-result-unmatched');
    await box.getByRole('heading', { name: 'Un comune non abbinato' }).waitFor();
    await box.getByText('Mostra i comuni').click();
    expect(await box.getByRole('listitem').allInnerTexts()).toEqual(['PIOVERA (AL) · codice ISTAT 1006130 · codice catastale G695']);
    await expectAccessible(page);
    await saveShot(page.getByTestId('omi-import-result'), 'omi', 'omi-unmatched');
    const monza = await api<{ available: boolean; semester?: string }>('POST', '/valuations/evaluate', {
      token: await tokenForRole('admin'),
      body: { address: 'Via Boccaccio 5', province: 'MB', city: 'Monza', surfaceArea: 90 },
    });
    expect(monza.body).toMatchObject({ available: true, semester: '2017-S2' });
    await page.close();
  });

  it('a re-import updates every record; clearing asks the spec confirmation, shows progress and empties the data', async () => {
    const page = await adminPage('/omi-import');
    await importFile(page, VALORI_2025, '2025-S1');
    expect(await text(page, 'omi-result-inserted')).toBe('0');
    expect(await text(page, 'omi-result-updated')).toBe('446');
    await page.getByText('0 nuovi record, 446 aggiornati', { exact: true }).waitFor();

    await page.getByTestId('omi-clear').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(CLEAR_CONFIRM).waitFor();
    await page.getByTestId('omi-clear-cancel').click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await page.getByTestId('omi-import-result').count()).toBe(1);

    await page.getByTestId('omi-clear').click();
    const seen = await watch(page, 'omi-clear-progress');
    await page.getByTestId('omi-clear-confirm').click();
    await page.getByText('Tutti i dati OMI sono stati cancellati', { exact: true }).waitFor({ timeout: 60_000 });
    const running = (await seen()).filter((s) => s.value !== null);
    expect(running.length).toBeGreaterThan(0);
    expect(running.every((s) => s.clear.includes('Cancellazione in corso...'))).toBe(true);
    await expect.poll(() => page.getByTestId('omi-import-result').count()).toBe(0); // result box cleared

    await page.goto(`${web()}/omi-data`);
    await page.getByText('Nessun dato trovato').waitFor();
    expect(await text(page, 'omi-total')).toBe('0 record trovati');
    expect(await page.getByTestId('omi-next').isDisabled()).toBe(true);
    await page.close();
  });
});

describe('non-admins', () => {
  it('a seller visiting /omi-data gets "Accesso negato" and goes home', async () => {
    const { context, page } = await newPage(browser);
    await signInAs(page, 'seller', '/seller-dashboard');
    await page.goto(`${web()}/omi-data`);
    await page.getByText('Accesso negato').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.getByTestId('omi-table').count()).toBe(0);
    await context.close();
  });
});
