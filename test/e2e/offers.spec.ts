import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('offers in the browser: find an offer and reveal its code; staff publish one and see who redeemed it', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', exec_link: 'https://example.com/exec' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Member' });
  const boss = await createMember(db, alpha, { firstName: 'Bea', lastName: 'Boss', roles: ['ADMIN', 'MEMBER'] });
  const partners = await db
    .insertInto('partners')
    .values([
      { community_id: alpha.id, name: 'Ledgerly Bookkeeping International', website: 'https://example.com/ledgerly', logo: 'img/partners/ledgerly.svg' },
      { community_id: alpha.id, name: 'Skyway Airlines', website: 'https://example.com/skyway', logo: null },
    ])
    .returning('id')
    .execute();
  const base = { community_id: alpha.id, value_line: '20% off the first year of everything we sell', status: 'published' as const, description_html: '<p>Month-end close within five working days.</p>', terms: 'New customers only.' };
  await db
    .insertInto('offers')
    .values([
      { ...base, partner_id: partners[0]!.id, title: 'Bookkeeping for growing companies', category: 'finance', redemption: 'code', code: 'SUMMIT20', featured: true },
      { ...base, partner_id: partners[1]!.id, title: 'Lounge access on every flight', category: 'travel', redemption: 'concierge' },
      { ...base, partner_id: partners[1]!.id, title: 'Platinum status', category: 'travel', redemption: 'code', code: 'EXEC1', tier: 'exec' },
    ])
    .execute();
  const draft = await db
    .insertInto('offers')
    .values({ ...base, partner_id: partners[1]!.id, title: 'Upgrade vouchers', category: 'travel', redemption: 'code', code: 'UPGRADE2', status: 'draft' })
    .returning('id')
    .executeTakeFirstOrThrow();

  const member = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, ada, alpha)).token });
  const page = await member.newPage();
  const problems = collectPageProblems(page);
  const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: true });

  await t.test('a member finds an offer and reveals its code', async (t) => {
    await page.goto('/');
    t.equal(await page.locator('nav[aria-label="Main"] a[href="/offers/exec"]').textContent(), 'EXEC', 'the nav says EXEC and leads to the EXEC offers');
    await page.goto('/offers/exec');
    await page.getByRole('heading', { name: 'EXEC offers', level: 1 }).waitFor();
    t.ok(await page.getByText('EXEC is the executive tier').isVisible(), 'what EXEC is, for a member without it');
    t.notOk(await page.getByText('Platinum status').count(), 'no EXEC offer shown');
    await check('the EXEC page');
    await page.getByRole('link', { name: 'See all member offers' }).click();
    await page.getByRole('heading', { name: 'Offers and benefits', level: 1 }).waitFor();
    await check('the offers list');
    await page.getByLabel('Search offers').fill('bookkeeping');
    await Promise.all([page.waitForURL(/q=bookkeeping/), page.getByRole('button', { name: 'Search' }).click()]);
    t.equal(await page.getByRole('heading', { level: 2 }).count(), 1, 'one offer found');
    await Promise.all([page.waitForURL(/\/offers\/\d+$/), page.getByRole('link', { name: 'Bookkeeping for growing companies' }).click()]);
    t.notOk(await page.getByText('SUMMIT20').count(), 'the code is hidden before the press');
    await check('an offer');
    await page.getByRole('button', { name: 'Reveal the code' }).click();
    await page.getByText('SUMMIT20').waitFor();
    t.match(pathOf(page), /^\/offers\/\d+$/);
    await check('an offer with its code revealed');
  });

  await t.test('staff publish an offer and see the redemption count', async (t) => {
    const staff = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
    const admin = await staff.newPage();
    const adminProblems = collectPageProblems(admin);
    await admin.goto('/admin/marketplace');
    await admin.getByRole('heading', { name: 'Marketplace', level: 1 }).waitFor();
    await expectReflowAndAxeAtPhoneWidths(t, admin, 'the staff offers list', { browser, javaScriptEnabled: true });
    await Promise.all([admin.waitForURL(/\/admin\/marketplace\/offers\/\d+/), admin.getByRole('link', { name: 'Upgrade vouchers' }).click()]);
    await Promise.all([admin.waitForURL(/done=published/), admin.getByRole('button', { name: 'Publish' }).click()]);
    await admin.getByText('The offer is published: members see it now.').waitFor();
    t.ok(await admin.getByText('No member has redeemed this offer yet.').isVisible());

    await page.goto(`/offers/${draft.id}`);
    await page.getByRole('button', { name: 'Reveal the code' }).click();
    await page.getByText('UPGRADE2').waitFor();

    await admin.reload();
    await admin.getByText('1 member has redeemed this offer.').waitFor();
    t.ok(await admin.getByRole('cell', { name: 'Ada Member' }).isVisible(), 'who redeemed it');
    t.ok(await admin.getByRole('link', { name: /Download CSV/ }).isVisible(), 'and the CSV');
    await expectReflowAndAxeAtPhoneWidths(t, admin, 'an offer for staff, with its redemptions', { browser, javaScriptEnabled: true });
    await admin.goto('/admin/marketplace/partners');
    await expectReflowAndAxeAtPhoneWidths(t, admin, 'the partners', { browser, javaScriptEnabled: true });
    t.same(adminProblems, [], 'no errors in the staff pages');
  });

  t.same(problems, [], 'no errors in the member pages');
});
