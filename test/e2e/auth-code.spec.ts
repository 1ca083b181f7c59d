import t from 'tap';
import type { Page } from 'playwright-core';
import { codeFrom } from '#test/helpers/auth.ts';
import { collectPageProblems, expectNoAxeViolations, expectNoAxeViolationsWithoutJavaScript, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const box = (page: Page, n: number) => page.getByRole('textbox', { name: `Digit ${n} of 5` });
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
const boxValues = (page: Page) => Promise.all([1, 2, 3, 4, 5].map((n) => box(page, n).inputValue()));
/** A code that is not the one sent. */
const wrongCodeFor = (code: string) => (code === '12345' ? '54321' : '12345');

/** Pastes text into an element the way a browser does: a cancelable paste event carrying a DataTransfer. */
async function paste(page: Page, n: number, text: string) {
  await box(page, n).evaluate((input, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    input.focus();
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

t.test('signing in with a one-time code in a browser', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;

  await t.test('with JavaScript on: focus moves box to box, Verify waits for five digits, a paste fills them all, Resend clears them, the emailed code signs in', async (t) => {
    const member = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
    const context = await openContext(t, browser, baseUrl);
    const page = await context.newPage();
    const problems = collectPageProblems(page);

    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Enter your sign-in code' }).waitFor();
    const masked = /We sent a 5-digit code to (\S+)\. It works for 10 minutes\./.exec(await page.locator('.auth-intro').innerText());
    t.ok(masked, 'says where the code went and for how long');
    t.not(masked?.[1], member.email, 'the address is masked');
    t.ok(await codeFrom(app, member.email), 'Continue emailed a code: the member has no password');
    t.equal(await page.getByRole('button', { name: 'Use my password instead' }).count(), 0, 'no password to fall back to');

    const verify = page.getByRole('button', { name: 'Verify' });
    await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('button[value="verify"]')?.disabled === true);
    t.pass('hydrated: Verify is disabled while the boxes are empty');
    t.ok(await page.getByRole('group', { name: 'Sign-in code' }).isVisible(), 'hydrated, the one field became five boxes, a group named Sign-in code');
    t.equal(await page.locator('input[name="code"]').count(), 0, 'the single field is gone');
    await expectNoAxeViolations(t, page, 'the code step');

    await box(page, 1).click();
    for (const [i, digit] of ['1', '2', '3', '4'].entries()) {
      await page.keyboard.type(digit);
      t.equal(await focusedLabel(page), `Digit ${i + 2} of 5`, `typing digit ${i + 1} moves the focus to box ${i + 2}`);
      t.ok(await verify.isDisabled(), `Verify is still disabled with ${i + 1} of 5 digits`);
    }
    await page.keyboard.type('5');
    t.same(await boxValues(page), ['1', '2', '3', '4', '5'], 'one digit in each box');
    t.ok(await verify.isEnabled(), 'the fifth digit enables Verify');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    t.equal(await focusedLabel(page), 'Digit 4 of 5', 'Backspace in an empty box goes back to the previous one');
    t.ok(await verify.isDisabled(), 'Verify is disabled again with a digit missing');

    await paste(page, 1, '98765');
    t.same(await boxValues(page), ['9', '8', '7', '6', '5'], 'pasting a 5-digit code into the first box fills all five');
    t.equal(await focusedLabel(page), 'Digit 5 of 5', 'and leaves the focus on the last box');
    t.ok(await verify.isEnabled(), 'Verify is enabled');

    await page.getByRole('button', { name: 'Resend code' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent Code' }).waitFor();
    t.ok(await page.getByRole('status').filter({ hasText: 'Sent Code' }).isVisible(), 'Resend says Sent Code');
    await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('button[value="verify"]')?.disabled === true);
    t.same(await boxValues(page), ['', '', '', '', ''], 'and the boxes are empty again');
    await expectNoAxeViolations(t, page, 'the code step after Resend');
    // Every alert leaves after the one ttl (src/lib/alerts.ts, 5000 ms): 'Sent Code' too.
    await page.getByText('Sent Code').waitFor({ state: 'detached', timeout: 10_000 });
    t.pass("'Sent Code' leaves after its ttl");

    const code = await codeFrom(app, member.email);
    await paste(page, 1, wrongCodeFor(code));
    await verify.click();
    const error = page.getByRole('alert').filter({ hasText: 'That code is invalid or expired, request a new code below.' });
    await error.waitFor();
    t.ok(await error.isVisible(), 'a wrong code says it is invalid or expired');
    t.equal(await box(page, 1).getAttribute('aria-invalid'), 'true', 'the boxes are marked invalid');
    t.equal(await page.getByRole('group', { name: 'Sign-in code' }).getAttribute('aria-describedby'), 'code-error', 'and the group points at the message');
    await expectNoAxeViolations(t, page, 'the code step with a wrong code');

    await paste(page, 1, code);
    await verify.click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Grace Hopper' }).waitFor();
    t.pass('the emailed code signs in and ends on the home page');
    t.same(
      problems.filter((p) => !p.includes('Failed to load resource')), // the wrong code answers 400
      [],
      'no script errors, no CSP refusals, no hydration mismatch',
    );
  });

  await t.test('with JavaScript off: one five-digit field and a real form post; a wrong code is refused, the right one signs in', async (t) => {
    const member = await createMember(db, alpha, { firstName: 'Katherine', lastName: 'Johnson' });
    const context = await openContext(t, browser, baseUrl, { javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Enter your sign-in code' }).waitFor();
    const verify = page.getByRole('button', { name: 'Verify' });
    t.ok(await verify.isEnabled(), 'Verify is a plain submit button');
    const field = page.getByRole('textbox', { name: 'Sign-in code' });
    t.equal(await field.getAttribute('inputmode'), 'numeric', 'one labelled field, a numeric keypad');
    t.equal(await field.getAttribute('autocomplete'), 'one-time-code', 'the phone may offer the code');
    t.equal(await box(page, 1).count(), 0, 'no one-character boxes to lose a pasted code');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the code step');

    const code = await codeFrom(app, member.email);
    const typeCode = async (digits: string) => {
      await field.fill(digits);
    };
    await typeCode(wrongCodeFor(code));
    await verify.click();
    const error = page.getByRole('alert').filter({ hasText: 'That code is invalid or expired, request a new code below.' });
    await error.waitFor();
    t.ok(await error.isVisible(), 'a wrong code says it is invalid or expired');
    t.equal(pathOf(page), '/login/code/verify');
    t.equal(await field.inputValue(), '', 'the field is empty for the next try');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the code step with a wrong code');

    await typeCode(code);
    await verify.click();
    await page.waitForURL((url) => url.pathname === '/');
    t.ok(await page.getByRole('heading', { level: 1, name: 'Welcome back, Katherine Johnson' }).isVisible(), 'the right code signs in');
  });
});
