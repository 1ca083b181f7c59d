import t from 'tap';
import { choicesFor, wantsDigest } from '#src/features/notifications/queries.ts';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  expectNoSidewaysScroll,
  openContext,
  PHONE,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

t.test('notification preferences in the browser', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const amy = await createMember(db, alpha, { firstName: 'Amy', lastName: 'Able' });
  const ben = await createMember(db, alpha, { firstName: 'Ben', lastName: 'Baker' });
  const tokenOf = async (user: { id: number }) => (await signIn(app, user, alpha)).token;
  const amyRef = { communityId: alpha.id, userId: amy.id };
  const benRef = { communityId: alpha.id, userId: ben.id };

  for (const viewport of [PHONE, DESKTOP]) {
    await t.test(`with JavaScript at ${viewport.width} px: each box saves at once and survives a reload`, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport, token: await tokenOf(amy) });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto('/settings/notifications#article_feedback');
      await page.getByRole('heading', { name: 'Notification settings' }).waitFor();
      t.equal(await page.getByRole('button', { name: 'Save settings' }).isVisible(), false, 'no save button: each change saves itself');
      await expectNoAxeViolations(t, page, `the preferences at ${viewport.width}`);
      await expectNoSidewaysScroll(t, page, `the preferences at ${viewport.width}`);

      const feedback = page.getByRole('group', { name: 'Editor feedback' });
      const push = feedback.getByRole('checkbox', { name: 'Mobile push' });
      const wanted = viewport === PHONE ? false : true;
      t.equal(await push.isChecked(), !wanted);
      await push.click();
      t.equal(await push.isChecked(), wanted, 'the box flips at once');
      await page.getByText('Saved.').waitFor();
      t.equal((await choicesFor(db, amyRef, 'article_feedback')).push, wanted, 'stored');

      await page.getByRole('radio', { name: 'One daily digest' }).check();
      await page.getByText('Saved.').waitFor();
      await t.resolves(waitFor(async () => (await wantsDigest(db, amyRef)) === true), 'the daily digest is stored');

      await page.reload();
      t.equal(await page.getByRole('group', { name: 'Editor feedback' }).getByRole('checkbox', { name: 'Mobile push' }).isChecked(), wanted, 'after a reload');
      t.equal(await page.getByRole('radio', { name: 'One daily digest' }).isChecked(), true);
      await page.getByRole('radio', { name: 'Each email at once' }).check();
      await page.getByText('Saved.').waitFor();
      await t.resolves(waitFor(async () => (await wantsDigest(db, amyRef)) === false));
      t.same(problems, [], 'no script errors');
    });
  }

  await t.test('with JavaScript, a save that fails flips the box back and says so (role alert)', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: await tokenOf(amy) });
    const page = await context.newPage();
    await page.goto('/settings/notifications');
    await page.route('**/graphql', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"errors":[{"message":"down"}]}' }));
    const box = page.getByRole('group', { name: 'Article progress' }).getByRole('checkbox', { name: 'Email' });
    t.equal(await box.isChecked(), true);
    await box.click();
    const alert = page.getByRole('alert').filter({ hasText: 'We couldn’t save that change. Please try again.' });
    await alert.waitFor();
    t.equal(await box.isChecked(), true, 'flipped back');
    t.equal((await choicesFor(db, amyRef, 'article_progress')).email, true, 'nothing stored');
    await expectNoAxeViolations(t, page, 'the preferences with the failure message');
    await page.unroute('**/graphql');
    await box.click();
    await page.getByText('Saved.').waitFor();
    t.equal(await alert.count(), 0, 'the message goes once a save works');
    t.equal((await choicesFor(db, amyRef, 'article_progress')).email, false);
  });

  for (const viewport of [PHONE, DESKTOP]) {
    await t.test(`without JavaScript at ${viewport.width} px: the form saves everything and the alert says so`, async (t) => {
      const context = await openContext(t, browser, baseUrl, { viewport, token: await tokenOf(ben), javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/settings/notifications');
      const web = page.getByRole('group', { name: 'Article progress' }).getByRole('checkbox', { name: 'Web' });
      const turnOn = viewport === DESKTOP;
      await web.setChecked(turnOn);
      await page.getByRole('radio', { name: turnOn ? 'Each email at once' : 'One daily digest' }).check();
      await Promise.all([page.waitForURL(/alert=notification-preferences-saved/), page.getByRole('button', { name: 'Save settings' }).click()]);
      await page.getByRole('status').filter({ hasText: 'Your notification settings are saved.' }).waitFor();
      t.equal((await choicesFor(db, benRef, 'article_progress')).web, turnOn);
      t.equal(await wantsDigest(db, benRef), !turnOn);
      t.equal(await page.getByRole('group', { name: 'Article progress' }).getByRole('checkbox', { name: 'Web' }).isChecked(), turnOn, 'the page shows what was saved');
      await expectNoSidewaysScroll(t, page, `after saving at ${viewport.width}`);
      await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `the preferences with the alert at ${viewport.width}`);
    });
  }

  await t.test('the unsubscribe link from a mail, without JavaScript', async (t) => {
    await app.notifications.notify(db, { communityId: alpha.id, userId: ben.id, kind: 'account_security', url: '/settings', message: 'Your password was changed.', createdAt: app.clock.now() });
    await app.jobs.drain();
    const mail = app.outbox.messages.find((m) => m.to === ben.email && m.text.includes('Your password was changed.'));
    const link = /Unsubscribe from “Account security” email: (\S+)/.exec(mail?.text ?? '')?.[1];
    t.ok(link, 'the mail has the link');
    const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page.getByText('Stop email about “Account security”').waitFor();
    await expectNoSidewaysScroll(t, page, 'the unsubscribe page at 320');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the unsubscribe page');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
    await page.getByRole('heading', { name: 'You’re unsubscribed' }).waitFor();
    t.equal((await choicesFor(db, benRef, 'account_security')).email, false);
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the unsubscribed page');
  });

  await t.test('no sideways scroll at 320 and 375 px with JavaScript on and off; axe without JavaScript', async (t) => {
    for (const javaScriptEnabled of [true, false]) {
      for (const width of [320, 375]) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 740 }, token: await tokenOf(amy), javaScriptEnabled });
        const page = await context.newPage();
        await page.goto('/settings/notifications');
        const what = `/settings/notifications at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
        await expectNoSidewaysScroll(t, page, what);
        if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        await context.close();
      }
    }
  });
});

/** Polls a condition (the save lands a moment after the box flips). */
async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}
