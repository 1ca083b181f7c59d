import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { collectPageProblems, expectNoAxeViolations, launchBrowser, openContext, pathOf, serveApp } from '#test/helpers/browser.ts';
import { addMembership, createCommunity, createMember } from '#test/helpers/factories.ts';

t.test('the lockout and the admin sign-in in a browser', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', name: 'Alpha Council', app_name: 'Alpha Circle' });
  const beta = await createCommunity(db, { code: 'beta', name: 'Beta Guild', app_name: 'Beta Hub' });
  const { baseUrl } = await serveApp(t, db);
  const browser = await browserReady;

  await t.test('five wrong passwords lead to the lockout view, which links back to sign-in', async (t) => {
    const member = await createMember(db, alpha);
    await setPassword(db, member.id);
    const context = await openContext(t, browser, baseUrl);
    const page = await context.newPage();

    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(member.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    const password = page.getByLabel('Password', { exact: true });
    for (let attempt = 1; attempt <= 4; attempt++) {
      await password.fill(`Wrong-pass-${attempt}`);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Password is incorrect.').waitFor();
    }
    t.pass('four wrong passwords are each refused with Password is incorrect.');

    await password.fill('Wrong-pass-5');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login/password'),
      page.getByRole('button', { name: 'Sign In', exact: true }).click(),
    ]);
    t.equal(response.status(), 429, 'the fifth is answered 429');
    await page.getByRole('heading', { level: 1, name: 'Too many attempts' }).waitFor();
    t.ok(await page.getByRole('alert').filter({ hasText: 'Try again in 10 minutes' }).isVisible(), 'says to try again in 10 minutes');
    t.equal(await page.title(), 'Too many attempts | Alpha Circle', 'and says so in the title');
    await expectNoAxeViolations(t, page, 'the lockout view');

    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    t.ok(await page.getByRole('heading', { level: 1, name: 'Sign in to Alpha Circle' }).isVisible(), 'Back to sign in opens the email step');
  });

  await t.test('an admin picks the second community at /login-admin and the app follows that community', async (t) => {
    const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Mary', lastName: 'Jackson' });
    await addMembership(db, beta, admin.id, { roles: ['ADMIN', 'MEMBER'] });
    await setPassword(db, admin.id);
    const context = await openContext(t, browser, baseUrl);
    const page = await context.newPage();
    const problems = collectPageProblems(page);

    await page.goto('/login-admin');
    t.ok(await page.getByRole('heading', { level: 1, name: 'Admin sign in' }).isVisible(), 'the admin sign-in page');
    t.equal(await page.title(), 'Admin Sign In | Alpha Circle');
    const community = page.getByRole('combobox', { name: 'Community' });
    t.same(await community.getByRole('option').allInnerTexts(), ['Alpha Council', 'Beta Guild'], 'lists every community by name');
    t.equal(await community.inputValue(), 'alpha', 'the first community is selected by default');
    await expectNoAxeViolations(t, page, 'the admin sign-in page');

    await page.getByRole('textbox', { name: 'Email' }).fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
    await community.selectOption({ label: 'Beta Guild' });
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const wrong = page.getByRole('alert').filter({ hasText: 'Password is incorrect.' });
    await wrong.waitFor();
    t.ok(await wrong.isVisible(), 'a wrong password is refused');
    t.equal(await page.getByRole('textbox', { name: 'Email' }).inputValue(), admin.email, 'the email is kept');
    t.equal(await community.inputValue(), 'beta', 'and so is the chosen community');
    await expectNoAxeViolations(t, page, 'the admin sign-in page with its error');

    await page.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    t.equal(pathOf(page), '/admin', 'ends in the admin area');

    await page.goto('/');
    t.equal(await page.title(), 'Home | Beta Hub', "the home page now carries the second community's app name");
    t.ok(await page.getByLabel('Account menu for Mary Jackson').isVisible(), 'signed in as the admin');
    t.same(
      problems.filter((p) => !p.includes('Failed to load resource')), // the wrong password answers 401
      [],
      'no script errors',
    );
  });
});
