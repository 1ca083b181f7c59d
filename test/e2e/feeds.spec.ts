import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, launchBrowser, openContext, serveApp } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('the members\u2019 feed in the browser: staff post an announcement; the member sees it on the home page and marks it seen', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Member' });
  const boss = await createMember(db, alpha, { firstName: 'Bea', lastName: 'Boss', roles: ['ADMIN', 'MEMBER'] });

  const staff = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token });
  const admin = await staff.newPage();
  const adminProblems = collectPageProblems(admin);
  await admin.goto('/admin/feeds');
  await admin.getByRole('heading', { name: 'Feeds', level: 1 }).waitFor();
  await Promise.all([admin.waitForURL(/\/admin\/feeds\/announcements\/new$/), admin.getByRole('link', { name: 'New announcement' }).click()]);
  await admin.getByLabel('Title').fill('Spring dinner series: seats are open in Austin and Denver');
  await admin.getByLabel('Text', { exact: true }).fill('Reserve through the concierge.\n\n- Austin, 12 March\n- Denver, 19 March');
  await admin.getByLabel('Link address (optional)').fill('https://example.com/a-very-long-address/for-the-spring-dinner-series/registration?utm_source=feed');
  // Refused (the link needs its text): the message beside the field, what was typed kept.
  await Promise.all([admin.waitForLoadState('domcontentloaded'), admin.getByRole('button', { name: 'Save and publish' }).click()]);
  await admin.getByText('Enter the link\u2019s text.').or(admin.getByText("Enter the link's text.")).waitFor();
  t.equal(await admin.getByLabel('Title').inputValue(), 'Spring dinner series: seats are open in Austin and Denver', 'what was typed is kept');
  await expectReflowAndAxeAtPhoneWidths(t, admin, 'the announcement form with a refusal', { browser, javaScriptEnabled: true });
  await admin.getByLabel('Link text').fill('Reserve a seat');
  await admin.getByLabel('Pin it to the top of the feed').check();
  await Promise.all([admin.waitForURL(/done=published/), admin.getByRole('button', { name: 'Save and publish' }).click()]);
  await admin.getByText('Published.', { exact: true }).waitFor();
  await expectReflowAndAxeAtPhoneWidths(t, admin, 'the announcement with its log', { browser, javaScriptEnabled: true });
  // (The list and the featured items' page are in the reflow sweep, test/e2e/reflow.spec.ts.)
  await admin.goto('/admin/feeds');
  await admin.getByRole('cell', { name: /^Live/ }).first().waitFor();
  // The refused form answers 400 by design (the browser logs it as a failed resource): nothing else.
  t.same(adminProblems.filter((p) => !p.includes('status of 400')), [], 'no errors in the staff pages');

  const member = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, ada, alpha)).token });
  const page = await member.newPage();
  const problems = collectPageProblems(page);
  await page.goto('/');
  await page.getByRole('heading', { name: /From the team \(1 new announcement\)/ }).waitFor();
  await page.getByRole('heading', { name: 'Spring dinner series: seats are open in Austin and Denver', level: 3 }).waitFor();
  t.ok(await page.locator('.feed-item .rich-text li', { hasText: 'Denver, 19 March' }).isVisible(), 'the text as rich text');
  t.equal(await page.getByRole('link', { name: 'Reserve a seat' }).getAttribute('href'), 'https://example.com/a-very-long-address/for-the-spring-dinner-series/registration?utm_source=feed');
  await expectReflowAndAxeAtPhoneWidths(t, page, 'the home page with the feed', { browser, javaScriptEnabled: true });
  await Promise.all([page.waitForURL(/\/#feed$/), page.getByRole('button', { name: 'Mark as seen: Spring dinner series: seats are open in Austin and Denver' }).click()]);
  await page.getByRole('heading', { name: /From the team \(Nothing new\)/ }).waitFor();
  const seen = page.getByText('1 announcement you have seen');
  await seen.click();
  await page.getByRole('heading', { name: 'Spring dinner series: seats are open in Austin and Denver', level: 3 }).waitFor();
  await expectReflowAndAxeAtPhoneWidths(t, page, 'the home page with the seen announcement open', { browser, javaScriptEnabled: true });
  t.same(problems, [], 'no errors in the member pages');
});
