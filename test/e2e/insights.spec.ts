import t from 'tap';
import { rollUp } from '#src/features/insights/rollup.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('insights in the browser: a member browses two pages (events recorded, Google only by choice); staff see the chart and its table', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', google_analytics_id: 'G-E2ETEST1' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Member' });
  const boss = await createMember(db, alpha, { firstName: 'Bea', lastName: 'Boss', roles: ['ADMIN', 'MEMBER'] });
  const views = async () => (await db.selectFrom('insight_events').select(['label', 'device']).where('user_id', '=', ada.id).where('category', '=', 'page').orderBy('id').execute());

  const member = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, ada, alpha)).token });
  const page = await member.newPage();
  const problems = collectPageProblems(page);
  const google: string[] = [];
  page.on('request', (r) => {
    if (/google/.test(r.url())) google.push(r.url());
  });
  await page.goto('/settings');
  const banner = page.getByRole('region', { name: 'Analytics choices' });
  await banner.waitFor();
  await expectReflowAndAxeAtPhoneWidths(t, page, 'a member page with the analytics choice', { browser, javaScriptEnabled: true });
  await Promise.all([page.waitForURL(/\/settings$/), banner.getByRole('button', { name: 'No, thanks' }).click()]);
  t.equal(await banner.count(), 0, 'the choice made, the banner is gone');
  await Promise.all([page.waitForURL(/\/groups$/), page.locator('.user-menu summary').click().then(() => page.getByRole('link', { name: 'Groups' }).first().click())]);
  await page.evaluate(() => (window as unknown as { trackEvent: (c: string, a: string, l: string) => void }).trackEvent('engagement', 'share', 'e2e'));
  // The last page's batch goes when the page is hidden or left, or a few seconds after its first event.
  for (let i = 0; i < 50 && (await views()).length < 3; i++) await new Promise((r) => setTimeout(r, 200));
  t.same((await views()).map((v) => v.label), ['/settings', '/settings', '/groups'], 'a page view for each page loaded (the first one twice: before and after the choice)');
  t.ok((await views()).every((v) => v.device === 'desktop' || v.device === 'mobile'), 'a device class, never the user agent');
  const custom = await db.selectFrom('insight_events').select(['category', 'action', 'label']).where('user_id', '=', ada.id).where('category', '=', 'engagement').execute();
  t.same(custom, [{ category: 'engagement', action: 'share', label: 'e2e' }], "a page's trackEvent");
  t.same(google, [], 'nothing of Google was asked for');
  t.same(problems, [], 'no errors in the member pages');

  await rollUp({ db: app.db, clock: app.clock, community: alpha, retentionDays: 90 });
  const staff = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
  const admin = await staff.newPage();
  const adminProblems = collectPageProblems(admin);
  await admin.goto('/admin?range=4w');
  const chart = admin.getByRole('figure', { name: 'Page views' });
  await chart.waitFor();
  const table = chart.getByRole('table', { name: 'Page views' });
  const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date());
  t.equal(await table.getByRole('row', { name: new RegExp(`^${today} 3$`) }).count(), 1, "today's row says 3 page views");
  t.ok(await admin.getByRole('figure', { name: 'Active members per day' }).isVisible(), 'the active members');
  await expectReflowAndAxeAtPhoneWidths(t, admin, 'the staff home with its charts', { browser, javaScriptEnabled: true });
  t.same(adminProblems, [], 'no errors in the staff home');
});
