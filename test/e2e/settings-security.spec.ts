import t from 'tap';
import { hashPassword, verifyPassword } from '#src/core/passwords.ts';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  openContext,
  pathOf,
  PHONE,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const OLD = 'Old-password-1';
const NEW = 'New-password-2';
const NEWER = 'Newer-password-3';

t.test('settings → security in the browser: the modal dialog, the pages without JavaScript, sessions', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Secure' });
  await db.updateTable('users').set({ password_hash: await hashPassword(OLD) }).where('id', '=', ada.id).execute();
  const token = async () => (await signIn(app, ada, alpha)).token;
  const hashOf = async () => (await db.selectFrom('users').select('password_hash').where('id', '=', ada.id).executeTakeFirstOrThrow()).password_hash!;

  await t.test('with JavaScript at 390: change the password in the dialog; edit the phone (invalid, then valid)', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: await token() });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Security', level: 2 }).waitFor();
    await expectNoAxeViolations(t, page, 'the security section');

    const change = page.getByRole('link', { name: 'Change password' });
    await change.click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    t.equal(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal')), true, 'opened with showModal()');
    await page.waitForFunction(() => document.activeElement?.id === 'old-password');
    t.pass('focus in the first field');
    await expectNoAxeViolations(t, page, 'the password dialog');
    await expectNoSidewaysScroll(t, page, 'the password dialog at 390');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Change password', 'focus back on the link');

    await change.click();
    await dialog.waitFor();
    // The NewPasswordFields island comes to life in the dialog: Save waits for the rules, the confirmation is checked on blur.
    const save = dialog.getByRole('button', { name: 'Save' });
    await dialog.getByLabel('New password', { exact: true }).fill('weak');
    await page.waitForFunction(() => (document.querySelector('dialog[open] button[type="submit"]') as HTMLButtonElement | null)?.disabled === true);
    t.pass('Save is disabled while the new password is weak');
    await dialog.getByLabel('New password', { exact: true }).fill(NEW);
    await dialog.getByLabel('Confirm new password').fill('Other-password-5');
    await dialog.getByLabel('Current password').focus();
    await dialog.getByText('The passwords do not match.').waitFor();
    t.equal(await save.isDisabled(), true, 'and while the confirmation differs');
    await dialog.getByLabel('Confirm new password').fill(NEW);
    t.equal(await save.isDisabled(), true, 'and while the current password is empty');
    await dialog.getByLabel('Current password').fill('wrong-Password-9');
    await page.waitForFunction(() => (document.querySelector('dialog[open] button[type="submit"]') as HTMLButtonElement | null)?.disabled === false);
    t.pass('submittable once the current password is given');
    await dialog.getByLabel('New password', { exact: true }).fill(NEW);
    await dialog.getByLabel('Confirm new password').fill(NEW);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Current password incorrect').waitFor();
    t.equal(await page.evaluate(() => document.activeElement?.id), 'old-password', 'focus on the field at fault');
    t.equal(pathOf(page), '/settings', 'still in the dialog');
    await expectNoAxeViolations(t, page, 'the password dialog with a message');

    await dialog.getByLabel('Current password').fill(OLD);
    await dialog.getByLabel('New password', { exact: true }).fill(NEW);
    await dialog.getByLabel('Confirm new password').fill(NEW);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password was changed. Your other devices are signed out.').waitFor();
    t.equal(pathOf(page), '/settings/security', 'back on the section with its alert');
    t.ok(await verifyPassword(await hashOf(), NEW), 'stored');

    await page.getByRole('link', { name: 'Edit mobile phone' }).click();
    const phone = page.getByRole('dialog', { name: 'Mobile phone' });
    await phone.waitFor();
    await expectNoAxeViolations(t, page, 'the phone dialog');
    await phone.getByLabel('Number').fill('123');
    await phone.getByRole('button', { name: 'Save' }).click();
    await phone.getByText('Please enter a valid phone number.').waitFor();
    t.equal(await phone.getByLabel('Number').inputValue(), '123', 'the typed number is kept');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'phone-number', 'focus on the number');
    await expectNoAxeViolations(t, page, 'the phone dialog with a message');
    await phone.getByLabel('Country code').selectOption('GB');
    await phone.getByLabel('Number').fill('07400 123456');
    await phone.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your mobile phone was saved.').waitFor();
    t.match(await page.locator('main').textContent(), '+44 7400 123456');
    t.same(problems, [], 'no console errors or failed requests');
  });

  await t.test('without JavaScript at 1280: the password page; sign out everywhere else', async (t) => {
    const other = await signIn(app, ada, alpha);
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await token(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/settings/security');
    await page.getByRole('link', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Change password', level: 1 }).waitFor();
    t.equal(pathOf(page), '/settings/security/password', 'a page of its own');
    await page.getByLabel('Current password').fill(NEW);
    await page.getByLabel('New password', { exact: true }).fill(NEWER);
    await page.getByLabel('Confirm new password').fill('Mismatch-4x');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#confirm-password-error').waitFor();
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the password page with a message');
    await page.getByLabel('Current password').fill(NEW);
    await page.getByLabel('New password', { exact: true }).fill(NEWER);
    await page.getByLabel('Confirm new password').fill(NEWER);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password was changed. Your other devices are signed out.').waitFor();
    t.ok(await verifyPassword(await hashOf(), NEWER), 'stored');

    // A fresh session elsewhere, then sign out everywhere else.
    const another = await signIn(app, ada, alpha);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText("You're signed out everywhere else.").waitFor();
    await page.getByText("You're not signed in anywhere else.").waitFor();
    const live = await db.selectFrom('sessions').select('id').where('user_id', '=', ada.id).where('revoked_at', 'is', null).execute();
    t.equal(live.length, 1, 'only this device is left');
    void other;
    void another;
  });

  await t.test('no sideways scroll at 320 and 375 px with JavaScript on and off', async (t) => {
    await db.updateTable('sessions').set({ user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' }).where('user_id', '=', ada.id).execute();
    for (const javaScriptEnabled of [true, false]) {
      for (const width of [320, 375]) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 740 }, token: await token(), javaScriptEnabled });
        const page = await context.newPage();
        for (const path of ['/settings/security', '/settings/security/password', '/settings/security/phone']) {
          await page.goto(path);
          const what = `${path} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        }
        if (javaScriptEnabled) {
          await page.goto('/settings/security');
          await page.getByRole('link', { name: 'Change password' }).click();
          await page.getByRole('dialog', { name: 'Change password' }).waitFor();
          await expectNoSidewaysScroll(t, page, `the password dialog at ${width} px`);
        }
        await context.close();
      }
    }
  });
});
