import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { linkFrom, setPassword } from '#test/helpers/auth.ts';
import {
  collectPageProblems,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  openContext,
  pathOf,
} from '#test/helpers/browser.ts';
import { createMember, type TestUser } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const CRITERIA = ['Upper and lower case', '8 characters', 'Numbers or symbols'] as const;
const NEW_PASSWORD = 'Brand-New-Pass-7';

/** Each criterion as a screen reader hears it: "met" or "not met". */
async function criteria(page: Page): Promise<Record<string, 'met' | 'not met'>> {
  const states: Record<string, 'met' | 'not met'> = {};
  for (const label of CRITERIA) {
    const text = (await page.getByRole('listitem').filter({ hasText: label }).textContent()) ?? '';
    states[label] = text.includes('(met)') ? 'met' : 'not met';
  }
  return states;
}
const only = (...met: string[]) => Object.fromEntries(CRITERIA.map((c) => [c, met.includes(c) ? 'met' : 'not met']));

/** From the password step: Forgot password? -> Email me a reset link -> Check your inbox. */
async function requestResetLink(t: Test, page: Page, app: FastifyInstance, member: TestUser, axe: boolean) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
  t.equal(pathOf(page), '/password/forgot');
  t.equal(await page.getByRole('textbox', { name: 'Email' }).inputValue(), member.email, 'the forgot page has the email filled in');
  t.ok(await page.getByRole('button', { name: 'Email me a sign-in code' }).isVisible(), 'offers a sign-in code too');
  t.ok(await page.getByRole('link', { name: 'Cancel' }).isVisible(), 'and a way back');
  if (axe) {
    await expectNoAxeViolations(t, page, 'the forgot-password page');
    // An address no member uses: the spec's message by the field, what was typed kept.
    const stranger = `no-one-${member.email}`;
    await page.getByRole('textbox', { name: 'Email' }).fill(stranger);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    const field = page.getByRole('textbox', { name: 'Email' });
    await page.getByText('A member with that username could not be found').waitFor();
    t.equal(await field.inputValue(), stranger, 'an unknown username: the address typed is kept');
    t.match(await field.getAttribute('aria-describedby'), /email-error/, 'and the message belongs to the field');
    await expectNoAxeViolations(t, page, 'the forgot-password page with its message');
    await field.fill(member.email);
  }
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
  t.ok(
    await page.getByText(`If ${member.email} belongs to a member, a link to reset the password is on its way. It works for 60 minutes.`).isVisible(),
    'Check your inbox names the address',
  );
  t.ok(await page.getByRole('link', { name: 'Back to sign in' }).isVisible(), 'with a way back to sign-in');
  if (axe) await expectNoAxeViolations(t, page, 'the check-your-inbox page');
  const link = new URL(await linkFrom(app, member.email));
  return `${link.pathname}${link.search}`;
}

/** Signs in from the sign-in page the reset ended on, with the new password. */
async function signInWithNewPassword(t: Test, page: Page, member: TestUser) {
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  t.ok(await page.getByRole('heading', { level: 1, name: `Welcome back, ${member.firstName} ${member.lastName}` }).isVisible(), 'the new password signs in');
}

