/**
 * axe-core on every route of the SPA (web/src/app/router.tsx), at desktop and at 390 px,
 * each signed in as the person who uses it and with realistic data: a seller with a
 * request whose option is signed (dashboard, profile, /seller-kyc with the invitation token,
 * /availability/{token} from the admin's e-mail), a request awaiting registration
 * (/seller-register?token=), an option listed to agents with photos and a video, the
 * Milano quotations imported (the valuation of /investigation). Key dialogs are opened
 * where cheap (the wizard's validation, the delete confirmations, the media viewer, the
 * seller's new request and account deletion). No serious or critical violation allowed.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ddb } from '../../functions/model/db';
import { keys } from '../../functions/model/keys';
import { DESKTOP, expectAccessible, launchBrowser, newPage, seriousViolations, signedInContext } from '../support/browser';
import { api, sentMail, stack, tokenForRole, uniqueEmail, useStackEnv } from '../support/helpers';
import { listedOption } from '../support/agent';
import { importOmi } from '../support/omi-import';
import { MILANO } from '../support/omi-samples';
import { freshSeller, giveProperty, SELLER_PASSWORD } from '../support/seller';
import { apiFrom, fullBody, newClientIp, newId } from '../support/submission';
import { markSigned } from '../support/option';

const PHONE = { width: 390, height: 844 };
const web = () => stack().webUrl!;
const TABLE = () => stack().env.TABLE_NAME!;
type Who = 'anonymous' | 'admin' | 'agent' | 'seller';

let browser: Browser;
const contexts = new Map<Who, BrowserContext>();
const data = { propertyId: '', kycToken: '', availabilityPath: '', registerToken: '', withMedia: '' };

async function invitationToken(id: string): Promise<string> {
  const item = (await ddb().send(new GetCommand({ TableName: TABLE(), Key: keys.property(id), ConsistentRead: true }))).Item!;
  return item.invitationToken as string;
}

/** The seller's request as the onboarding and the admin leave it: identity verified, a delegation signed, the option signed, the availability link e-mailed. */
async function sellerWithSignedOption(): Promise<{ email: string }> {
  const seller = await freshSeller('Marco Conti');
  const id = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(id), firstName: 'Marco', lastName: 'Conti', email: seller.email, address: 'Via Carlo Goldoni 7' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await giveProperty(id, seller.userId);
  const at = new Date().toISOString();
  await ddb().send(new PutCommand({ TableName: TABLE(), Item: { ...keys.identity(id), entity: 'identity', propertyId: id, status: 'verified', documentType: 'carta_identita', fullName: 'Marco Conti', verifiedAt: at } }));
  await ddb().send(
    new PutCommand({
      TableName: TABLE(),
      Item: { ...keys.delegation(id, 'catasto'), entity: 'delegation', propertyId: id, type: 'catasto', province: 'MI', municipality: 'Milano', documentKey: `${id}/documents/delega-catasto.pdf`, signedAt: at },
    }),
  );
  const admin = await tokenForRole('admin');
  const option = { propertyValue: 300_000, hasKeys: false, agentCommissionPercentage: 3, minAgentCommissionPercentage: 2, salePricePercentage: 10, minMonthlySlots: 3 };
  const created = await api('POST', `/admin/properties/${id}/option`, { token: admin, body: option });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await markSigned(id, at);
  const sent = await api('POST', `/admin/properties/${id}/option/availability-link`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const mail = (await sentMail()).find((m) => m.destination.to.includes(seller.email) && m.body.text?.includes('/availability/'));
  data.availabilityPath = /\/availability\/[A-Za-z0-9_-]+/.exec(mail?.body.text ?? '')?.[0] ?? '';
  expect(data.availabilityPath).not.toBe('');
  data.propertyId = id;
  data.kycToken = await invitationToken(id);
  return { email: seller.email };
}

interface RouteCase {
  name: string;
  who: Who;
  path: () => string;
  /** what shows once the page holds its data (default: the h1) */
  ready?: (page: Page) => Promise<unknown>;
  /** a dialog or state opened after the first check, checked again (with the test's own expect: the tests run concurrently) */
  then?: (page: Page, expect: ExpectStatic) => Promise<unknown>;
}

const h1 = (page: Page, name?: string) => page.getByRole('heading', { level: 1, name }).first().waitFor();

const CASES: RouteCase[] = [
  {
    name: '/ (and the wizard with its validation messages)',
    who: 'anonymous',
    path: () => '/',
    then: async (page) => {
      await page.goto(`${web()}/#candidatura`);
      await page.getByTestId('wizard').waitFor({ timeout: 30_000 });
      await page.getByTestId('wizard-next').click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    },
  },
  {
    name: '/auth (and two login errors stacked as toasts)',
    who: 'anonymous',
    path: () => '/auth',
    then: async (page, expect) => {
      await page.getByTestId('login-email').fill(uniqueEmail('sconosciuto'));
      await page.getByTestId('login-password').fill('Sbagliata-2026');
      for (const count of [1, 2]) {
        await page.getByTestId('login-submit').click();
        await expect.poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'Errore di login' }).count()).toBe(count);
      }
    },
  },
  { name: '/seller-register', who: 'anonymous', path: () => '/seller-register' },
  {
    name: '/seller-register?token= (the sign-up tab)',
    who: 'anonymous',
    path: () => `/seller-register?token=${data.registerToken}`,
    then: (page) => page.getByTestId('tab-seller-signup').click(),
  },
  { name: '/privacy', who: 'anonymous', path: () => '/privacy' },
  { name: '404', who: 'anonymous', path: () => '/pagina-che-non-esiste', ready: (page) => page.getByText('Oops! Page not found').waitFor() },
  {
    name: '/seller-dashboard (and the new request dialog)',
    who: 'seller',
    path: () => '/seller-dashboard',
    ready: (page) => page.getByText('Via Carlo Goldoni 7').first().waitFor(),
    then: async (page) => {
      await page.getByTestId('seller-new-request').click();
      await page.getByRole('dialog', { name: 'Nuova Richiesta' }).getByTestId('wizard').waitFor();
    },
  },
  {
    name: '/seller-profile (and the account deletion dialog)',
    who: 'seller',
    path: () => '/seller-profile',
    then: async (page) => {
      await page.getByTestId('seller-delete-open').click();
      await page.getByRole('dialog', { name: "Eliminare definitivamente l'account?" }).waitFor();
      // the dialog as the seller reads it: what is erased and what is kept, loaded
      await page.getByTestId('seller-delete-plan').waitFor();
    },
  },
  { name: '/seller-kyc?token=', who: 'seller', path: () => `/seller-kyc?token=${data.kycToken}`, ready: (page) => page.getByTestId('kyc-page').waitFor() },
  { name: '/availability/{token}', who: 'seller', path: () => data.availabilityPath, ready: (page) => h1(page, 'Le tue disponibilità') },
  {
    name: '/admin (and the delete confirmation)',
    who: 'admin',
    path: () => '/admin',
    ready: (page) => page.getByTestId('request-row').first().waitFor(),
    then: async (page) => {
      await page.getByTestId('request-row').first().getByTestId('request-delete').click();
      await page.getByRole('dialog').getByText('Eliminare la richiesta?').waitFor();
    },
  },
  {
    name: '/users (and the delete confirmation)',
    who: 'admin',
    path: () => '/users',
    ready: (page) => page.getByTestId('user-row').first().waitFor(),
    then: async (page) => {
      await page.getByTestId('user-row').filter({ hasText: 'venditore@demo' }).getByTestId('user-delete').click();
      await page.getByRole('dialog', { name: "Eliminare l'utente?" }).waitFor();
    },
  },
  { name: '/active-options', who: 'admin', path: () => '/active-options' },
  { name: '/investigation/{id}', who: 'admin', path: () => `/investigation/${data.propertyId}`, ready: (page) => page.getByTestId('option-summary').waitFor() },
  { name: '/omi-import', who: 'admin', path: () => '/omi-import' },
  { name: '/omi-data', who: 'admin', path: () => '/omi-data' },
  { name: '/sources', who: 'admin', path: () => '/sources' },
  { name: '/agent-area/profile', who: 'agent', path: () => '/agent-area/profile', ready: (page) => page.getByTestId('agent-profile').waitFor() },
  { name: '/agent-area/purchase-options (Le Mie Richieste)', who: 'agent', path: () => '/agent-area/purchase-options?tab=requests' },
  {
    name: '/agent-area/purchase-options (Opzioni Disponibili, and the media dialog)',
    who: 'agent',
    path: () => '/agent-area/purchase-options?tab=available',
    ready: (page) => page.locator(`[data-testid="agent-option"][data-property-id="${data.withMedia}"]`).waitFor(),
    then: async (page) => {
      await page.locator(`[data-testid="agent-option"][data-property-id="${data.withMedia}"]`).getByTestId('option-media').click();
      await page.getByRole('dialog').getByTestId('media-photo').first().waitFor();
    },
  },
  { name: '/agent-area/purchase-options (Opzioni in Carico)', who: 'agent', path: () => '/agent-area/purchase-options?tab=assigned' },
];

