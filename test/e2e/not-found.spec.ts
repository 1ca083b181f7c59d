import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('the 404 page in a browser', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await launchBrowser(t);
  const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const { token } = await signIn(app, member, alpha);

  for (const who of ['a visitor', 'a member'] as const) {
    await t.test(`${who} who visits an unknown path gets a 404 that says the page can't be found and leads back home`, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: who === 'a member' ? token : undefined });
      const page = await context.newPage();
      const response = await page.goto('/no/such/page');
      t.equal(response?.status(), 404, 'the response status is 404');
      t.equal(await page.title(), 'Page Not Found | Alpha Circle', 'the title starts with Page Not Found');
      const heading = page.getByRole('heading', { level: 1 });
      t.equal(await heading.innerText(), 'Page Not Found', 'the heading says Page Not Found');
      t.ok(await page.getByText("The page you are trying to reach can't be found.", { exact: true }).isVisible(), 'explains itself');
      t.ok(await page.getByRole('banner').isVisible(), 'inside the usual shell');

      const back = page.getByRole('main').getByRole('link', { name: 'Back to Home' });
      t.ok(await back.isVisible(), 'offers Back to Home');
      await Promise.all([page.waitForURL(`${baseUrl}/`), back.click()]);
      t.equal(pathOf(page), '/', 'Back to Home leads to the home page');
      const welcome = who === 'a member' ? 'Welcome back, Ada Lovelace' : 'Welcome to alpha Council';
      t.ok(await page.getByRole('heading', { level: 1, name: welcome }).isVisible(), 'which greets them');
    });
  }

  await t.test('the 404 page has no WCAG 2.1 A/AA violations', async (t) => {
    for (const who of ['a visitor', 'a member'] as const) {
      const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: who === 'a member' ? token : undefined, bypassCSP: true });
      const page = await context.newPage();
      await page.goto('/no/such/page');
      await expectNoAxeViolations(t, page, `the 404 page for ${who}`);
    }
  });
});
