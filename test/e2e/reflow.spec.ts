import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { approveForPublishing, autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { evaluateMembers } from '#src/features/badges/evaluate.ts';
import { awardStaffBadge } from '#src/features/badges/staff.ts';
import { blankAnnouncementForm, createAnnouncement } from '#src/features/feeds/announcements.ts';
import { featureEvent } from '#src/features/feeds/featured.ts';
import { addPeople, createGroup } from '#src/features/groups/staff.ts';
import { createFeed } from '#src/features/syndication/staff.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { words } from '#test/helpers/articles.ts';
import { setPassword, setPhone } from '#test/helpers/auth.ts';
import {
  AXE_COLOUR_RULES,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  launchBrowser,
  openContext,
  serveApp,
  setColorScheme,
} from '#test/helpers/browser.ts';
import { createAds, createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/**
 * WCAG 1.4.10 Reflow: no page scrolls sideways at 320 px (nor at 375 px, a common phone, nor at
 * 1280 px, a desktop). Every page is visited as a visitor, a member and an admin, with JavaScript on
 * and off, its menus opened, and checked with axe: loaded once per mode and checked at each width in
 * turn (page.setViewportSize). Wide tables may scroll inside their own box; the page itself may not.
 *
 * Both colour schemes (issue 30), at every width: with JavaScript on, axe runs in full in the light
 * scheme at each width and in the dark scheme (page.emulateMedia, no reload) at 320 px, and its colour
 * rules (AXE_COLOUR_RULES) in the dark scheme at the other widths; without JavaScript, in full in the
 * light scheme and its colour rules in the dark one, at 320 px (the same markup at every width). The
 * rules that read markup and layout give the same answer in either scheme, so each is run once per
 * width and state; the colour rules run in both schemes everywhere.
 */
t.setTimeout(15 * 60_000);

const WIDTHS = [320, 375, 1280] as const;
/** The width at which axe runs in full in the dark scheme too (its colour rules run there at every width). */
const DARK_AXE_WIDTH = 320;
const LONG_URL = 'https://news.example.com/2026/11/articles/what-the-night-shift-taught-me-about-patience-and-short-sentences?utm_source=newsletter';

type Visit = {
  path: string;
  name: string;
  /** Opens a state of the page worth checking (a menu, a step of a flow). */
  then?: (page: Page) => Promise<void>;
  /** A check of that state of its own, at each width. */
  check?: (page: Page) => Promise<void>;
};


/** Clicks and waits for the navigation a form post makes (works with JavaScript off too). */
async function submit(page: Page, click: () => Promise<void>) {
  await Promise.all([page.waitForEvent('framenavigated'), click()]);
  await page.waitForLoadState('domcontentloaded');
}

t.test('no page scrolls sideways at 320, 375 and 1280 px, and none has an axe violation in either colour scheme', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle of Independent Practitioners',
    forum_enabled: true,
    exec_link: 'https://example.com/exec',
    nav_more: JSON.stringify([{ label: 'Events', link: 'https://example.com/events' }]),
    link_terms: 'https://example.com/terms',
    link_privacy: 'https://example.com/privacy',
    link_membership_info: 'https://example.com/join',
    article_terms: 'You keep the rights.\n\nWe may edit and publish.',
    article_guidelines: 'Write from your own experience.',
  });
  await createAds(db, alpha);
  const { app, baseUrl } = await serveApp(t, db);
  const browser: Browser = await browserReady;

  // A member with a long name and a phone, a published article with a long live address, and a draft.
  const member = await createMember(db, alpha, { firstName: 'Maximiliana', lastName: 'Vandenberghe-Oyelaran' });
  await setPassword(db, member.id);
  await setPhone(db, member.id);
  const staff = await createMember(db, alpha, { firstName: 'Bartholomew', lastName: 'Featherstonehaugh', roles: ['ADMIN', 'MEMBER'] });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  const editor = { userId: staff.id, isStaff: true };
  await acceptProductAgreement(deps, member.id);
  await saveByline(deps, member.id, '<p>Founder of <a href="https://example.com">Acme</a></p>');
  const title = 'What the night shift taught me about patience, short sentences and the supply chain';
  const first = await autosaveRevision(deps, member.id, { title, content: words(520) });
  await submitForReview(deps, member.id, { articleId: first.id, title, content: words(520), agreed: true });
  for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: first.id, to });
  await approveForPublishing(deps, member.id, { articleId: first.id, agreed: true });
  await moveArticle(deps, editor, { articleId: first.id, to: 'MANUALLY_PUBLISHED', articleUrl: LONG_URL });
  const draft = await autosaveRevision(deps, member.id, { title: 'Draft', content: '<p>A <u>short</u> start.</p>' });
  // Badges: the published article's, and a staff badge with a long reason (the tab's tables and log).
  await evaluateMembers(deps, [member.id]);
  await awardStaffBadge(deps, editor, { member: String(member.id), badge: 'speaker', reason: 'Keynote on supply chains at the autumn leadership forum, with a long reason' });
  // A group with a long name, slug and about, its chair the member, and a staff member with a long address (the people table).
  const groupDeps = { ...deps, publicUrl: baseUrl, jobs: app.jobs };
  const group = await createGroup(groupDeps, editor, {
    name: 'Founders of Independent Regional Logistics, Warehousing and Cold-Chain Companies',
    slug: 'founders-of-independent-regional-logistics-warehousing-cold',
    about: `Peers who run logistics companies. Notes: ${LONG_URL}`,
    visibility: 'public',
  });
  await db.updateTable('users').set({ email: 'bartholomew.featherstonehaugh.operations-director@alpha-circle-independent.example.com' }).where('id', '=', staff.id).execute();
  await addPeople(groupDeps, editor, group, { userIds: [member.id], role: 'chair' });
  await addPeople(groupDeps, editor, group, { userIds: [staff.id], role: 'member' });
  // The feed: a pinned announcement with a long title and link, and an event link (the home page and /admin/feeds).
  await createAnnouncement(deps, editor, { ...blankAnnouncementForm(), title: 'Founders of Independent Regional Logistics: the annual summit programme is out', body: `Read it here: ${LONG_URL}`, linkUrl: LONG_URL, linkLabel: 'The programme', pinned: true }, { publish: true });
  await featureEvent(deps, editor, { title: 'Cold-chain operators breakfast briefing and warehouse tour', url: LONG_URL, date: new Date(clock.now().getTime() + 7 * 86_400_000).toISOString().slice(0, 10), place: 'Rotterdam', pinned: false, endsAt: '' });
  // A syndication feed with a long title and address (its three addresses in the staff's table).
  await createFeed(
    { db, clock, community: alpha, t: app.t, changed: () => app.communities.invalidate(), site: { protocol: 'http', host: 'localhost', hostname: 'localhost', publicUrl: app.config.publicUrl, basePath: '', isDefaultCommunity: true } },
    editor,
    { title: 'Alpha Circle of Independent Practitioners — everything we publish', slug: 'alpha-circle-of-independent-practitioners-everything', description: '', limit: '20', types: ['article', 'roundup'], enabled: true },
  );
  const memberToken = (await signIn(app, member, alpha)).token;
  const staffToken = (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token;

  const openMenu = (label: string | RegExp) => async (page: Page) => {
    const summary = page.getByLabel(label);
    if (await summary.isVisible()) await summary.click();
  };
  const openMobileMenu = async (page: Page) => {
    const menu = page.getByText('Menu', { exact: true });
    if (await menu.isVisible()) await menu.click();
  };

  const visitorPages: Visit[] = [
    { path: '/', name: 'the signed-out home page' },
    { path: '/login', name: 'sign-in' },
    {
      path: '/login',
      name: 'the password step after a wrong password',
      then: async (page) => {
        await page.getByLabel('Email').fill(member.email);
        await submit(page, () => page.getByRole('button', { name: 'Continue' }).click());
        await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
        await submit(page, () => page.getByRole('button', { name: 'Sign In', exact: true }).click());
        await page.getByText('Password is incorrect.').first().waitFor();
        await page.getByRole('button', { name: /Text a sign-in code/ }).waitFor();
      },
    },
    {
      path: '/login',
      name: 'the one-time-code step',
      then: async (page) => {
        await page.getByLabel('Email').fill(member.email);
        await submit(page, () => page.getByRole('button', { name: 'Continue' }).click());
        await submit(page, () => page.getByRole('button', { name: /Email me a sign-in code/ }).click());
      },
    },
    { path: '/password/forgot', name: 'forgot password' },
    { path: '/password/reset?token=nonsense', name: 'an invalid reset link' },
    { path: '/login-admin', name: 'admin sign-in' },
    { path: '/no-such-page', name: 'the 404 page' },
    { path: '/contact', name: 'Contact us' },
  ];
  const memberPages: Visit[] = [
    { path: '/', name: 'the member home page' },
    { path: '/', name: 'the member home page with the account menu open', then: openMenu(/^Account menu for/) },
    { path: '/', name: 'the member home page with the mobile menu open', then: openMobileMenu },
    {
      path: '/',
      name: 'Contact us from the footer (the dialog; without JavaScript, its page)',
      then: async (page) => {
        await page.locator('.site-footer').getByRole('link', { name: 'Contact us' }).click();
        await Promise.race([page.waitForURL('**/contact'), page.locator('#contact-dialog').waitFor({ state: 'visible' })]);
      },
    },
    {
      path: '/',
      name: 'the member home page with the notifications panel open',
      then: async (page) => {
        // With JavaScript the bell is a button that opens a panel; without, a link to the notifications page.
        const bell = page.getByRole('button', { name: 'Notifications' });
        if (!(await bell.count())) return;
        await bell.click();
        await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      },
      check: async (page) => {
        if (!(await page.getByRole('button', { name: 'Notifications' }).count())) return;
        const panel = (await page.locator('.bell-panel').boundingBox())!;
        if (panel.x < 0) throw new Error(`the notifications panel hangs off the left edge (x ${panel.x})`);
      },
    },
    { path: '/articles', name: 'the articles dashboard' },
    { path: '/articles/edit', name: 'the article editor' },
    { path: '/articles/edit?guidelines=true', name: 'the article editor with its guidelines open' },
    { path: '/articles/published', name: 'published articles' },
    { path: '/articles/guidelines', name: 'the guidelines' },
    { path: '/articles/agreement', name: 'the agreement' },
    { path: '/articles/settings', name: 'the byline settings' },
    { path: '/settings', name: 'settings' },
    { path: '/settings/team', name: 'team settings' },
    { path: '/badges', name: 'badges' },
    { path: `/profile/${member.id}`, name: 'the profile with its badges' },
    { path: '/login?redirect=%2Fadmin', name: 'sign-in asking a member for an admin account' },
    { path: '/groups', name: 'the groups' },
    { path: '/groups/founders-of-independent-regional-logistics-warehousing-cold', name: 'a group its member chairs' },
  ];
  const adminPages: Visit[] = [
    { path: '/admin', name: 'the admin home' },
    { path: '/admin/members', name: "the staff's members table (a long address)" },
    { path: '/admin/sites', name: 'the sites table, with its caption' },
    { path: '/admin/articles', name: 'the articles board' },
    { path: `/admin/articles/${draft.id}`, name: 'an article on the board' },
    { path: `/admin/articles/${first.id}`, name: 'a published article on the board' },
    { path: '/admin/articles/settings', name: 'the program settings' },
    { path: '/admin/articles/blackouts', name: 'the blackout windows' },
    { path: '/admin/marketplace/badges', name: "the marketplace's badges tab" },
    { path: '/admin/marketplace/badges?q=vandenberghe', name: "the badges tab's member search" },
    { path: '/admin/marketplace/ads', name: 'the ads tab of the marketplace' },
    { path: '/admin/groups', name: "the staff's groups" },
    { path: `/admin/groups/${group}?q=feather`, name: 'a group for staff, with the people search' },
    { path: '/admin/feeds', name: "the staff's announcements" },
    { path: '/admin/feeds/featured?kind=article', name: "the staff's featured items, with the search" },
    { path: '/admin/content-bank?q=night+shift', name: 'the content bank searched' },
    { path: `/admin/content-bank/items/article/${first.id}`, name: 'a content bank item with its long live address' },
    { path: '/admin/feeds/syndication', name: "the staff's syndication feeds" },
  ];

  for (const [who, token, pages] of [
    ['a visitor', undefined, visitorPages],
    ['a member', memberToken, memberPages],
    ['an admin', staffToken, adminPages],
  ] as const) {
    await t.test(`as ${who}`, async (t) => {
      // One context per JavaScript mode; each page loaded once, at 320 px, then checked at each width in turn.
      for (const javaScriptEnabled of [true, false]) {
        const mode = javaScriptEnabled ? 'JavaScript on' : 'JavaScript off';
        const context = await openContext(t, browser, baseUrl, { viewport: { width: WIDTHS[0], height: 740 }, token, javaScriptEnabled });
        const page = await context.newPage();
        for (const visit of pages) {
          await page.setViewportSize({ width: WIDTHS[0], height: 740 });
          const response = await page.goto(visit.path);
          t.ok(response && response.status() < 500, `${visit.name} (${visit.path}), ${mode}: answers`);
          await visit.then?.(page);
          for (const width of WIDTHS) {
            const what = `${visit.name} (${visit.path}) at ${width} px, ${mode}`;
            await page.setViewportSize({ width, height: 740 });
            await visit.check?.(page);
            await expectNoSidewaysScroll(t, page, what);
            // axe at each width with JavaScript on, in both schemes; without JavaScript at 320 px (the same markup, not hydrated), in both.
            if (javaScriptEnabled) {
              await expectNoAxeViolations(t, page, what);
              await setColorScheme(page, 'dark');
              await expectNoAxeViolations(t, page, `${what}, dark scheme`, width === DARK_AXE_WIDTH ? {} : { rules: AXE_COLOUR_RULES });
              await setColorScheme(page, 'light');
            } else if (width === 320) {
              await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
              await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `${what}, dark scheme`, { colorScheme: 'dark', rules: AXE_COLOUR_RULES });
            }
          }
        }
        await context.close();
      }
    });
  }

  await t.test('the admin board is wider than a phone: its table scrolls inside its own box', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token: staffToken });
    const page = await context.newPage();
    await page.goto('/admin/articles');
    const box = page.locator('.table-scroll').first();
    const { boxScroll, boxClient, overflowX } = await box.evaluate((el) => ({ boxScroll: el.scrollWidth, boxClient: el.clientWidth, overflowX: getComputedStyle(el).overflowX }));
    t.ok(boxScroll > boxClient, `the table is wider than its box (${boxScroll} > ${boxClient})`);
    t.equal(overflowX, 'auto', 'and the box scrolls');
    t.equal(await box.getAttribute('tabindex'), '0', 'the box can be scrolled with the keyboard');
    await expectNoSidewaysScroll(t, page, 'the board');
  });
});