t.test('resetting a forgotten password in a browser', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;

  await t.test('with JavaScript on: the criteria tick as you type, a mismatch shows on blur, Save waits for every rule, and the new password works', async (t) => {
    const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
    await setPassword(db, member.id);
    const context = await openContext(t, browser, baseUrl);
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    const resetPath = await requestResetLink(t, page, app, member, true);

    await page.goto(resetPath);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    const save = page.getByRole('button', { name: 'Save password' });
    await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('form button[type="submit"]')?.disabled === true);
    t.pass('hydrated: Save is disabled while the fields are empty');
    t.ok(await page.getByText('Your password needs').isVisible(), 'lists what the password needs');
    t.same(await criteria(page), only(), 'no criterion is met yet');
    await expectNoAxeViolations(t, page, 'the reset form');

    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    await password.pressSequentially('Br');
    t.same(await criteria(page), only('Upper and lower case'), 'upper and lower case ticks first');
    t.ok(await save.isDisabled(), 'Save is disabled while a rule fails');
    await password.pressSequentially('and-');
    t.same(await criteria(page), only('Upper and lower case', 'Numbers or symbols'), 'a symbol ticks Numbers or symbols');
    t.match(await page.locator('.criteria [aria-live="polite"]').innerText(), 'Numbers or symbols (met)', 'the change is announced in a live region');
    t.ok(await save.isDisabled(), 'Save is still disabled: too short');
    await password.pressSequentially('New-Pass-7');
    t.equal(await password.inputValue(), NEW_PASSWORD);
    t.same(await criteria(page), only(...CRITERIA), 'eight characters tick the last one');
    const met = page.getByRole('listitem').filter({ hasText: '8 characters' });
    t.match(await met.innerText(), /✓/, 'a met criterion shows a tick');

    await confirm.focus();
    const mismatch = page.getByText('The passwords do not match.');
    t.equal(await mismatch.count(), 0, 'no mismatch message while the confirmation has the focus');
    await page.keyboard.press('Tab');
    await mismatch.waitFor();
    t.ok(await mismatch.isVisible(), 'leaving the confirmation empty shows the mismatch on blur');
    t.equal(await confirm.getAttribute('aria-invalid'), 'true', 'the confirmation is marked invalid');
    t.ok(await save.isDisabled(), 'Save is disabled while the two differ');
    await expectNoAxeViolations(t, page, 'the reset form with the mismatch message');

    await confirm.fill(NEW_PASSWORD);
    await mismatch.waitFor({ state: 'detached' });
    t.ok(await save.isEnabled(), 'matching and strong: Save is enabled');
    await password.fill(NEW_PASSWORD.slice(0, -1));
    t.ok(await save.isDisabled(), 'changing the password again disables Save');
    t.ok(await mismatch.isVisible(), 'and the mismatch comes back');
    await password.fill(NEW_PASSWORD);
    await save.click();

    await page.waitForURL((url) => url.pathname === '/login');
    const saved = page.getByRole('status').filter({ hasText: 'Your password has been saved. Sign in with it now.' });
    t.ok(await saved.isVisible(), 'the sign-in page says the password was saved');
    t.equal(await page.getByRole('textbox', { name: 'Email' }).inputValue(), member.email, 'with the email filled in');
    await expectNoAxeViolations(t, page, 'the sign-in page after a reset');
    await signInWithNewPassword(t, page, member);
    t.same(
      problems.filter((p) => !p.includes('Failed to load resource: the server responded with a status of 404')), // the unknown username answers 404
      [],
      'no script errors, no CSP refusals, no hydration mismatch',
    );

    // The link works once.
    await page.goto(resetPath);
    t.ok(await page.getByRole('heading', { level: 1, name: 'This link is invalid' }).isVisible(), 'a used link is invalid');
  });

  await t.test('with JavaScript off: the server refuses a weak password, then saves a strong one', async (t) => {
    const member = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
    await setPassword(db, member.id);
    const context = await openContext(t, browser, baseUrl, { javaScriptEnabled: false });
    const page = await context.newPage();
    const resetPath = await requestResetLink(t, page, app, member, false);

    await page.goto(resetPath);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    const save = page.getByRole('button', { name: 'Save password' });
    t.ok(await save.isEnabled(), 'Save is a plain submit button');
    for (const label of CRITERIA) t.ok(await page.getByRole('listitem').filter({ hasText: label }).isVisible(), `lists ${label}`);
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the reset form');

    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    await password.fill('alllowercase');
    await confirm.fill('alllowercase');
    await save.click();
    const weak = page.getByText('The password does not meet the requirements.');
    await weak.waitFor();
    t.ok(await weak.isVisible(), 'a weak password is refused by the server');
    t.equal(await password.getAttribute('aria-invalid'), 'true', 'the field is marked invalid');
    t.equal(pathOf(page), '/password/reset');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the reset form with the server error');

    await password.fill(NEW_PASSWORD);
    await confirm.fill('Brand-New-Pass-8');
    await save.click();
    await page.getByText('The passwords do not match.').waitFor();
    t.pass('a different confirmation is refused too');

    await password.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    await save.click();
    await page.waitForURL((url) => url.pathname === '/login');
    t.ok(await page.getByText('Your password has been saved. Sign in with it now.').isVisible(), 'saved');
    await signInWithNewPassword(t, page, member);
  });

  await t.test('a made-up link shows the invalid-link page with a way to request a new one', async (t) => {
    const context = await openContext(t, browser, baseUrl);
    const page = await context.newPage();
    const response = await page.goto('/password/reset?token=nonsense');
    t.equal(response?.status(), 400);
    t.ok(await page.getByRole('heading', { level: 1, name: 'This link is invalid' }).isVisible(), 'says the link is invalid');
    t.ok(
      await page.getByRole('alert').filter({ hasText: 'This link is invalid or has expired. Request a new one to reset your password.' }).isVisible(),
      'and why',
    );
    await expectNoAxeViolations(t, page, 'the invalid-link page');
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    t.equal(pathOf(page), '/password/forgot', 'Request a new link opens the forgot page');
  });
});
