import t from 'tap';
import { addPeople, createGroup } from '#src/features/groups/staff.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';
import { collectPageProblems, expectReflowAndAxeAtPhoneWidths, openContext, pathOf } from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';

t.test('groups in the browser: a member opens the groups, a public group, and posts in its discussion', async (t) => {
  const { browserReady, db, alpha: plain, app, baseUrl } = await browserWorld(t);
  await db.updateTable('communities').set({ forum_enabled: true }).where('id', '=', plain.id).execute();
  const alpha = { ...plain, forum_enabled: true };
  const staff = await createMember(db, alpha, { firstName: 'Sam', lastName: 'Staff', roles: ['ADMIN', 'MEMBER'] });
  const chair = await createMember(db, alpha, { firstName: 'Constantina', lastName: 'Papadopoulou-Worthington', companyName: 'Worthington Regional Logistics and Cold Storage Cooperative' });
  const amara = await createMember(db, alpha, { firstName: 'Amara', lastName: 'Okafor' });
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications, publicUrl: baseUrl, jobs: app.jobs };
  const viewer = { userId: staff.id, isStaff: true };
  // A long name, a long unbroken slug and about: nothing may push the page sideways.
  const id = await createGroup(deps, viewer, {
    name: 'Founders of Independent Regional Logistics, Warehousing and Cold-Chain Companies',
    slug: 'founders-of-independent-regional-logistics-warehousing-cold',
    about: 'Peers who run logistics companies. Our notes: https://example.com/groups/founders-of-independent-regional-logistics/notes-2026',
    visibility: 'public',
  });
  await createGroup(deps, viewer, { name: 'CFO Circle', slug: 'cfo-circle', about: 'Finance leads.', visibility: 'public' });
  await addPeople(deps, viewer, id, { emails: chair.email, role: 'chair' });
  await addPeople(deps, viewer, id, { emails: amara.email, role: 'member' });

  const browser = await browserReady;
  const context = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 740 }, token: (await signIn(app, amara, alpha)).token });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  const check = (what: string) => expectReflowAndAxeAtPhoneWidths(t, page, what, { browser, javaScriptEnabled: true });

  await page.goto('/groups');
  await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
  t.ok(await page.getByRole('heading', { name: 'Other groups' }).isVisible());
  await check('the groups list');

  await Promise.all([page.waitForURL(/\/groups\/founders-/), page.getByRole('link', { name: /^Founders of Independent/ }).click()]);
  await page.getByRole('heading', { name: /^Founders of Independent/, level: 1 }).waitFor();
  t.ok(await page.getByRole('link', { name: 'Constantina Papadopoulou-Worthington' }).isVisible(), 'its chair');
  await check('a public group');

  await page.getByLabel('Title').fill('Cold-chain insurance renewals this winter');
  await page.getByLabel('Message').fill('Who renewed their cold-chain cover lately? Premiums doubled for us: https://example.com/insurance/cold-chain/renewals-2026-winter-premiums');
  await Promise.all([page.waitForURL(/\/posts\/\d+\?done=posted$/), page.getByRole('button', { name: 'Post', exact: true }).click()]);
  await page.getByRole('heading', { name: 'Cold-chain insurance renewals this winter', level: 1 }).waitFor();
  t.ok(await page.getByText('Posted.').isVisible(), 'said so');
  t.match(pathOf(page), /^\/groups\/founders-[a-z-]+\/posts\/\d+$/);
  await check('the new post');
  t.same(problems, [], 'no errors in the pages');
});
