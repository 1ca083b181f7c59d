import t from 'tap';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision } from '#src/features/articles/writing.ts';
import { setupDatabase, testClock } from '#test/helpers/app.ts';
import { DESKTOP, collectPageProblems, expectNoAxeViolations, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { createAds, createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

/** Layout at desktop and phone widths: the editor's measure, where ads go, the masthead's legibility, underline. */
t.test('page layout', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Summit Leaders Council',
    familiar_name: 'Summit',
    article_terms: 'You keep the rights.',
    article_guidelines: 'Write from your own experience.',
  });
  await createAds(db, alpha);
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const member = await createMember(db, alpha, { firstName: 'Ada' });
  const staff = await createMember(db, alpha, { firstName: 'Ed', roles: ['ADMIN', 'MEMBER'] });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };
  await acceptProductAgreement(deps, member.id);
  await saveByline(deps, member.id, '<p>Founder of Acme</p>');
  const draft = await autosaveRevision(deps, member.id, { title: 'Draft', content: '<p>An <u>underlined</u> word, and an older <span style="text-decoration:underline">styled</span> one.</p>' });
  // What an older version of the app stored: a styled span, which the CSP would keep from showing.
  await db
    .updateTable('article_revisions')
    .set({ content: '<p>An <u>underlined</u> word, and an older <span style="text-decoration:underline">styled</span> one.</p>' })
    .where('article_id', '=', draft.id)
    .execute();
  const memberToken = (await signIn(app, member, alpha)).token;
  const staffToken = (await signIn(app, staff, alpha, ['ADMIN', 'MEMBER'])).token;

  await t.test('at 1280 px the editor has a comfortable writing column and no ad rail', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/articles/edit');
    const body = page.getByRole('textbox', { name: 'Article' });
    await body.waitFor();
    const width = (await body.boundingBox())!.width;
    t.ok(width >= 560 && width <= 760, `the writing column is ${Math.round(width)} px wide (560 to 760: about 65 to 75 characters a line)`);
    const perLine = await body.evaluate((el) => {
      // Characters of ordinary prose that fit on one line of the writing column.
      const probe = document.createElement('span');
      probe.textContent = 'the quick brown fox jumps over a lazy dog and keeps going down the road ';
      el.querySelector('p')!.append(probe);
      const perChar = probe.getBoundingClientRect().width / probe.textContent.length;
      probe.remove();
      const style = getComputedStyle(el);
      return Math.floor((el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) / perChar);
    });
    t.ok(perLine >= 60 && perLine <= 85, `about ${perLine} characters a line`);
    t.equal(await page.locator('.ad-medium-square').count(), 0, 'no ad rail on the editor');
    t.same(problems, [], 'no script errors');

    await page.goto('/articles');
    t.equal(await page.locator('.ad-medium-square').count(), 1, 'the other member pages keep it');
  });

  await t.test('underline shows under the real CSP, in the editor and in the admin preview', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken });
    const page = await context.newPage();
    await page.goto('/articles/edit');
    await page.getByRole('textbox', { name: 'Article' }).waitFor();
    await page.locator('.rich-body u').first().waitFor();
    const editorLines = await page.locator('.rich-body u').evaluateAll((els) => els.map((el) => [el.textContent, getComputedStyle(el).textDecorationLine]));
    t.same(editorLines, [['underlined', 'underline'], ['styled', 'underline']], 'both underlines show in the editor, the older styled one too');

    const admin = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: staffToken });
    const adminPage = await admin.newPage();
    await adminPage.goto(`/admin/articles/${draft.id}`);
    const preview = await adminPage.locator('.preview u').evaluateAll((els) => els.map((el) => [el.textContent, getComputedStyle(el).textDecorationLine]));
    t.same(preview, [['underlined', 'underline'], ['styled', 'underline']], 'and in the admin preview');
  });

  await t.test('the admin pages show no ads and have their own navigation', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: staffToken });
    const page = await context.newPage();
    for (const path of ['/admin', '/admin/articles', `/admin/articles/${draft.id}`]) {
      await page.goto(path);
      t.equal(await page.locator('.ad').count(), 0, `${path}: no ads`);
      t.ok(await page.getByRole('navigation', { name: 'Admin' }).isVisible(), `${path}: the admin navigation`);
      t.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, `${path}: not the member navigation`);
    }
    await page.goto('/admin');
    await page.getByRole('main').getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL('**/admin/articles');
    t.pass('the admin home links to the articles board');

    // Wider than the container: the content stops where the header's and the footer's do.
    const wide = await (await openContext(t, browser, baseUrl, { viewport: { width: 1600, height: 900 }, token: staffToken })).newPage();
    await wide.goto('/admin/articles');
    const edges = await wide.evaluate(() =>
      ['.site-header .header-inner', 'main', '.footer-inner'].map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return { selector, left: Math.round(box.left), right: Math.round(box.right) };
      }),
    );
    const [header, main, footer] = edges;
    t.ok(header!.right - header!.left < 1200, `the header stops at ${header!.right - header!.left} px`);
    t.ok(main!.left >= header!.left && main!.right <= header!.right, `the admin content (${main!.left} to ${main!.right}) stays within the header's container (${header!.left} to ${header!.right})`);
    t.same([footer!.left, footer!.right], [header!.left, header!.right], 'as the footer does');

    // The content has no card of its own: it starts and ends where the header's row does (the same
    // container and side padding), so its headings and tables line up with the header, on a phone too.
    const phone = await (await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 667 }, token: staffToken })).newPage();
    await phone.goto('/admin/articles');
    for (const [what, page] of [['at 1600 px', wide], ['at 375 px', phone]] as const) {
      // The inner edges (inside padding and border) of the header's row, then of main.
      const [row, content] = await page.evaluate(() =>
        ['.site-header .header-inner', 'main'].map((selector) => {
          const el = document.querySelector(selector)!;
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          return [Math.round(box.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth)), Math.round(box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth))];
        }),
      );
      t.same(content, row, `${what}: the admin content (${content!.join(' to ')}) lines up with the header's row (${row!.join(' to ')})`);
    }
  });

  await t.test("the header shows the community's full name on a desktop and its familiar name, uncut, on a phone", async (t) => {
    const desktop = await (await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken })).newPage();
    await desktop.goto('/');
    t.equal(await desktop.locator('.brand .brand-name:visible').textContent(), 'Summit Leaders Council', 'at 1280 px the full name');
    const phone = await (await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 667 }, token: memberToken })).newPage();
    await phone.goto('/');
    const shown = phone.locator('.brand .brand-name:visible');
    t.equal(await shown.count(), 1, 'one name at a time');
    t.equal(await shown.textContent(), 'Summit', 'at 375 px the familiar name');
    const cut = await shown.evaluate((el) => el.scrollWidth > el.clientWidth);
    t.notOk(cut, 'and it is not cut short');
    t.equal(await phone.getByRole('link', { name: 'Summit Leaders Council home' }).count(), 1, 'the link keeps the full name for assistive technology');
  });

  await t.test("the masthead ad's Learn more is a real link, its art's words fit the art, and it is readable on a phone", async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken });
    const page = await context.newPage();
    await page.goto('/');
    const art = page.locator('.ad-masthead img');
    t.ok(await art.isVisible(), 'at 1280 px the art is shown');
    t.ok(await page.locator('.ad-masthead .ad-text').isHidden(), 'and not the text banner');
    const learnMore = page.getByRole('link', { name: /Learn more$/ });
    t.ok(await learnMore.getByText('Learn more', { exact: true }).isVisible(), 'Learn more is text of the page, shown beside the art');
    const adHref = await learnMore.getAttribute('href');
    t.match(adHref, /^\/ads\/\d+\/click$/, 'and it is a link through the counted click');
    const top = page.getByRole('complementary', { name: 'Advertisement (top of page)' });
    const side = page.getByRole('complementary', { name: 'Advertisement (side of page)' });
    t.ok((await top.isVisible()) && (await side.isVisible()), 'the two ads are landmarks with labels of their own');
    await page.goto(await art.evaluate((img) => (img as HTMLImageElement).src));
    // In whatever font the machine has (here no Arial), the words end before the art does.
    const boxes = await page.evaluate(() =>
      Array.from(document.querySelectorAll('text')).map((el) => {
        const b = (el as SVGTextElement).getBBox();
        return { text: el.textContent, left: b.x, right: b.x + b.width };
      }),
    );
    const [brand, tagline] = boxes;
    t.equal(boxes.length, 2, 'no button is painted on the art');
    t.ok(brand!.right < tagline!.left, `the brand ends (${Math.round(brand!.right)}) before the tagline starts (${Math.round(tagline!.left)})`);
    t.ok(tagline!.right <= 700 - 8, `the tagline ends (${Math.round(tagline!.right)}) inside the art`);

    const phone = await openContext(t, browser, baseUrl, { viewport: { width: 375, height: 667 }, token: memberToken });
    const phonePage = await phone.newPage();
    await phonePage.goto('/');
    t.ok(await phonePage.locator('.ad-masthead img').isHidden(), 'at 375 px the shrunken art is not shown');
    const banner = phonePage.locator('.ad-masthead .ad-text');
    t.ok(await banner.isVisible(), 'its words are');
    t.equal(await banner.textContent(), 'Ledgerly: bookkeeping for growing companies. Members save 20%.');
    const size = await banner.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    t.ok(size >= 14, `at a readable size (${size} px)`);
    t.equal(await phonePage.getByRole('link', { name: 'Ledgerly: bookkeeping for growing companies. Members save 20%.' }).getAttribute('href'), adHref, 'and it is the same link');
    t.ok(await phonePage.getByRole('link', { name: /Learn more$/ }).getByText('Learn more', { exact: true }).isVisible(), 'with its Learn more');
    t.equal(await phonePage.evaluate(() => document.documentElement.scrollWidth), 375, 'nothing scrolls sideways');
  });

  await t.test("a press on an ad is counted and lands on the ad's own link", async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken });
    const page = await context.newPage();
    await page.goto('/');
    // The partner's site is not reachable from here: the click's answer is what is checked.
    const [res] = await Promise.all([page.waitForResponse((r) => /\/ads\/\d+\/click$/.test(r.url())), page.getByRole('link', { name: /Learn more$/ }).click()]);
    t.equal(res.status(), 302);
    t.equal(res.headers().location, 'https://example.com/ad', 'through /ads/{id}/click to the stored link');
  });

  await t.test('Contact us opens a dialog from the account menu and the footer; Escape gives the focus back', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: memberToken });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/');
    const menu = page.getByLabel(/^Account menu for/);
    await menu.click();
    await page.locator('.user-menu').getByRole('link', { name: 'Contact us' }).click();
    const dialog = page.getByRole('dialog', { name: 'Contact us' });
    await dialog.waitFor();
    t.equal(pathOf(page), '/', 'the page stays: the link opened the dialog');
    t.ok(await dialog.getByRole('link', { name: 'concierge@alpha.example.com' }).isVisible(), 'the concierge email');
    t.ok(await dialog.getByRole('link', { name: '+1 (555) 010-0000' }).isVisible(), 'and phone');
    t.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), 'the focus is in the dialog');
    await expectNoAxeViolations(t, page, 'the Contact us dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.ok(await menu.evaluate((el) => el === document.activeElement), 'Escape closes it and the focus is back on the menu');
    const footerLink = page.locator('.site-footer').getByRole('link', { name: 'Contact us' });
    await footerLink.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    t.ok(await footerLink.evaluate((el) => el === document.activeElement), 'its Close button too, back to the footer link');
    t.same(problems, [], 'no script errors');
  });
});
