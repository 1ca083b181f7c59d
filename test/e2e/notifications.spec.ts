import t from 'tap';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  openContext,
  pathOf,
  PHONE,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const HOUR = 3_600_000;

t.test('notifications in the browser: the bell polls, opens the newest seven, the list marks all read', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;

  /** A member with nine seen notifications over the last hours (a long message among them). */
  async function memberWithHistory(firstName: string) {
    const m = await createMember(db, alpha, { firstName });
    const now = Date.now();
    await db
      .insertInto('notifications')
      .values(
        Array.from({ length: 9 }, (_, i) => ({
          community_id: alpha.id,
          user_id: m.id,
          kind: i % 2 ? 'article_feedback' : 'introductions',
          url: i % 2 ? '/articles' : '/members/introductions',
          message: i === 4 ? `New feedback on "${'A very long article title without breaks '.repeat(3).trim()}".` : `Earlier notice ${i + 1}`,
          created_at: new Date(now - (10 - i) * HOUR),
          viewed_at: new Date(now - HOUR),
          read_at: i < 5 ? new Date(now - HOUR) : null,
        })),
      )
      .execute();
    return m;
  }

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await t.test(`at ${label} width`, async (t) => {
      const member = await memberWithHistory(`Pia${label}`);
      const context = await openContext(t, browser, baseUrl, { viewport, token: (await signIn(app, member, alpha)).token });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      // Fake timers from the start, so the 30-second poll is advanced, not waited for.
      await page.clock.install();
      await page.goto('/');
      const bell = page.getByRole('button', { name: 'Notifications', exact: true });
      await bell.waitFor();
      t.equal(await page.getByTestId('bell-dot').isVisible(), false, 'everything seen: no dot');

      // Something happens meanwhile: the poll shows it without a reload.
      await db.transaction().execute((trx) =>
        app.notifications.notify(trx, {
          communityId: alpha.id,
          userId: member.id,
          kind: 'article_progress',
          url: '/articles',
          message: 'Your article "Fresh news" was submitted for review.',
          createdAt: new Date(),
        }),
      );
      await page.clock.runFor(30_000);
      await page.getByTestId('bell-dot').waitFor({ state: 'visible' });
      const unreadBell = page.getByRole('button', { name: 'Notifications (unread)' });
      await unreadBell.waitFor();
      t.pass('the poll shows the dot and says unread');

      await unreadBell.click();
      const panel = page.locator('.bell-panel');
      await panel.getByRole('link', { name: /Fresh news/ }).waitFor();
      t.equal(await panel.locator('.bell-list li').count(), 7, 'the newest seven');
      t.match(await panel.locator('.bell-list li').first().textContent(), /^Unread Your article "Fresh news" was submitted for review\.just now$/);
      t.equal(await panel.getByRole('link', { name: 'See all notifications' }).getAttribute('href'), '/notifications');
      await page.getByTestId('bell-dot').waitFor({ state: 'hidden' });
      t.pass('opening the bell removes the dot');
      await expectNoAxeViolations(t, page, `the open bell at ${label} width`);
      await expectNoSidewaysScroll(t, page, `the open bell at ${label} width`);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      t.equal(await page.evaluate(() => document.activeElement?.classList.contains('bell-button')), true, 'Escape gives the focus back to the bell');
      const row = await db.selectFrom('notifications').select(['viewed_at', 'read_at']).where('message', 'like', '%Fresh news%').where('user_id', '=', member.id).executeTakeFirstOrThrow();
      t.ok(row.viewed_at && !row.read_at, 'viewed, not read');

      // The list: mark all as read.
      await page.goto('/notifications');
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      t.equal(await page.locator('.notif-item.is-unread').count(), 5, 'four earlier and the new one unread');
      if (label === 'desktop') {
        // Relative times refresh in the page (spec section 9): each minute within the first hour, hourly within three.
        const fresh = page.locator('.notif-item', { hasText: 'Fresh news' }).locator('time');
        t.match(await fresh.textContent(), /^(just now|1 minute ago)$/, 'as the server worded it');
        await page.clock.runFor(3 * 60_000);
        t.match(await fresh.textContent(), /^[34] minutes ago$/, 'a few minutes later, without a reload');
        await page.clock.runFor(60 * 60_000);
        t.equal(await fresh.textContent(), '1 hour ago', 'an hour later');
        await page.clock.runFor(60 * 60_000);
        t.equal(await fresh.textContent(), '2 hours ago', 'hourly within three hours');
      }
      await expectNoAxeViolations(t, page, `the list at ${label} width`);
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await page.getByText('All notifications are marked as read.').waitFor();
      t.equal(await page.locator('.notif-item.is-unread').count(), 0);
      t.equal(pathOf(page), '/notifications');

      // Opening one from the list goes to its page.
      await page.getByRole('link', { name: 'Your article "Fresh news" was submitted for review.' }).click();
      await page.waitForURL((u) => u.pathname === '/articles');
      t.same(problems, []);
    });
  }

  await t.test('the list without JavaScript, and no sideways scroll at 320 and 375 px with JavaScript on and off', async (t) => {
    const member = await memberWithHistory('Quinn');
    const token = (await signIn(app, member, alpha)).token;
    for (const javaScriptEnabled of [true, false]) {
      // Each page loaded once per mode, checked at 320 then 375 px (page.setViewportSize).
      for (const path of ['/notifications', '/notifications?option=introductions']) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token, javaScriptEnabled });
        const page = await context.newPage();
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 740 });
          const what = `${path} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        }
        await context.close();
      }
    }

    const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/notifications?option=introductions');
    t.equal(await page.getByRole('link', { name: 'Manage settings' }).getAttribute('href'), '/settings/notifications#introductions');
    await page.getByRole('button', { name: /^Mark as read/ }).first().click();
    await page.getByText('Marked as read.').waitFor();
    t.equal(pathOf(page), '/notifications', 'back on the list');
    t.match(page.url(), /option=introductions/, 'still narrowed');
    await page.getByRole('link', { name: 'See all notifications' }).click();
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    // The bell is a plain link to the list without JavaScript.
    t.equal(await page.locator('a.bell-button').getAttribute('href'), '/notifications');
  });
});
