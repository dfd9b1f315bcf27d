import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { enterSignUpCode, expectAccessible, launchBrowser, MOBILE, newPage, signIn, toastWith } from '../support/browser';
import { addToGroup, confirmationCode, signUp, stack, totpCode, uniqueEmail } from '../support/helpers';

let browser: Browser;
const web = () => stack().webUrl!;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const signInWith = (page: Page, email: string, password: string) => signIn(page, web(), { email, password });

describe('home page fee simulator', () => {
  it('computes the up-front fee as a person types it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(web());
    await expect.poll(() => page.getByTestId('duration-select').inputValue()).toBe('6');
    expect(await page.getByTestId('simulator-result').count()).toBe(0);
    // 250.000 € at 8 months -> 2.500 €
    await page.getByTestId('keypad-key-2').click();
    await page.getByTestId('keypad-key-5').click();
    await page.getByTestId('keypad-key-0').click();
    await page.getByTestId('keypad-key-000').click();
    await expect.poll(() => page.getByTestId('simulator-display').textContent()).toBe('250.000 €');
    await expect.poll(() => page.getByTestId('simulator-result-amount').textContent()).toBe('1.750 €');
    await page.getByTestId('duration-select').selectOption('8');
    await expect.poll(() => page.getByTestId('simulator-result-amount').textContent()).toBe('2.500 €');
    await page.getByTestId('duration-select').selectOption('12');
    await expect.poll(() => page.getByTestId('simulator-result-amount').textContent()).toBe('3.750 €');
    const result = await page.getByTestId('simulator-result').textContent();
    expect(result).toContain('Riceverai subito');
    expect(result).toContain('a fondo perduto');
    await page.getByTestId('keypad-key-clear').click();
    await expect.poll(() => page.getByTestId('simulator-result').count()).toBe(0);
    await context.close();
  });

  it('works at 360 px and shows the footer with the company data', async () => {
    const { context, page } = await newPage(browser, MOBILE);
    await page.goto(web());
    await page.getByTestId('keypad-key-1').click();
    await page.getByTestId('keypad-key-000').click();
    await page.getByTestId('keypad-key-000').click();
    await expect.poll(() => page.getByTestId('simulator-result-amount').textContent()).toBe('7.000 €');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    const footer = await page.getByTestId('site-footer').textContent();
    expect(footer).toContain('Opzione Casa S.r.l.');
    expect(footer).toContain('IT12345678901');
    await context.close();
  });
});

