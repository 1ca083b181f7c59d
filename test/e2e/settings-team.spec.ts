import t from 'tap';
import { saveContact } from '#src/features/settings/team.ts';
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

// Several journeys at two widths with JavaScript on and off: past two minutes on a busy machine.
t.setTimeout(6 * 60_000);

/**
 * Settings → Team and Billing in the browser. The contact dialog (islands/ModalDialog) arrives at
 * merge; until then the Add / Edit / Delete links open their own pages, with JavaScript or without.
 */
t.test('settings team and billing in the browser', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const amy = await createMember(db, alpha, { firstName: 'Amy', lastName: 'Owner' });
  const ben = await createMember(db, alpha, { firstName: 'Ben', lastName: 'Busy' });
  await saveContact({ db, clock: app.clock, community: alpha }, ben.id, 'ea', {
    name: 'Jordan Ellis',
    email: 'jordan.ellis@example.com',
    mobilePhone: { countryCode: 'US', number: '512 555 0117' },
    officePhone: { countryCode: 'US', number: '512 555 0100', extension: '214' },
  });
  const token = async (who: { id: number }) => (await signIn(app, who, alpha)).token;
  const contacts = async (userId: number) => db.selectFrom('support_contacts').select(['type', 'name', 'email']).where('user_id', '=', userId).orderBy('type').execute();

  for (const javaScriptEnabled of [false, true]) {
    for (const viewport of [PHONE, DESKTOP]) {
      const what = `JavaScript ${javaScriptEnabled ? 'on' : 'off'} at ${viewport.width}`;
      await t.test(`add, refuse, save and delete a contact: ${what}`, async (t) => {
        await db.deleteFrom('support_contacts').where('user_id', '=', amy.id).execute();
        const context = await openContext(t, browser, baseUrl, { viewport, token: await token(amy), javaScriptEnabled });
        const page = await context.newPage();
        const problems = collectPageProblems(page);
        await page.goto('/settings/team');
        await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
        await page.getByText('You have not added a PR/marketing contact.').waitFor();
        if (javaScriptEnabled) await expectNoAxeViolations(t, page, `the team section, ${what}`);
        else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `the team section, ${what}`);

        // With JavaScript the links open their page in a dialog (ModalDialog); without, the page itself.
        const open = async (link: string, url: RegExp) => {
          if (!javaScriptEnabled) {
            await Promise.all([page.waitForURL(url), page.getByRole('link', { name: link }).click()]);
            return page.locator('main');
          }
          await page.getByRole('link', { name: link }).click();
          const dialog = page.getByRole('dialog');
          await dialog.locator('form').waitFor();
          t.equal(pathOf(page), '/settings/team', `${link}: a dialog, the page stays`);
          return dialog;
        };
        let scope = await open('Add PR/marketing support', /\/settings\/team\/pr$/);
        await scope.getByRole('heading', { name: 'Add your PR/marketing contact' }).waitFor();
        await scope.getByLabel('Name').fill('Nadia Petrova');
        await scope.getByLabel('Email').fill('nadia@nowhere');
        await scope.getByRole('group', { name: 'Mobile phone' }).getByLabel('Number').fill('555 12');
        if (javaScriptEnabled) await scope.getByRole('button', { name: 'Save' }).click();
        else await Promise.all([page.waitForLoadState('domcontentloaded'), scope.getByRole('button', { name: 'Save' }).click()]);
        await scope.getByText('Please enter a valid email address.').waitFor();
        await scope.getByText('Please enter a valid phone number.').waitFor();
        t.equal(await scope.getByLabel('Name').inputValue(), 'Nadia Petrova', 'the typed name is kept');
        t.equal(await scope.getByLabel('Email').inputValue(), 'nadia@nowhere', 'the typed email is kept');
        await expectNoSidewaysScroll(t, page, `the form with messages, ${what}`);
        if (javaScriptEnabled) await expectNoAxeViolations(t, page, `the form with messages, ${what}`);
        else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `the form with messages, ${what}`);

        await scope.getByLabel('Email').fill('nadia@example.com');
        await scope.getByRole('group', { name: 'Mobile phone' }).getByLabel('Number').fill('512 555 0133');
        await scope.getByRole('group', { name: 'Office phone' }).getByLabel('Country').selectOption('GB');
        await scope.getByRole('group', { name: 'Office phone' }).getByLabel('Number').fill('020 7946 0018');
        await scope.getByLabel('Extension').fill('42');
        await Promise.all([page.waitForURL(/\/settings\/team\?alert=team-saved$/), scope.getByRole('button', { name: 'Save' }).click()]);
        await page.getByText('Your team contact has been saved.').waitFor();
        const main = await page.locator('main').textContent();
        t.match(main, 'Nadia Petrova');
        t.match(main, '(512) 555-0133');
        t.match(main, '020 7946 0018 ext. 42');
        t.same(await contacts(amy.id), [{ type: 'pr', name: 'Nadia Petrova', email: 'nadia@example.com' }], 'stored');

        scope = await open('Delete PR/marketing support', /\/settings\/team\/pr\/delete$/);
        await scope.getByText('Remove Nadia Petrova as your PR/marketing contact?').waitFor();
        if (javaScriptEnabled) await expectNoAxeViolations(t, page, `the delete confirmation, ${what}`);
        else await expectNoAxeViolationsWithoutJavaScript(t, browser, page, `the delete confirmation, ${what}`);
        await expectNoSidewaysScroll(t, page, `the delete confirmation, ${what}`);
        await Promise.all([page.waitForURL(/\/settings\/team\?alert=team-deleted$/), scope.getByRole('button', { name: 'Delete' }).click()]);
        await page.getByText('Your team contact has been deleted.').waitFor();
        await page.getByText('You have not added a PR/marketing contact.').waitFor();
        t.same(await contacts(amy.id), [], 'deleted');
        t.equal(pathOf(page), '/settings/team');
        // The refused form answers 400 (the browser logs that status); nothing else may go wrong.
        if (javaScriptEnabled) t.same(problems.filter((p) => !/status of 400/.test(p)), [], 'no script errors');
        await context.close();
      });
    }
  }

  await t.test('every page: no sideways scroll at 320 and 375 px with JavaScript on and off; axe without JavaScript', async (t) => {
    const pages = ['/settings/team', '/settings/team/ea', '/settings/team/pr', '/settings/team/ea/delete', '/settings/billing'];
    for (const javaScriptEnabled of [true, false]) {
      // Each page loaded once per mode, checked at 320 then 375 px (page.setViewportSize).
      const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token: await token(ben), javaScriptEnabled });
      const page = await context.newPage();
      for (const path of pages) {
        await page.setViewportSize({ width: 320, height: 740 });
        await page.goto(path);
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 740 });
          const what = `${path} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        }
      }
      await context.close();
    }
  });

  await t.test('billing: the empty statements list and the concierge, at desktop with JavaScript', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token: await token(ben) });
    const page = await context.newPage();
    await page.goto('/settings/billing');
    await page.getByText('You have no statements yet.').waitFor();
    t.equal(await page.getByRole('link', { name: alpha.concierge_email }).getAttribute('href'), `mailto:${alpha.concierge_email}`);
    t.equal(await page.getByRole('link', { name: 'Billing' }).getAttribute('aria-current'), 'page', 'the side menu marks the section');
    await expectNoAxeViolations(t, page, 'billing');
    // Ben's assistant as set up: the card shows every detail.
    await page.goto('/settings/team');
    const card = page.getByRole('region', { name: 'Executive assistant' });
    t.match(await card.textContent(), '(512) 555-0100 ext. 214');
    await expectNoAxeViolations(t, page, 'the team section with a contact');
  });
});
