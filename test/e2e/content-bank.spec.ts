import t from 'tap';
import { browserWorld } from '#test/helpers/browser-world.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { createArticle } from '#test/helpers/members-profiles.ts';

t.test('the content bank in the browser: staff search, tag an item, add it to a collection, and find its exports', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN', 'MEMBER'] });
  const author = await createMember(db, alpha, { firstName: 'Constantina', lastName: 'Papadopoulou-Worthington' });
  // A long title and a long unbroken address: nothing may push the pages sideways.
  await createArticle(db, alpha, author.id, 'Pricing through a downturn: what independent regional logistics companies learnt', 'PUBLISHED', new Date('2026-10-10T12:00:00Z'));
  await createArticle(db, alpha, author.id, 'Leading remote teams through change', 'PUBLISHED', new Date('2026-09-01T12:00:00Z'));
  await db.insertInto('bank_collections').values({ community_id: alpha.id, name: 'Best of 2026', description: 'The year-end newsletter.' }).execute();

  const browser = await browserReady;
  const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: true });

  await page.goto('/admin/content-bank');
  await page.getByRole('heading', { name: 'Content bank', level: 1 }).waitFor();
  await page.getByLabel('Search', { exact: true }).fill('logistcs');
  await Promise.all([page.waitForURL(/q=logistcs/), page.getByRole('button', { name: 'Search', exact: true }).click()]);
  await page.getByText('Best matches first').waitFor();
  t.equal(await page.getByRole('link', { name: /^Pricing through a downturn/ }).count(), 1, 'a misspelt word finds it');
  t.equal(await page.getByRole('link', { name: 'Leading remote teams through change' }).count(), 0);
  await check('the library searched');

  await Promise.all([page.waitForURL(/\/admin\/content-bank\/items\/article\/\d+$/), page.getByRole('link', { name: /^Pricing through a downturn/ }).click()]);
  await page.getByRole('heading', { name: /^Pricing through a downturn/, level: 1 }).waitFor();
  await page.getByLabel('Or a new tag').fill('Finance');
  await Promise.all([page.waitForURL(/done=tagged/), page.getByRole('button', { name: 'Add tag' }).click()]);
  t.ok(await page.getByText('The tag is added.').isVisible(), 'tagged');
  t.ok(await page.getByRole('button', { name: 'Remove the tag Finance' }).isVisible());
  await page.getByLabel('Collection', { exact: true }).selectOption({ label: 'Best of 2026' });
  await Promise.all([page.waitForURL(/done=collected/), page.getByRole('button', { name: 'Add to collection' }).click()]);
  t.ok(await page.getByText('Added to the collection.').isVisible(), 'collected');
  await check('an item with its tag and collection');

  await Promise.all([page.waitForURL(/\/admin\/content-bank\/collections\/\d+$/), page.getByRole('link', { name: 'Best of 2026' }).click()]);
  await page.getByRole('heading', { name: 'Best of 2026', level: 1 }).waitFor();
  t.ok(await page.getByRole('link', { name: /^Pricing through a downturn/ }).isVisible(), 'the item in the collection');
  const csv = page.getByRole('link', { name: 'Download as CSV' });
  const zip = page.getByRole('link', { name: 'Download as a zip of HTML pages' });
  t.match(await csv.getAttribute('href'), /^\/admin\/content-bank\/collections\/\d+\/export\.csv$/);
  t.match(await zip.getAttribute('href'), /^\/admin\/content-bank\/collections\/\d+\/export\.zip$/);
  const [download] = await Promise.all([page.waitForEvent('download'), zip.click()]);
  t.equal(download.suggestedFilename(), 'collection-best-of-2026.zip', 'the zip downloads');
  await check('the collection with its exports');
  t.match(pathOf(page), /^\/admin\/content-bank\/collections\/\d+$/);

  await page.goto('/admin/content-bank?tag=1');
  t.equal(await page.getByRole('link', { name: /^Pricing through a downturn/ }).count(), 1, 'the tag filters the library');

  // The picker in a team message: what was typed stays, the item's title and address go into the body.
  await page.goto('/admin/messages/new');
  await page.getByLabel('Subject').fill('Worth a read');
  await page.getByLabel('Message', { exact: true }).fill('Dear members,');
  await page.getByText('Pick from the content bank').click();
  await page.getByLabel('Search the library').fill('pricing');
  await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Find' }).click()]);
  await page.getByRole('button', { name: /^Insert: Pricing through a downturn/ }).waitFor();
  t.equal(await page.getByLabel('Subject').inputValue(), 'Worth a read', 'the subject kept');
  await check('the message form with the picker open');
  await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: /^Insert: Pricing through a downturn/ }).click()]);
  await page.getByText(/^Added “Pricing through a downturn/).waitFor();
  t.match(await page.getByLabel('Message', { exact: true }).inputValue(), /^Dear members,\n\nPricing through a downturn: what independent regional logistics companies learnt: https:\/\/news\.example\.com\//, 'the item in the body');
  t.same(problems, [], 'no errors in the pages');
});