describe('sign-in lands each demo role on its page', () => {
  const cases = [
    { role: 'admin', path: '/admin', heading: 'Dashboard Admin' },
    { role: 'agent', path: '/agent-area/profile', heading: 'Profilo Agente' },
    { role: 'seller', path: '/seller-dashboard', heading: 'Le mie richieste' },
  ] as const;
  for (const c of cases) {
    it(`${c.role} -> ${c.path}`, async () => {
      const account = stack().accounts.find((a) => a.role === c.role)!;
      const { context, page } = await newPage(browser);
      await signInWith(page, account.email, account.password);
      await page.waitForURL((u) => u.pathname === c.path);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toContain(c.heading);
      expect(await page.getByText('Login effettuato!').count()).toBeGreaterThan(0);
      await context.close();
    });
  }

  it('refuses a wrong password with the spec toast', async () => {
    const { context, page } = await newPage(browser);
    await signInWith(page, 'venditore@demo.opzionecasa.it', 'sbagliata');
    await page.getByText('Errore di login').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });

  it('keeps a seller out of the admin pages with "Accesso negato"', async () => {
    const seller = stack().accounts.find((a) => a.role === 'seller')!;
    const { context, page } = await newPage(browser);
    await signInWith(page, seller.email, seller.password);
    await page.waitForURL((u) => u.pathname === '/seller-dashboard');
    await page.goto(`${web()}/omi-import`);
    await page.getByText('Accesso negato').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('sends a visitor who is not signed in from an admin page to /auth', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${web()}/admin`);
    await page.waitForURL((u) => u.pathname === '/auth');
    await context.close();
  });
});

describe('sign-up', () => {
  it('an agent signs up, then signs in and lands in the agent area, which waits for an admin approval', async () => {
    const email = uniqueEmail('agente-e2e');
    const { context, page } = await newPage(browser);
    await page.goto(`${web()}/auth`);
    await page.getByRole('tab', { name: 'Sei un agente immobiliare?' }).click();
    await page.getByTestId('agent-signup-name').fill('Paolo Agenti');
    await page.getByTestId('agent-signup-email').fill(email);
    await page.getByTestId('agent-signup-password').fill('segreta1');
    await page.getByTestId('agent-signup-submit').click();
    // the e-mail's ownership: the code Cognito sent; a wrong one is refused in Italian
    await page.getByRole('heading', { name: 'Conferma la tua email' }).waitFor();
    const code = await confirmationCode(email);
    await page.getByTestId('agent-confirm-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('agent-confirm-submit').click();
    await page.getByText('Codice non corretto').waitFor();
    await page.getByTestId('agent-confirm-code').fill('12');
    await page.getByTestId('agent-confirm-submit').click();
    await page.getByText('Il codice è formato da 6 cifre').waitFor();
    await expectAccessible(page);
    await enterSignUpCode(page, email, 'agent-confirm');
    await page.getByText('Registrazione completata!').waitFor();
    await expect.poll(() => page.getByRole('tab', { name: 'Login' }).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('segreta1');
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/agent-area/profile');
    // a self-registered agent is pending until an admin approves the account (Gestione Utenti)
    await page.getByRole('heading', { level: 1, name: 'Account in attesa di approvazione' }).waitFor();
    await expect.poll(() => page.locator('main').textContent()).toContain(email);
    await context.close();
  });

  it('a seller with a 5-character password sees "Minimo 6 caratteri" and nothing is sent', async () => {
    const { context, page } = await newPage(browser);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${web()}/seller-register`);
    await expect.poll(() => page.getByTestId('seller-register-intro').textContent()).toContain('Crea il tuo account per iniziare');
    await page.getByTestId('seller-signup-name').fill('Sara Neri');
    await page.getByTestId('seller-signup-email').fill(uniqueEmail('venditrice'));
    await page.getByTestId('seller-signup-password').fill('12345');
    await page.getByTestId('seller-signup-submit').click();
    await page.getByText('Minimo 6 caratteri').waitFor();
    expect(requests.filter((u) => u.startsWith(stack().urls.cognito))).toEqual([]);
    await context.close();
  });

  it('a seller signs up with 6 characters and lands on the dashboard after signing in', async () => {
    const email = uniqueEmail('venditore-e2e');
    const { context, page } = await newPage(browser);
    await page.goto(`${web()}/seller-register?token=abcdefghijklmnopqrstuvwx`);
    await expect.poll(() => page.getByTestId('seller-register-intro').textContent()).toContain(
      "Registrati o accedi per visualizzare l'opzione di acquisto",
    );
    await page.goto(`${web()}/seller-register`);
    await page.getByTestId('seller-signup-name').fill('Luca Bruni');
    await page.getByTestId('seller-signup-email').fill(email);
    await page.getByTestId('seller-signup-password').fill('123456');
    await page.getByTestId('seller-signup-submit').click();
    await enterSignUpCode(page, email, 'seller-confirm');
    await page.getByText('Registrazione completata!').waitFor();
    await page.getByTestId('seller-login-email').fill(email);
    await page.getByTestId('seller-login-password').fill('123456');
    await page.getByTestId('seller-login-submit').click();
    await page.waitForURL((u) => u.pathname === '/seller-dashboard');
    await context.close();
  });
});

describe('sign-in of an unconfirmed account', () => {
  it('asks for the code, sends a new one on request, then signs in', async () => {
    const email = uniqueEmail('nonconfermato');
    await signUp({ email, password: 'segreta1', name: 'Nadia Conti', userType: 'venditore' }, { confirm: false });
    const { context, page } = await newPage(browser, MOBILE);
    await page.goto(`${web()}/auth`);
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('segreta1');
    await page.getByTestId('login-submit').click();
    await page.getByText('Il tuo account non è ancora confermato.').waitFor();
    const first = await confirmationCode(email);
    const before = Date.now();
    await page.getByTestId('login-confirm-resend').click();
    await toastWith(page, 'Codice inviato').waitFor();
    const second = await confirmationCode(email, { after: before });
    if (second !== first) {
      await page.getByTestId('login-confirm-code').fill(first);
      await page.getByTestId('login-confirm-submit').click();
      await page.getByText('Codice non corretto').waitFor();
    }
    await expectAccessible(page);
    await enterSignUpCode(page, email, 'login-confirm');
    await page.waitForURL((u) => u.pathname === '/seller-dashboard');
    await toastWith(page, 'Login effettuato!').waitFor();
    await context.close();
  });
});

