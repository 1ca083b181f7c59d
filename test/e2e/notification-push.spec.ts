import t from 'tap';
import { addPushToken, addSubscription } from '#src/features/notifications/push/tokens.ts';
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
import { browserKeys } from '#test/helpers/push.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

const PAGE = '/settings/notifications/devices';

t.test('push in the browser: the devices page, this browser’s notifications', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const amy = await createMember(db, alpha, { firstName: 'Amy', lastName: 'Devices' });
  const me = { communityId: alpha.id, userId: amy.id };
  await addPushToken(db, me, { token: 'amy-iphone', isIos: true }, new Date('2026-11-01T10:00:00Z'));
  await addPushToken(db, me, { token: 'amy-android-with-a-rather-long-token-name-that-must-wrap' }, new Date('2026-11-03T10:00:00Z'));
  await addSubscription(db, me, { endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB-a-very-long-endpoint', keys: browserKeys() }, new Date('2026-11-02T10:00:00Z'), false);
  const token = async () => (await signIn(app, amy, alpha)).token;

  await t.test('with JavaScript at 390: the state, permission refused, then granted (service worker registered)', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: await token() });
    const page = await context.newPage();
    const problems = collectPageProblems(page);
    await page.goto(PAGE);
    await page.getByRole('heading', { name: 'Devices and browsers', exact: true }).waitFor();
    const state = page.getByRole('status').filter({ hasText: /in this browser|this site/ });
    await state.getByText('Notifications are off in this browser.').waitFor();
    const turnOn = page.getByRole('button', { name: 'Turn on notifications in this browser' });
    t.ok(await turnOn.isVisible(), 'the button shows');
    t.notOk(await page.getByText('need JavaScript').isVisible(), 'the no-JavaScript text is replaced');
    await expectNoAxeViolations(t, page, 'the devices page');
    await expectNoSidewaysScroll(t, page, 'the devices page at 390');

    // Headless Chromium answers the permission prompt with "denied" unless the context grants it.
    await turnOn.click();
    await page.waitForFunction(() => ['blocked', 'off'].includes(document.querySelector<HTMLElement>('[data-push-state]')?.dataset.state ?? ''));
    t.pass(`without permission: ${await state.textContent()}`);

    await context.grantPermissions(['notifications'], { origin: baseUrl });
    await page.reload();
    await state.getByText('Notifications are off in this browser.').waitFor();
    await page.getByRole('button', { name: 'Turn on notifications in this browser' }).click();
    // Subscribing needs the browser's push service (Google's, for Chromium), out of reach here: the
    // island either ends "on" (the page reloads with its alert) or says it could not.
    await page.waitForFunction(
      () => location.search.includes('alert=push-browser-on') || document.querySelector<HTMLElement>('[data-push-state]')?.dataset.state === 'failed',
      undefined,
      { timeout: 20_000 },
    );
    const registration = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope ?? null);
    t.equal(registration, `${baseUrl}/`, 'the service worker is registered for the whole app');
    t.equal(await page.evaluate(() => Notification.permission), 'granted');
    if (new URL(page.url()).searchParams.get('alert') === 'push-browser-on') {
      await page.getByText('Notifications are on in this browser.').first().waitFor();
      t.pass('subscribed: the page says so');
    } else {
      await state.getByText('Notifications could not be turned on in this browser. Please try again later.').waitFor();
      t.pass('no push service reachable headless: the failure is said, the button offered again');
      t.ok(await page.getByRole('button', { name: 'Turn on notifications in this browser' }).isVisible());
    }
    // Chromium itself logs that a Playwright context (incognito-like) has no Push API: not the page's error.
    t.same(problems.filter((p) => !/does not support the Push API in incognito/.test(p)), [], 'no page errors');
  });

  await t.test('at 1280 with JavaScript: axe', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await token() });
    const page = await context.newPage();
    await page.goto(PAGE);
    await page.getByRole('button', { name: 'Turn on notifications in this browser' }).waitFor();
    await expectNoAxeViolations(t, page, 'the devices page at 1280');
    await expectNoSidewaysScroll(t, page, 'the devices page at 1280');
  });

  for (const width of [320, 375]) {
    await t.test(`reflow at ${width}, JavaScript on and off`, async (t) => {
      for (const javaScriptEnabled of [true, false]) {
        const context = await openContext(t, browser, baseUrl, { viewport: { width, height: 800 }, token: await token(), javaScriptEnabled });
        const page = await context.newPage();
        await page.goto(PAGE);
        await page.getByRole('heading', { name: 'Your devices and browsers' }).waitFor();
        await expectNoSidewaysScroll(t, page, `${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`);
      }
    });
  }

  await t.test('without JavaScript: the page explains, lists the devices, and Remove works', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token: await token(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(PAGE);
    await page.getByText('Notifications in this browser need JavaScript.', { exact: false }).waitFor();
    t.notOk(await page.getByRole('button', { name: 'Turn on notifications in this browser' }).isVisible(), 'no button that cannot work');
    const items = page.locator('.push-device');
    t.equal(await items.count(), 3, 'three devices');
    t.match(await items.nth(0).textContent(), 'Android app');
    t.match(await items.nth(1).textContent(), 'through updates.push.services.mozilla.com');
    await expectNoAxeViolationsWithoutJavaScript(t, browser, page, 'the devices page without JavaScript');

    await page.getByRole('button', { name: 'Remove iPhone or iPad app, added Nov 1, 2026' }).click();
    await page.getByText('The device was removed: it gets no more notifications.').waitFor();
    t.equal(pathOf(page), PAGE);
    t.equal(await page.locator('.push-device').count(), 2, 'two left');
    t.notOk(await page.getByText('iPhone or iPad app').isVisible(), 'the iPhone is gone');
  });
});