beforeAll(async () => {
  useStackEnv();
  await importOmi(MILANO.valori2025, '2025-S1');
  await importOmi(MILANO.zone2025, '2025-S1');
  const seller = await sellerWithSignedOption();
  // a request not yet claimed: the registration link of its estimate e-mail
  const waiting = newId();
  const res = await apiFrom(newClientIp(), 'POST', '/properties', { ...fullBody(waiting), email: uniqueEmail('venditore') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  data.registerToken = await invitationToken(waiting);
  // other files list options too (files run side by side): the media dialog is opened on this one
  data.withMedia = (await listedOption({ media: true })).propertyId;

  browser = await launchBrowser();
  const accounts = stack().accounts;
  contexts.set('anonymous', (await newPage(browser)).context);
  contexts.set('admin', await signedInContext(browser, web(), accounts.find((a) => a.role === 'admin')!, '/admin'));
  contexts.set('agent', await signedInContext(browser, web(), accounts.find((a) => a.role === 'agent')!, '/agent-area/profile'));
  contexts.set('seller', await signedInContext(browser, web(), { email: seller.email, password: SELLER_PASSWORD }, '/seller-dashboard'));
}, 240_000);
afterAll(async () => {
  for (const c of contexts.values()) await c.close().catch(() => undefined);
  await browser?.close();
});

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['390 px', PHONE],
] as const) {
  // three pages at a time (the project's maxConcurrency): a page mostly waits on the backend and on the network going quiet
  describe.concurrent(`axe-core on every route at ${label}: no serious or critical violation`, () => {
    for (const c of CASES) {
      // the test's own expect: a concurrent test's assertions must not use the global one
      it(c.name, async ({ expect }) => {
        const page = await contexts.get(c.who)!.newPage();
        page.setDefaultTimeout(20_000);
        try {
          await page.setViewportSize(viewport);
          await page.goto(`${web()}${c.path()}`);
          await h1(page);
          await (c.ready ?? (() => undefined))(page);
          await page.waitForLoadState('networkidle');
          await expectAccessible(page, expect);
          if (c.then) {
            await c.then(page, expect);
            await expectAccessible(page, expect);
          }
        } finally {
          await page.close();
        }
      });
    }
  });
}

// the check itself must be able to fail: a page with serious violations (a button without a
// name, grey text below 4.5:1) is refused, and the same page fixed passes
describe('the axe check', () => {
  it('refuses serious violations and passes the page once they are fixed', async () => {
    const page = await contexts.get('anonymous')!.newPage();
    try {
      const body = (button: string, color: string) =>
        `<!doctype html><html lang="it"><head><title>Prova</title></head><body><main><h1>Prova</h1>${button}<p style="color:${color};background:#fff">Testo della prova</p></main></body></html>`;
      await page.setContent(body('<button></button>', '#bbbbbb'));
      expect((await seriousViolations(page)).map((v) => v.id).sort()).toEqual(['button-name', 'color-contrast']);
      await expect(expectAccessible(page)).rejects.toThrow();
      await page.setContent(body('<button>Invia</button>', '#333333'));
      await expectAccessible(page);
    } finally {
      await page.close();
    }
  });
});
