import t from 'tap';
import { declineIntroduction, requestIntroduction, type IntroDeps } from '#src/features/members/introductions.ts';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  openContext,
  pathOf,
  PHONE,
  expectNoSidewaysScroll,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const REASON = 'We both sell to hospital groups in the Midwest and could share what works with procurement.';

t.test('introductions in the browser: the dialog, the page, the staff queue', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const deps: IntroDeps = {
    db,
    clock: app.clock,
    community: alpha,
    t: app.t,
    messages: app.messages,
    publicUrl: `${app.config.publicUrl}${app.config.basePath}`,
    mailFrom: app.config.mailFrom,
    notifier: app.notifications,
  };
  const amy = await createMember(db, alpha, { firstName: 'Amy', lastName: 'Asker', companyName: 'Asker Medical' });
  const tom = await createMember(db, alpha, { firstName: 'Tom', lastName: 'Target', companyName: 'Target Health' });
  const pat = await createMember(db, alpha, { firstName: 'Pat', lastName: 'Prior', companyName: 'Prior Supplies' });
  const sam = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Sam', lastName: 'Staff' });
  // An earlier request to Pat, declined: the member's requests page offers to ask again (the dialog's link).
  const earlier = await requestIntroduction(deps, amy.id, { targetId: pat.id, reason: REASON });
  await declineIntroduction(deps, sam.id, earlier.id, 'Pat was travelling; please ask again next month.');
  const memberToken = async () => (await signIn(app, amy, alpha)).token;
  const staffToken = async () => (await signIn(app, sam, alpha, ['ADMIN', 'MEMBER'])).token;
  const pending = async () => db.selectFrom('introduction_requests').select(['id', 'target_id', 'reason']).where('status', '=', 'PENDING').orderBy('id').execute();

  await t.test('with JavaScript at phone width: the dialog asks why, keeps the text on a refusal, then sends', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: await memberToken() });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto('/members/introductions');
    await page.getByRole('heading', { name: 'Your introduction requests' }).waitFor();
    t.match(await page.locator('main').textContent(), 'Pat was travelling; please ask again next month.', 'the decline reason is shown');
    const link = page.getByRole('link', { name: 'Request introduction to Pat Prior' });
    await link.waitFor();
    await expectNoAxeViolations(t, page, 'the member’s requests');

    await link.click();
    const dialog = page.getByRole('dialog', { name: 'Request an introduction to Pat Prior' });
    await dialog.waitFor();
    t.equal(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal')), true, 'opened with showModal()');
    await page.waitForFunction(() => document.activeElement?.id === 'reason');
    t.pass('focus is in the reason field');
    t.equal(pathOf(page), '/members/introductions', 'no page load');
    await expectNoAxeViolations(t, page, 'the request dialog');
    await expectNoSidewaysScroll(t, page, 'the request dialog at 390');

    await dialog.getByLabel('Why would you like to meet Pat?').fill('Hello Pat');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.getByText('Please write at least 20 characters').waitFor();
    t.equal(await dialog.getByLabel('Why would you like to meet Pat?').inputValue(), 'Hello Pat', 'the typed text is kept');
    t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid')), 'true', 'focus on the field with the message');
    await expectNoAxeViolations(t, page, 'the request dialog with a field message');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Request introduction to Pat Prior', 'Escape closes; focus back on the link');
    t.same(await pending(), [], 'nothing was sent');

    await link.click();
    await dialog.waitFor();
    await dialog.getByLabel('Why would you like to meet Pat?').fill(REASON);
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Your request to meet Pat Prior was sent to the community team.').waitFor();
    t.same(
      (await pending()).map((r) => [r.target_id, r.reason]),
      [[pat.id, REASON]],
      'the request is stored',
    );
    await expectNoAxeViolations(t, page, 'the dialog’s confirmation');
    await page.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    // Asked again before the team reviewed it: the dialog says so, with no form.
    await link.click();
    await dialog.getByText('You already asked to be introduced to Pat Prior').waitFor();
    t.equal(await dialog.locator('textarea').count(), 0, 'no form while a request is open');
    await expectNoAxeViolations(t, page, 'the dialog with an open request');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.same(problems, [], 'no script errors');
  });

  await t.test('with JavaScript at desktop width: the request page itself posts and lands on the requests', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await memberToken() });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(`/profile/${tom.id}/introduce`);
    await page.getByRole('heading', { name: 'Request an introduction to Tom Target', level: 1 }).waitFor();
    await expectNoAxeViolations(t, page, 'the request page');
    await page.getByLabel('Why would you like to meet Tom?').fill(REASON);
    await Promise.all([page.waitForURL(/\/members\/introductions\?sent=\d+$/), page.getByRole('button', { name: 'Send request' }).click()]);
    await page.getByText('Your request to meet Tom Target was sent to the community team.').waitFor();
    t.match(await page.locator('main').textContent(), 'Pending');
    await expectNoAxeViolations(t, page, 'the requests with the confirmation');
    t.same(problems, []);
  });

  await t.test('staff approve with a note and decline with a reason, at desktop and phone width', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await staffToken() });
    const page = await context.newPage();
    await page.goto('/admin/members/introductions');
    await page.getByRole('heading', { name: 'Waiting for review (2)' }).waitFor();
    await expectNoAxeViolations(t, page, 'the staff queue');
    const toTom = page.locator('li.intro-card').filter({ hasText: 'Tom Target' }).filter({ has: page.getByRole('button', { name: 'Approve' }) });
    await toTom.getByLabel('Note for both members (optional)').fill('Tom asked to meet suppliers this quarter.');
    await Promise.all([page.waitForURL(/approved=\d+/), toTom.getByRole('button', { name: 'Approve' }).click()]);
    await page.getByText('The introduction between Amy Asker and Tom Target was approved; both members will receive an email.').waitFor();

    const toPat = page.locator('li.intro-card').filter({ hasText: 'Pat Prior' }).filter({ has: page.getByRole('button', { name: 'Decline' }) });
    await Promise.all([page.waitForLoadState('domcontentloaded'), toPat.getByRole('button', { name: 'Decline' }).click()]);
    await page.getByText('Please give the reason for declining; the member will receive it.').waitFor();
    await expectNoAxeViolations(t, page, 'the staff queue with a field message');
    await page.setViewportSize(PHONE);
    await expectNoAxeViolations(t, page, 'the staff queue at 390');
    await expectNoSidewaysScroll(t, page, 'the staff queue at 390');
    const again = page.locator('li.intro-card').filter({ hasText: 'Pat Prior' }).filter({ has: page.getByRole('button', { name: 'Decline' }) });
    await again.getByLabel('Reason for declining (sent to the requester)').fill('Pat is away until spring.');
    await Promise.all([page.waitForURL(/declined=\d+/), again.getByRole('button', { name: 'Decline' }).click()]);
    await page.getByText('The request from Amy Asker was declined').waitFor();
    await page.getByRole('heading', { name: 'Waiting for review (0)' }).waitFor();

    await app.jobs.drain();
    t.match(app.outbox.latestTo(tom.email, 'email')?.text, 'Tom asked to meet suppliers this quarter.', 'Tom is introduced to Amy');
    t.match(app.outbox.latestTo(tom.email, 'email')?.text, amy.email);
    t.match(app.outbox.latestTo(amy.email, 'email')?.text, 'Pat is away until spring.', 'Amy is told of the decline');
    t.ok(app.outbox.messages.some((m) => m.to === amy.email && m.subject?.includes('meet Tom Target')), 'and was introduced to Tom');
  });

  await t.test('every page: no sideways scroll at 320 and 375 px with JavaScript on and off; axe without JavaScript', async (t) => {
    const newRequest = await requestIntroduction(deps, pat.id, { targetId: tom.id, reason: REASON });
    t.ok(newRequest.id);
    const pages: { path: string; token: string }[] = [
      { path: `/profile/${pat.id}/introduce`, token: await memberToken() },
      { path: '/members/introductions', token: await memberToken() },
      { path: '/admin/members/introductions', token: await staffToken() },
    ];
    for (const javaScriptEnabled of [true, false]) {
      // Each page loaded once per mode, checked at 320 then 375 px (page.setViewportSize).
      for (const p of pages) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token: p.token, javaScriptEnabled });
        const page = await context.newPage();
        await page.goto(p.path);
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 740 });
          const what = `${p.path} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        }
        await context.close();
      }
    }
    // The request page with a field message, without JavaScript.
    const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token: await memberToken(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/profile/${pat.id}/introduce`);
    await page.getByLabel('Why would you like to meet Pat?').fill('Too short');
    await Promise.all([page.waitForLoadState('domcontentloaded'), page.getByRole('button', { name: 'Send request' }).click()]);
    await page.getByText('Please write at least 20 characters').waitFor();
    t.equal(await page.getByLabel('Why would you like to meet Pat?').inputValue(), 'Too short', 'the typed text is kept');
    await expectNoSidewaysScroll(t, page, 'the request page with a message at 320');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the request page with a message');
  });
});
