import t from 'tap';
import type { Page } from 'playwright-core';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, PHONE, collectPageProblems, expectNoAxeViolations, expectNoAxeViolationsWithoutJavaScript, expectNoSidewaysScroll, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** No sideways scroll of the page itself (a wide table scrolls inside its own box). */
/** Clicks a button that submits a form and waits for the page it leads to. */
async function submitBy(page: Page, name: string) {
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('button', { name, exact: true }).click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('staff deactivate and reactivate a member, at phone and desktop width, with JavaScript on and off', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', app_name: 'Beta Circle' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  await db.insertInto('memberships').values({ community_id: beta.id, user_id: boss.id, roles: ['ADMIN', 'MEMBER'], company_name: 'Staff' }).execute();
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines International Holdings' });
  await createMember(db, beta, { firstName: 'Grace', lastName: 'Hopper', companyName: 'Cobol Works' });
  await db
    .updateTable('memberships')
    .set({ standing: 'Good', membership_tier: 'Premier', health: 'Healthy', vertical: 'Technology', is_founding: true })
    .where('user_id', '=', ada.id)
    .execute();
  const memberPath = `/admin/members/alpha/${ada.id}`;
  const isActive = async () => (await db.selectFrom('memberships').select('is_active').where('user_id', '=', ada.id).executeTakeFirstOrThrow()).is_active;

  for (const viewport of [PHONE, DESKTOP]) {
    await t.test(`with JavaScript at ${viewport.width} px`, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      // The member is signed in elsewhere: deactivation ends that session at once.
      const member = await openContext(t, browser, baseUrl, { viewport, token: (await signIn(app, ada, alpha)).token });
      const memberPage = await member.newPage();
      await memberPage.goto('/settings');
      t.equal(pathOf(memberPage), '/settings', 'the member is signed in');

      await page.goto('/admin/members');
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
      await expectNoAxeViolations(t, page, 'the members table');
      await page.getByLabel('Name, email or company').fill('lovelace');
      await submitBy(page, 'Apply');
      t.notOk(await page.getByRole('link', { name: 'Grace Hopper' }).count(), 'the search narrows the table');
      await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('link', { name: 'Ada Lovelace' }).click()]);
      t.equal(pathOf(page), memberPath);
      await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
      await expectNoAxeViolations(t, page, 'the admin view of a member');

      await submitBy(page, 'Deactivate member');
      await page.getByText('Ada Lovelace is deactivated: they are signed out and cannot sign in.').waitFor();
      t.equal(await isActive(), false, 'deactivated');
      await memberPage.goto('/settings');
      t.not(pathOf(memberPage), '/settings', 'the member’s next page is signed out');
      await expectNoAxeViolations(t, page, 'the page after deactivation');

      await submitBy(page, 'Activate member');
      await page.getByText('Ada Lovelace is active again and can sign in.').waitFor();
      t.equal(await isActive(), true, 'active again');
      await page.getByRole('listitem').filter({ hasText: 'Deactivated, by Bea Boss' }).first().waitFor();
      t.same(problems, [], 'no script errors');
    });
  }

  await t.test('notes and the generated password without JavaScript', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, javaScriptEnabled: false, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
    const page = await context.newPage();
    await page.goto(memberPath);
    await submitBy(page, 'Add note');
    await page.getByText('Write the note first.').waitFor();
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'a refused note');
    await page.getByLabel('Note').fill('Called about the retreat.');
    await submitBy(page, 'Add note');
    await page.getByText('Called about the retreat.').waitFor();
    await submitBy(page, 'Generate a password');
    const password = await page.getByTestId('generated-password').textContent();
    t.ok(password && password.length >= 16, 'the password is shown once');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the generated password');
    await submitBy(page, 'Deactivate member');
    await page.getByText('Ada Lovelace is deactivated').waitFor();
    t.equal(await isActive(), false);
    await submitBy(page, 'Activate member');
    t.equal(await isActive(), true);
  });

  for (const javaScriptEnabled of [true, false]) {
    for (const width of [320, 375]) {
      await t.test(`no sideways scroll at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async (t) => {
        const context = await openContext(t, browser, baseUrl, {
          viewport: { width, height: 800 },
          javaScriptEnabled,
          token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token,
        });
        const page = await context.newPage();
        for (const path of ['/admin/members', memberPath]) {
          await page.goto(path);
          await expectNoSidewaysScroll(t, page, path);
        }
        await page.goto('/admin/members');
        const box = page.getByRole('region', { name: 'Members' });
        const { boxScroll, boxClient } = await box.evaluate((el) => ({ boxScroll: el.scrollWidth, boxClient: el.clientWidth }));
        t.ok(boxScroll > boxClient, 'the wide table scrolls inside its own box');
        if (javaScriptEnabled) await expectNoAxeViolations(t, page, `the members table at ${width} px`);
        else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `the members table at ${width} px`);
      });
    }
  }
});
