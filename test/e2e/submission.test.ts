/**
 * The property submission wizard on the home page, in Chromium against the whole local
 * stack: all four steps with their conditional fields, two rooms with a real PNG each
 * (uploaded straight to the media bucket), the contact dialog, the toast; then what the
 * table, the bucket and the mail store hold. At desktop and at 360 px, axe on every step.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../../functions/lib/aws/s3';
import { DESKTOP, expectAccessible, launchBrowser, MOBILE, newPage } from '../support/browser';
import { sentMail, stack, useStackEnv } from '../support/helpers';
import { dossier, pngBytes } from '../support/submission';

let browser: Browser;
let dir: string;
const web = () => stack().webUrl!;
const DRAFT_KEY = 'opzione-casa:wizard-draft';

beforeAll(async () => {
  useStackEnv();
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(os.tmpdir(), 'wizard-e2e-'));
  await writeFile(path.join(dir, 'cucina.png'), pngBytes(40, 30, [230, 120, 30]));
  await writeFile(path.join(dir, 'camera.png'), pngBytes(30, 40, [40, 90, 200]));
  await writeFile(path.join(dir, 'bagno.png'), pngBytes(20, 20, [20, 160, 120]));
});
afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openWizard(page: Page, search = '') {
  await page.goto(`${web()}/${search}#candidatura`);
  await page.getByTestId('wizard').waitFor({ timeout: 30_000 });
}

const progress = (page: Page) => page.getByTestId('wizard-progress').textContent();

async function next(page: Page, expectedStep: number) {
  await page.getByTestId('wizard-next').click();
  await expect.poll(() => progress(page)).toBe(`Passo ${expectedStep} di 4`);
}

async function noHorizontalScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function chooseComune(page: Page, typed: string, name: string) {
  await page.getByTestId('wizard-city').fill(typed);
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('wizard-city').inputValue()).toBe(name);
}

async function addRoom(page: Page, type: string, file: string) {
  // by keyboard: the button sits below the rooms already added, whose cards grow when their
  // upload ends; a click aimed while a card grows can land beside the moved button
  await page.getByTestId('wizard-room-new').press('Enter');
  await page.getByTestId('wizard-room-type').selectOption(type);
  await page.getByTestId('wizard-room-add').click();
  const rooms = page.getByTestId('wizard-room');
  const room = rooms.nth((await rooms.count()) - 1);
  await room.getByTestId('wizard-room-files').setInputFiles(path.join(dir, file));
  return room;
}

const uploaded = (page: Page) => page.locator('[data-testid="wizard-media"][data-status="done"]').count();

interface Case {
  name: string;
  viewport: { width: number; height: number };
  sourceId: string;
  province: string;
  comuneTyped: string;
  comune: string;
  rooms: { type: string; file: string; name: string }[];
}

const cases: Case[] = [
  {
    name: 'desktop',
    viewport: DESKTOP,
    sourceId: 'campagna-e2e',
    province: 'TO',
    comuneTyped: 'ivr',
    comune: 'Ivrea',
    rooms: [
      { type: 'cucina', file: 'cucina.png', name: 'Cucina 1' },
      { type: 'camera_da_letto', file: 'camera.png', name: 'Camera da letto 1' },
    ],
  },
  {
    name: '360 px',
    viewport: MOBILE,
    sourceId: 'volantino-e2e',
    province: 'MI',
    comuneTyped: 'sesto s',
    comune: 'Sesto San Giovanni',
    rooms: [
      { type: 'bagno', file: 'bagno.png', name: 'Bagno 1' },
      { type: 'bagno', file: 'camera.png', name: 'Bagno 2' },
    ],
  },
];

describe('submission wizard: all four steps, two rooms with a photo each, stored whole', () => {
  for (const c of cases) {
    it(`${c.name}: fills every step, submits, and the item, the media and the lead e-mail match`, async () => {
      const { context, page } = await newPage(browser, c.viewport);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await openWizard(page, `?id=${c.sourceId}`);
      const draftId = (await page.getByTestId('wizard').getAttribute('data-draft-id'))!;
      expect(draftId).toMatch(/^[0-9a-f-]{36}$/);

      // ---- step 1: address, province -> comune (cleared when the province changes), OMI category, type
      expect(await progress(page)).toBe('Passo 1 di 4');
      await expectAccessible(page);
      await page.getByTestId('wizard-address').fill('  Via Giuseppe Garibaldi 21  ');
      expect(await page.getByTestId('wizard-city').isDisabled()).toBe(true);
      await page.getByTestId('wizard-province').selectOption(c.province);
      await chooseComune(page, c.comuneTyped, c.comune);
      await page.getByTestId('wizard-province').selectOption('RM');
      await expect.poll(() => page.getByTestId('wizard-city').inputValue()).toBe('');
      await page.getByTestId('wizard-province').selectOption(c.province);
      await chooseComune(page, c.comuneTyped, c.comune);
      expect(await page.getByTestId('wizard-omi-category').inputValue()).toBe('abitazioni_civili');
      await page.getByTestId('wizard-omi-category').selectOption('abitazioni_signorili');
      await page.getByTestId('wizard-property-type').selectOption('villa');
      await noHorizontalScroll(page, c.viewport.width);
      await next(page, 2);

      // ---- step 2: amount with Italian grouping, terrace toggle opens count and surface
      await expectAccessible(page);
      await page.getByTestId('wizard-desired-amount').pressSequentially('385a000');
      expect(await page.getByTestId('wizard-desired-amount').inputValue()).toBe('385.000');
      // the option duration: 6 months until the home simulator's choice (8) travels into the wizard
      expect(await page.getByTestId('wizard-option-duration').inputValue()).toBe('6');
      await page.getByTestId('duration-select').selectOption('8');
      await expect.poll(() => page.getByTestId('wizard-option-duration').inputValue()).toBe('8');
      await page.getByTestId('wizard-surface-area').fill('140,5');
      await page.getByTestId('wizard-num-rooms').fill('6');
      await page.getByTestId('wizard-num-bathrooms').fill('3');
      await page.getByTestId('wizard-floor').selectOption('piu_livelli');
      expect(await page.getByTestId('wizard-terrace-fields').count()).toBe(0);
      await page.getByTestId('wizard-has-terrace').check();
      await page.getByTestId('wizard-num-terraces').fill('2');
      await page.getByTestId('wizard-terrace-surface').fill('30');
      await expectAccessible(page);
      await noHorizontalScroll(page, c.viewport.width);
      await next(page, 3);

      // ---- step 3: every question, with its dependent fields
      await page.getByTestId('wizard-condominium-fees').pressSequentially('1200');
      await page.getByTestId('wizard-extraordinary-si').check();
      await page.getByTestId('wizard-extraordinary-details').fill('Rifacimento del tetto');
      await page.getByTestId('wizard-extraordinary-amount').pressSequentially('12000');
      expect(await page.getByTestId('wizard-extraordinary-amount').inputValue()).toBe('12.000');
      for (const f of ['ascensore', 'giardino_privato', 'fibra']) await page.getByTestId(`wizard-feature-${f}`).check();
      expect(await page.locator('[data-testid^="wizard-feature-"]').count()).toBe(21);
      await page.getByTestId('wizard-condition').selectOption('ottimo');
      const years = await page.getByTestId('wizard-build-year').locator('option').allTextContents();
      const now = new Date().getFullYear();
      expect(years.slice(1)).toHaveLength(125);
      expect([years[1], years.at(-1)]).toEqual([String(now), String(now - 124)]);
      await page.getByTestId('wizard-build-year').selectOption('1975');
      await page.getByTestId('wizard-has-box').check();
      expect(await page.getByTestId('wizard-num-box').inputValue()).toBe('1');
      await page.getByTestId('wizard-num-box').fill('2');
      // garage: checked with a count, then unchecked: the count is cleared
      await page.getByTestId('wizard-has-garage').check();
      await page.getByTestId('wizard-num-garage').fill('3');
      await page.getByTestId('wizard-has-garage').uncheck();
      expect(await page.getByTestId('wizard-num-garage').count()).toBe(0);
      await page.getByTestId('wizard-has-garage').check();
      expect(await page.getByTestId('wizard-num-garage').inputValue()).toBe('1');
      await page.getByTestId('wizard-has-garage').uncheck();
      await page.getByTestId('wizard-abuses-non_lo_so').check();
      await page.getByTestId('wizard-hypothecs-si').check();
      await page.getByTestId('wizard-num-hypothecs').fill('0');
      await page.getByTestId('wizard-ape-si').check();
      await page.getByTestId('wizard-ape-class').selectOption('C');
      await page.getByTestId('wizard-water-si').check();
      await page.getByTestId('wizard-water-details').fill('Muffa in cantina');
      await page.getByTestId('wizard-notes').fill('Visite il sabato mattina');
      // the mortgage count must be at least 1: the error is tied to the input and focused
      await page.getByTestId('wizard-next').click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('wizard-num-hypothecs');
      const described = (await page.getByTestId('wizard-num-hypothecs').getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${described}"]`).textContent()).toBe('Indica quante ipoteche (almeno 1)');
      expect(await page.getByTestId('wizard-num-hypothecs').getAttribute('aria-invalid')).toBe('true');
      expect(await progress(page)).toBe('Passo 3 di 4');
      await page.getByTestId('wizard-num-hypothecs').fill('1');
      await expectAccessible(page);
      await noHorizontalScroll(page, c.viewport.width);
      await next(page, 4);

      // ---- step 4: 'Annulla' adds nothing; two rooms with a photo each, uploaded at once
      await page.getByTestId('wizard-room-new').click();
      await page.getByTestId('wizard-room-cancel').click();
      expect(await page.getByTestId('wizard-room').count()).toBe(0);
      for (const r of c.rooms) await addRoom(page, r.type, r.file);
      await expect.poll(() => uploaded(page), { timeout: 20_000 }).toBe(2);
      expect(await page.getByTestId('wizard-room-name').allTextContents()).toEqual(c.rooms.map((r) => r.name));
      expect(await page.locator('[data-testid="wizard-media"] img').count()).toBe(2);
      await expectAccessible(page);
      await noHorizontalScroll(page, c.viewport.width);

      // ---- contact dialog: 'Conferma' disabled until complete
      await page.getByTestId('wizard-submit').click();
      await page.getByRole('dialog', { name: 'I tuoi dati di contatto' }).waitFor();
      const confirm = page.getByTestId('contact-confirm');
      expect(await confirm.textContent()).toBe('Conferma');
      expect(await confirm.isDisabled()).toBe(true);
      await page.getByTestId('contact-first-name').fill('Giulia');
      await page.getByTestId('contact-last-name').fill('Bianchi');
      await page.getByTestId('contact-email').fill('Giulia.Bianchi@Example.it');
      await page.getByTestId('contact-phone').fill('347 765 4321');
      expect(await confirm.isDisabled()).toBe(true);
      const privacy = page.getByRole('link', { name: /informativa sulla privacy/ });
      expect(await privacy.getAttribute('href')).toBe('/privacy');
      expect(await privacy.getAttribute('target')).toBe('_blank');
      await page.getByTestId('contact-privacy').check();
      expect(await confirm.isDisabled()).toBe(false);
      await expectAccessible(page);
      await confirm.click();
      await page.getByText('Candidatura inviata!').waitFor();
      await page.getByText('Il tuo immobile è stato candidato con successo').waitFor();

      // the wizard starts over with a new draft; the old one is gone
      await expect.poll(() => progress(page)).toBe('Passo 1 di 4');
      expect(await page.getByTestId('wizard-address').inputValue()).toBe('');
      expect(await page.getByTestId('wizard').getAttribute('data-draft-id')).not.toBe(draftId);
      const stored = await page.evaluate((k) => localStorage.getItem(k), DRAFT_KEY);
      expect(stored ?? '').not.toContain(draftId);
      expect(errors).toEqual([]);
      await context.close();

      // ---- what the table holds: every field as typed
      const items = await dossier(draftId);
      const property = items.find((i) => i.entity === 'property')!;
      expect(property).toMatchObject({
        id: draftId,
        status: 'submitted',
        sourceId: c.sourceId,
        address: 'Via Giuseppe Garibaldi 21',
        province: c.province,
        city: c.comune,
        omiCategory: 'abitazioni_signorili',
        propertyType: 'villa',
        desiredAmount: 385000,
        optionDuration: 8,
        surfaceArea: 140.5,
        numRooms: 6,
        numBathrooms: 3,
        floor: 'piu_livelli',
        hasTerrace: true,
        numTerraces: 2,
        terraceSurfaceArea: 30,
        condominiumFees: 1200,
        hasExtraordinaryExpenses: 'si',
        extraordinaryExpensesDetails: 'Rifacimento del tetto',
        extraordinaryExpensesAmount: 12000,
        condition: 'ottimo',
        buildYear: 1975,
        hasBox: true,
        numBox: 2,
        hasGarage: false,
        numGarage: null,
        hasAbuses: 'non_lo_so',
        abusesDetails: null,
        hasHypothecs: 'si',
        numHypothecs: 1,
        hasApe: 'si',
        apeClass: 'C',
        hasWaterInfiltrations: true,
        waterInfiltrationsDetails: 'Muffa in cantina',
        notes: 'Visite il sabato mattina',
        firstName: 'Giulia',
        lastName: 'Bianchi',
        email: 'giulia.bianchi@example.it',
        phone: '+393477654321',
        privacyConsent: true,
        roomsCount: 2,
        mediaCount: 2,
      });
      expect([...(property.features as string[])].sort()).toEqual(['ascensore', 'fibra', 'giardino_privato']);
      const rooms = items.filter((i) => i.entity === 'room').sort((a, b) => Number(a.position) - Number(b.position));
      expect(rooms.map((r) => [r.name, r.type])).toEqual(c.rooms.map((r) => [r.name, r.type]));
      const media = items.filter((i) => i.entity === 'media');
      expect(media).toHaveLength(2);
      for (const [i, r] of rooms.entries()) {
        const m = media.find((x) => x.roomId === r.id)!;
        expect(m).toMatchObject({ kind: 'image', contentType: 'image/png', fileName: c.rooms[i]!.file });
        // the submission's copy of the upload, under a key no upload form names
        expect(m.key).toMatch(new RegExp(`^${draftId}/${r.id}/\\d+_[0-9a-f]{24}-${c.rooms[i]!.file.replace('.', '\\.')}$`));
        // ---- the object is in the bucket
        const head = await s3().send(new HeadObjectCommand({ Bucket: stack().env.MEDIA_BUCKET, Key: m.key as string }));
        expect(head.ContentType).toBe('image/png');
        expect(Number(head.ContentLength)).toBe(m.size);
      }

      // ---- the lead e-mail is in the local mail store
      await expect
        .poll(async () => (await sentMail()).filter((mail) => (mail.body.text ?? '').includes(draftId)).length, { timeout: 10_000 })
        .toBe(1);
      const mail = (await sentMail()).find((m) => (m.body.text ?? '').includes(draftId))!;
      expect(mail.subject).toContain('Via Giuseppe Garibaldi 21');
      expect(mail.body.text).toContain('Giulia');
      expect(mail.body.text).toContain(c.comune);
      expect(mail.body.text).toContain('385.000 €');
      expect(mail.body.text).toContain(c.rooms[1]!.name);
    });
  }
});

describe('submission wizard: the draft, the spec messages, failures', () => {
  it('shows the spec toast when the address is missing, and focuses the address', async () => {
    const { context, page } = await newPage(browser);
    await openWizard(page);
    await page.getByTestId('wizard-address').fill('   ');
    await page.getByTestId('wizard-next').click();
    await page.getByText('Indirizzo richiesto').waitFor();
    await page.getByText("Inserisci l'indirizzo dell'immobile per continuare", { exact: true }).first().waitFor();
    expect(await progress(page)).toBe('Passo 1 di 4');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('wizard-address');
    const described = (await page.getByTestId('wizard-address').getAttribute('aria-describedby'))!;
    const texts = await Promise.all(described.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(texts).toContain("Inserisci l'indirizzo dell'immobile per continuare");
    await expectAccessible(page);
    await context.close();
  });

  it('keeps the draft (fields, step, rooms, uploaded photos, draft id) across a reload', async () => {
    const { context, page } = await newPage(browser, MOBILE);
    await openWizard(page);
    const draftId = await page.getByTestId('wizard').getAttribute('data-draft-id');
    await page.getByTestId('wizard-address').fill('Piazza Duomo 1');
    await page.getByTestId('wizard-province').selectOption('MI');
    await chooseComune(page, 'milano', 'Milano');
    await next(page, 2);
    await page.getByTestId('wizard-desired-amount').pressSequentially('250000');
    await page.getByTestId('wizard-has-terrace').check();
    await page.getByTestId('wizard-num-terraces').fill('1');
    await next(page, 3);
    await page.getByTestId('wizard-feature-cantina').check();
    await next(page, 4);
    await addRoom(page, 'soggiorno', 'cucina.png');
    await expect.poll(() => uploaded(page), { timeout: 20_000 }).toBe(1);

    await page.reload();
    await page.getByTestId('wizard').waitFor();
    expect(await page.getByTestId('wizard').getAttribute('data-draft-id')).toBe(draftId);
    expect(await progress(page)).toBe('Passo 4 di 4');
    expect(await page.getByTestId('wizard-room-name').allTextContents()).toEqual(['Soggiorno 1']);
    expect(await page.locator('[data-testid="wizard-media"][data-status="done"]').textContent()).toContain('cucina.png');
    await page.getByTestId('wizard-back').click();
    expect(await page.getByTestId('wizard-feature-cantina').isChecked()).toBe(true);
    await page.getByTestId('wizard-back').click();
    expect(await page.getByTestId('wizard-desired-amount').inputValue()).toBe('250.000');
    expect(await page.getByTestId('wizard-num-terraces').inputValue()).toBe('1');
    await page.getByTestId('wizard-back').click();
    expect(await page.getByTestId('wizard-address').inputValue()).toBe('Piazza Duomo 1');
    expect(await page.getByTestId('wizard-province').inputValue()).toBe('MI');
    expect(await page.getByTestId('wizard-city').inputValue()).toBe('Milano');
    await context.close();
  });

  it('refuses on the client a file over 20 MB and a file that is not an image or a video', async () => {
    const { context, page } = await newPage(browser);
    const uploads: string[] = [];
    page.on('request', (r) => r.url().includes('/api/uploads') && uploads.push(r.url()));
    await openWizard(page);
    await page.getByTestId('wizard-address').fill('Via Po 3');
    await next(page, 2);
    await next(page, 3);
    await next(page, 4);
    await page.getByTestId('wizard-room-new').click();
    await page.getByTestId('wizard-room-add').click();
    await page.getByTestId('wizard-room-files').setInputFiles([
      { name: 'enorme.png', mimeType: 'image/png', buffer: Buffer.alloc(20 * 1024 * 1024 + 1) },
      { name: 'contratto.txt', mimeType: 'text/plain', buffer: Buffer.from('testo') },
    ]);
    const rejected = page.getByTestId('wizard-media-rejected');
    await expect.poll(() => rejected.textContent()).toContain('enorme.png: Il file supera i 20 MB');
    expect(await rejected.textContent()).toContain('contratto.txt: Sono ammessi solo immagini e video');
    expect(await page.getByTestId('wizard-media').count()).toBe(0);
    expect(uploads).toEqual([]);
    await context.close();
  });

  it('reads the first bytes: a text renamed .jpg and an SVG renamed .png are refused at once and never sent; a real photo goes', async () => {
    const { context, page } = await newPage(browser);
    const sent: string[] = [];
    page.on('request', (r) => (r.url().includes('/api/uploads') || r.url().startsWith(stack().urls.s3)) && sent.push(r.url()));
    await openWizard(page);
    await page.getByTestId('wizard-address').fill('Via Roma 8');
    await next(page, 2);
    await next(page, 3);
    await next(page, 4);
    await page.getByTestId('wizard-room-new').click();
    await page.getByTestId('wizard-room-add').click();
    await page.getByTestId('wizard-room-files').setInputFiles([
      { name: 'foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Questo è un file di testo, non una foto.\n') },
      { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') },
    ]);
    const rejected = page.getByTestId('wizard-media-rejected');
    await expect.poll(() => rejected.textContent()).toContain("Il file «foto.jpg» non è un'immagine valida: carica una foto JPG, PNG o WebP");
    expect(await rejected.textContent()).toContain("Il file «logo.png» è un'immagine SVG, che non è ammessa: carica una foto JPG, PNG o WebP");
    expect(await page.getByTestId('wizard-media').count()).toBe(0);
    expect(sent).toEqual([]);
    await expectAccessible(page);

    await page.getByTestId('wizard-room-files').setInputFiles(path.join(dir, 'cucina.png'));
    await expect.poll(() => page.locator('[data-testid="wizard-media"][data-status="done"]').count()).toBe(1);
    expect(sent.some((u) => u.includes('/api/uploads'))).toBe(true);
    await context.close();
  });

  it('retries a failed upload, and after a failed submission retries with the same draft and no new upload', async () => {
    const { context, page } = await newPage(browser);
    await openWizard(page);
    const draftId = (await page.getByTestId('wizard').getAttribute('data-draft-id'))!;
    await page.getByTestId('wizard-address').fill('Via Etnea 100');
    await next(page, 2);
    await next(page, 3);
    await next(page, 4);

    // the bucket refuses the first POST: the file shows the error and 'Riprova'
    let bucketPosts = 0;
    await page.route(`${stack().urls.s3}/**`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      bucketPosts += 1;
      if (bucketPosts === 1) return route.fulfill({ status: 500, body: 'errore' });
      return route.continue();
    });
    await addRoom(page, 'altro', 'cucina.png');
    await page.getByTestId('wizard-media-error').waitFor();
    expect(await page.getByTestId('wizard-media-error').textContent()).toContain('Caricamento non riuscito');
    await page.getByTestId('wizard-media-retry').click();
    await expect.poll(() => uploaded(page)).toBe(1);
    expect(bucketPosts).toBe(2);

    // the first submission fails (the server answers 500): 'Errore', everything kept
    let submissions = 0;
    await page.route('**/api/properties', async (route) => {
      submissions += 1;
      if (submissions === 1) return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'INTERNAL', message: 'x' }) });
      return route.continue();
    });
    await page.getByTestId('wizard-submit').click();
    await page.getByTestId('contact-first-name').fill('Marco');
    await page.getByTestId('contact-last-name').fill('Neri');
    await page.getByTestId('contact-email').fill('marco.neri@example.it');
    await page.getByTestId('contact-phone').fill('333 1234567');
    await page.getByTestId('contact-privacy').check();
    await page.getByTestId('contact-confirm').click();
    await page.getByText('Si è verificato un errore. Riprova più tardi.').waitFor();
    expect(await page.getByTestId('contact-confirm').textContent()).toBe('Conferma');
    expect(await page.getByTestId('wizard').getAttribute('data-draft-id')).toBe(draftId);
    expect(await page.evaluate((k) => localStorage.getItem(k), DRAFT_KEY)).toContain(draftId);
    await page.getByTestId('contact-confirm').click();
    await page.getByText('Candidatura inviata!').waitFor();
    expect(submissions).toBe(2);
    expect(bucketPosts).toBe(2);
    const items = await dossier(draftId);
    expect(items.filter((i) => i.entity === 'media')).toHaveLength(1);
    expect(items.find((i) => i.entity === 'property')).toMatchObject({ address: 'Via Etnea 100', firstName: 'Marco' });
    await context.close();
  });
});
