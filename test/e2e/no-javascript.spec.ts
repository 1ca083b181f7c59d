import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { PHONE, launchBrowser, openContext, pathOf, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

t.test('the shell without JavaScript', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, {
    code: 'alpha',
    app_name: 'Alpha Circle',
    forum_enabled: true,
    exec_link: 'https://example.com/exec',
    nav_more: JSON.stringify([{ label: 'Events', link: 'https://example.com/events' }]),
  });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await launchBrowser(t);
  const member = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const { token } = await signIn(app, member, alpha);

  await t.test('at phone width the Menu opens by click and its Sign Out posts the form and ends the session', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    t.ok(await page.getByRole('heading', { level: 1, name: 'Welcome back, Ada Lovelace' }).isVisible(), 'signed in');
    t.ok(await page.getByRole('link', { name: 'Notifications' }).isVisible(), 'the bell is a plain link to the notifications');

    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    t.ok(await mobile.isHidden(), 'the sidebar starts closed');
    await page.getByText('Menu', { exact: true }).click();
    await mobile.waitFor({ state: 'visible' });
    for (const label of ['Forum', 'Members', 'Expert Panels', 'Articles', 'EXEC', 'Events', 'Notifications', 'Settings']) {
      t.ok(await mobile.getByRole('link', { name: label, exact: true }).isVisible(), `the sidebar shows ${label}`);
    }

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) posts.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await Promise.all([page.waitForURL(`${baseUrl}/login`), mobile.getByRole('button', { name: 'Sign Out' }).click()]);
    t.equal(posts[0], 'POST /logout', 'Sign Out submits a real form POST');
    t.equal(pathOf(page), '/login', 'and ends at the sign-in path');
    t.same(
      (await context.cookies()).filter((c) => c.name === 'auth'),
      [],
      'the auth cookie is cleared',
    );

    await page.goto('/');
    t.ok(await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).isVisible(), 'the home page shows Sign In');
    t.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'and no navigation');

    // The session was revoked on the server, not just forgotten by the browser.
    await setAuthCookie(context, baseUrl, token);
    await page.goto('/');
    t.ok(await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).isVisible(), 'the old cookie value gives a signed-out page');
    t.equal(await page.getByText('Welcome back, Ada Lovelace').count(), 0, 'with no greeting for the member');
  });
});
