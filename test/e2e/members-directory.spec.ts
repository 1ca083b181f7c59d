import t from 'tap';
import { collectPageProblems, DESKTOP, expectNoAxeViolations, expectNoAxeViolationsWithoutJavaScript, expectNoSidewaysScroll, openContext, PHONE } from '#test/helpers/browser.ts';
import { signIn } from '#test/helpers/factories.ts';
import { createDirectoryMember } from '#test/helpers/members-directory.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

/** WCAG 1.4.10: the page does not scroll sideways at this width. */
t.test('the member directory in a browser', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;

  const me = await createDirectoryMember(db, alpha, 'Vera', 'Quill', { company: 'Quill Works', industry: 'Software', location: 'Denver, CO', employees: 8 });
  const amara = await createDirectoryMember(db, alpha, 'Amara', 'Okafor', {
    company: 'Lumen Analytics',
    title: 'Chief Executive Officer of a Company With a Very Long Title Indeed',
    location: 'Chicago, IL',
    industry: 'Healthcare',
    employees: 120,
    pronouns: 'she/her',
    displayPronouns: true,
    founding: true,
  });
  await createDirectoryMember(db, alpha, 'Bartholomew-Maximilian', 'Vandenberghe-Oppenheimer', { company: 'Extraordinarilylongcompanynamewithoutspaces Holdings International', location: 'Denver, CO', industry: 'Software' });
  for (let i = 0; i < 30; i++) {
    await createDirectoryMember(db, alpha, 'Pat', `Member${String(i).padStart(2, '0')}`, { company: `Firm ${i}`, industry: i % 2 ? 'Finance' : 'Software', location: i % 3 ? 'Austin, TX' : 'Denver, CO', employees: 10 + i * 40, joinedAt: i < 3 ? new Date() : undefined });
  }
  const token = (await signIn(app, me, alpha)).token;

  await t.test('search with a typo and open the member’s profile link, at phone and desktop width', async (t) => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await openContext(t, browser, baseUrl, { viewport, token });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto('/members');
      await page.getByRole('searchbox', { name: 'Search members' }).fill('Lumen Analitics');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/members\/results\?q=Lumen\+Analitics/);
      await page.getByRole('heading', { level: 1, name: 'Members matching “Lumen Analitics”' }).waitFor();
      const link = page.getByRole('link', { name: 'Amara Okafor' });
      t.equal(await link.getAttribute('href'), `/profile/${amara.id}`, `${viewport.width}px: the result links to the profile`);
      t.equal(await page.locator('.member-card').count(), 1);
      t.match(await page.locator('.member-card').textContent(), '(she/her)');
      t.same(problems, [], `${viewport.width}px: no page errors`);
      // The profile page is another slice's: here only that the link leads there.
      await link.click();
      await page.waitForURL(new RegExp(`/profile/${amara.id}$`));
    }
  });

  await t.test('filters, letters and pages work from the keyboard and by links', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token });
    const page = await context.newPage();
    await page.goto('/members');
    t.equal(await page.locator('.member-card').count(), 24, 'a page of 24');
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/after=/);
    t.equal(await page.locator('.member-card').count(), 9, 'the rest on the second page');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL(/before=/);
    t.equal(await page.locator('.member-card').count(), 24);
    await page.getByRole('navigation', { name: 'Browse by last name' }).getByRole('link', { name: 'O', exact: true }).click();
    await page.waitForURL(/\/members\/browse\?letter=O/);
    t.same(await page.locator('.member-name a').allTextContents(), ['Amara Okafor']);
    await page.goto('/members');
    await page.getByLabel('Industry').selectOption('Healthcare');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/industry=Healthcare/);
    t.same(await page.locator('.member-name a').allTextContents(), ['Amara Okafor']);
  });

  const pages = ['/members', '/members/results?q=Lumen+Analitics', '/members/results?q=member&location=Austin%2C+TX', '/members/browse', '/members/browse?letter=V', '/members?tab=discover'];

  await t.test('every directory page is axe clean and does not scroll sideways at 320 and 375 px, JavaScript on and off', async (t) => {
    for (const javaScriptEnabled of [true, false]) {
      // Each page loaded once per mode, checked at 320 then 375 px (page.setViewportSize).
      const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 800 }, token, javaScriptEnabled });
      const page = await context.newPage();
      for (const path of pages) {
        await page.setViewportSize({ width: 320, height: 800 });
        const res = await page.goto(path);
        t.equal(res?.status(), 200, path);
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 800 });
          const what = `${path} at ${width}px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          // axe once per page and mode (at 320 px, the narrowest).
          if (width === 320) {
            if (javaScriptEnabled) await expectNoAxeViolations(t, page, what);
            else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
          }
        }
      }
    }
  });

  await t.test('the directory and Discover at desktop width are axe clean', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token });
    const page = await context.newPage();
    await page.goto('/members?tab=discover');
    t.ok(await page.getByText('New member').first().isVisible(), 'a reason is shown');
    t.ok(await page.getByText('Also in Software').first().isVisible());
    await expectNoAxeViolations(t, page, 'Discover at 1280px');
    await page.goto('/members/results?q=%00');
    t.match(await page.locator('.field-error').first().textContent(), /./, 'a refused search: the message by the field');
    await expectNoAxeViolations(t, page, 'a refused search at 1280px');
  });
});