describe('admin accounts', () => {
  it('a new admin with a weak password chooses a stronger one, sets up the authenticator app, then signs in with its code', async () => {
    const email = uniqueEmail('admin-e2e');
    const res = await signUp({ email, password: 'segreta1', name: 'Alessia Admin', userType: 'venditore' });
    await addToGroup(res.UserSub!, 'admin');
    const { context, page } = await newPage(browser, MOBILE);
    await page.goto(`${web()}/auth`);
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('segreta1');
    await page.getByTestId('login-submit').click();

    // the admin rule, checked at sign-in
    await page.getByRole('heading', { name: 'Scegli una password più sicura' }).waitFor();
    await page.getByTestId('admin-password-new').fill('segreta12345');
    await page.getByTestId('admin-password-confirm').fill('segreta12345');
    await page.getByTestId('admin-password-submit').click();
    await page.getByText('La password deve contenere una lettera maiuscola').waitFor();
    await page.getByTestId('admin-password-new').fill('Nuova-Password-2026');
    await page.getByTestId('admin-password-confirm').fill('Nuova-Password-2026');
    await page.getByTestId('admin-password-submit').click();

    // the admin area waits for the authenticator app
    await page.getByRole('heading', { level: 1, name: 'Attiva la verifica in due passaggi' }).waitFor();
    await page.getByTestId('mfa-setup-start').click();
    const secret = (await page.getByTestId('mfa-setup-secret').textContent())!;
    expect(await page.getByTestId('mfa-setup-link').getAttribute('href')).toMatch(/^otpauth:\/\/totp\/Opzione%20Casa:/);
    await page.getByTestId('mfa-setup-code').fill('000000');
    await page.getByTestId('mfa-setup-submit').click();
    await page.getByText("Codice non corretto: controlla l'app di autenticazione").waitFor();
    await expectAccessible(page);
    await page.getByTestId('mfa-setup-code').fill(totpCode(secret));
    await page.getByTestId('mfa-setup-submit').click();
    await toastWith(page, 'Verifica in due passaggi attiva').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Attiva la verifica in due passaggi' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/admin');
    await context.close();

    // next sign-in: password, then the app's code
    const second = await newPage(browser);
    await second.page.goto(`${web()}/auth`);
    await second.page.getByTestId('login-email').fill(email);
    await second.page.getByTestId('login-password').fill('Nuova-Password-2026');
    await second.page.getByTestId('login-submit').click();
    await second.page.getByRole('heading', { name: 'Verifica in due passaggi' }).waitFor();
    await second.page.getByTestId('login-totp-code').fill(totpCode(secret));
    await second.page.getByTestId('login-totp-submit').click();
    await second.page.waitForURL((u) => u.pathname === '/admin');
    await second.page.getByRole('heading', { level: 1, name: 'Attiva la verifica in due passaggi' }).waitFor({ state: 'detached', timeout: 5000 });
    await second.context.close();
  });
});

describe('accessibility (axe-core: no serious or critical violation)', () => {
  for (const path of ['/', '/auth', '/privacy', '/pagina-che-non-esiste']) {
    it(path, async () => {
      const { context, page } = await newPage(browser);
      await page.goto(`${web()}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expectAccessible(page);
      await context.close();
    });
  }

  it('the privacy page has ten sections and today as last update', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${web()}/privacy`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 2 }).count()).toBe(10);
    const today = new Intl.DateTimeFormat('it-IT', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Rome' }).format(new Date());
    expect(await page.locator('main').textContent()).toContain(today);
    await context.close();
  });

  it('the 404 page says "Oops! Page not found" and logs the path', async () => {
    const { context, page } = await newPage(browser);
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    await page.goto(`${web()}/pagina-che-non-esiste`);
    await page.getByText('Oops! Page not found').waitFor();
    expect(logs.join('\n')).toContain('/pagina-che-non-esiste');
    await context.close();
  });
});
