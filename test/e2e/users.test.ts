/**
 * Gestione Utenti (/users) in Chromium, as the admin: a freshly signed-up agent waits
 * first in the list with 'In attesa di approvazione' and is approved; a fresh user's role
 * goes to Amministratore and back ('Ruolo aggiornato'); edit (the spec's validation) and
 * delete after confirming; axe at desktop and at 390 px (screenshots in /tmp). A pending
 * agent who signs in sees 'Account in attesa di approvazione' instead of the agent area.
 * Only fresh accounts are changed, never the demo ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, newPage, signIn, signedInContext, toastWith, saveShot } from '../support/browser';
import { api, signUp, stack, tokenForRole, uniqueEmail } from '../support/helpers';

let browser: Browser;
let admin: BrowserContext;
const web = () => stack().webUrl!;
const PASSWORD = 'segreta1';
const PHONE = { width: 390, height: 844 };

async function freshUser(userType: 'venditore' | 'agente_immobiliare', name: string) {
  const email = uniqueEmail(userType === 'venditore' ? 'e2e.venditore' : 'e2e.agente');
  const res = await signUp({ email, password: PASSWORD, name, userType });
  return { sub: res.UserSub!, email, name };
}

async function usersPage(): Promise<Page> {
  const page = await admin.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${web()}/users`);
  await page.getByRole('heading', { level: 1, name: 'Gestione Utenti' }).waitFor();
  await page.locator('[data-testid="users-table"], [data-testid="users-empty"]').first().waitFor();
  return page;
}

const toast = toastWith;
const rowOf = (page: Page, sub: string) => page.locator(`[data-testid="user-row"][data-user-id="${sub}"]`);

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedInContext(browser, web(), stack().accounts.find((a) => a.role === 'admin')!, '/admin');
});
afterAll(async () => {
  await admin?.close();
  await browser?.close();
});

describe('/users (admin)', () => {
  it('approves a freshly signed-up pending agent', async () => {
    const agent = await freshUser('agente_immobiliare', `Agente E2E ${Date.now().toString(36)}`);
    const page = await usersPage();
    const row = rowOf(page, agent.sub);
    await row.waitFor();
    expect(await row.getAttribute('data-agent-status')).toBe('pending');
    await row.getByText('In attesa di approvazione').waitFor();
    // pending agents come first
    expect(await page.getByTestId('user-row').first().getAttribute('data-agent-status')).toBe('pending');
    // columns: e-mail, type label, registration date dd/MM/yyyy
    expect(await row.textContent()).toContain(agent.email);
    expect(await row.textContent()).toContain('Agente immobiliare');
    const today = new Intl.DateTimeFormat('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Rome' }).format(new Date());
    expect(await row.locator('time').textContent()).toBe(today);
    await expectAccessible(page);
    await saveShot(page, 'users', 'users-desktop');

    await row.getByTestId('user-approve').click();
    await toast(page, 'Agente approvato').waitFor();
    await expect.poll(() => row.getAttribute('data-agent-status')).toBe('approved');
    expect(await row.getByText('In attesa di approvazione').count()).toBe(0);
    await page.close();
  });

  it("changes a fresh user's role and sees 'Ruolo aggiornato'", async () => {
    const user = await freshUser('venditore', `Venditore E2E ${Date.now().toString(36)}`);
    const page = await usersPage();
    const row = rowOf(page, user.sub);
    await row.waitFor();
    const select = row.getByRole('combobox', { name: `Ruolo di ${user.name}` });
    expect(await select.inputValue()).toBe('user');
    await select.selectOption('admin');
    await toast(page, 'Ruolo aggiornato').waitFor();
    await expect.poll(() => row.getByTestId('user-role').textContent()).toBe('Amministratore');
    await select.selectOption('user');
    await expect.poll(() => row.getByTestId('user-role').textContent()).toBe('Utente');
    await page.close();
  });

  it('edits a user with the spec validation, then deletes them after confirming', async () => {
    const user = await freshUser('venditore', `Da Modificare ${Date.now().toString(36)}`);
    const page = await usersPage();
    const row = rowOf(page, user.sub);
    await row.getByTestId('user-edit').click();
    const dialog = page.getByRole('dialog', { name: 'Modifica utente' });
    await dialog.waitFor();
    await page.getByTestId('user-edit-name').fill('  ');
    await page.getByTestId('user-edit-email').fill('non-valida');
    await page.getByTestId('user-edit-save').click();
    await dialog.getByText('Il nome è obbligatorio').waitFor();
    await dialog.getByText('Email non valida').waitFor();
    expect(await page.getByTestId('user-edit-name').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await saveShot(page, 'users', 'users-edit', { fullPage: false });
    const newName = `Modificato ${Date.now().toString(36)}`;
    await page.getByTestId('user-edit-name').fill(newName);
    await page.getByTestId('user-edit-email').fill(user.email);
    await page.getByTestId('user-edit-type').selectOption('agenzia');
    await page.getByTestId('user-edit-companyName').fill('Agenzia Prova srl');
    await page.getByTestId('user-edit-save').click();
    await toast(page, 'Utente aggiornato').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.textContent()).toContain(newName);
    expect(await row.textContent()).toContain('Agenzia');

    await row.getByTestId('user-delete').click();
    const confirm = page.getByRole('dialog', { name: "Eliminare l'utente?" });
    await confirm.getByText("l'account di accesso: non potrà più entrare.").waitFor();
    await expectAccessible(page);
    await page.getByTestId('user-delete-confirm').click();
    await toast(page, 'Utente eliminato').waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await page.close();
  });

  it('is usable and accessible at 390 px (rows become cards)', async () => {
    await freshUser('agente_immobiliare', `Agente Mobile ${Date.now().toString(36)}`);
    const page = await usersPage();
    await page.setViewportSize(PHONE);
    await page.getByTestId('users-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await saveShot(page, 'users', 'users-390', { fullPage: false });
    await page.close();
  });
});

describe('pending agent', () => {
  it("sees 'Account in attesa di approvazione' instead of the agent area", async () => {
    const agent = await freshUser('agente_immobiliare', `Agente In Attesa ${Date.now().toString(36)}`);
    const { context, page } = await newPage(browser);
    await signIn(page, web(), { email: agent.email, password: PASSWORD }, '/agent-area/profile');
    await page.getByRole('heading', { level: 1, name: 'Account in attesa di approvazione' }).waitFor();
    await page.getByText('senza bisogno di uscire').waitFor();
    expect(await page.getByTestId('agent-profile').count()).toBe(0);
    await expectAccessible(page);
    await saveShot(page, 'users', 'agent-pending', { fullPage: false });
    // approved while signed in: "Controlla di nuovo" refreshes the tokens and the agent area opens
    await new Promise((r) => setTimeout(r, 1_100)); // the approval and the sign-in in different seconds (iat)
    const approved = await api('POST', `/users/${agent.sub}/agent-approval`, { token: await tokenForRole('admin'), body: { decision: 'approve' } });
    expect(approved.status).toBe(200);
    await page.getByTestId('agent-pending-refresh').click();
    await page.getByTestId('agent-profile').waitFor();
    await context.close();
  });
});
