import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  collectPageProblems,
  DESKTOP,
  expectNoAxeViolations,
  expectNoAxeViolationsWithoutJavaScript,
  openContext,
  PHONE,
  pathOf,
  expectNoSidewaysScroll,
} from '#test/helpers/browser.ts';
import { createMember, signIn } from '#test/helpers/factories.ts';
import { createArticle } from '#test/helpers/members-profiles.ts';
import { browserWorld } from '#test/helpers/browser-world.ts';

t.test('profiles in the browser: edit one’s profile, upload a photo, view a profile', async (t) => {
  const { browserReady, db, alpha, app, baseUrl } = await browserWorld(t);
  const browser = await browserReady;
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines' });
  const grace = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
  await db
    .updateTable('memberships')
    .set({
      pronouns: 'she/her',
      display_pronouns: true,
      is_moderator: true,
      industry: 'Software & Technology',
      company_description: 'A very long description without spaces: ' + 'x'.repeat(300),
      company_area_of_focus: 'Computation',
      company_employee_count: 42,
      link_linkedin: 'https://www.linkedin.com/in/ada-lovelace-with-a-very-long-profile-address-that-does-not-wrap-easily',
      link_website: 'https://ada.example.com/',
    })
    .where('user_id', '=', ada.id)
    .execute();
  await createArticle(db, alpha, ada.id, 'Notes on the Analytical Engine');

  const dir = mkdtempSync(path.join(tmpdir(), 'profile-e2e-'));
  const photo = path.join(dir, 'photo.jpg');
  // A PNG under a .jpg name: the server reads the bytes.
  writeFileSync(photo, await sharp({ create: { width: 800, height: 500, channels: 3, background: { r: 30, g: 110, b: 160 } } }).png().toBuffer());
  const notImage = path.join(dir, 'notes.png');
  writeFileSync(notImage, 'plain words, not an image');

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await t.test(`at ${label} width: edit one’s profile (a refused link keeps what was typed), upload a photo, see it on the profile`, async (t) => {
      const { token } = await signIn(app, ada, alpha);
      const context = await openContext(t, browser, baseUrl, { viewport, token });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto('/');
      // The user menu's Manage Profile leads to one's own profile.
      await page.goto(`/profile/${ada.id}/self`);
      await page.getByRole('heading', { name: 'Manage profile' }).waitFor();
      await expectNoAxeViolations(t, page, `/self at ${label}`);

      await page.getByLabel('Job title').fill(`Mathematician (${label})`);
      await page.getByLabel('Industry').selectOption('Education');
      await page.getByLabel('Number of employees').fill('12');
      await page.getByLabel('Twitter').fill('https://example.com/not-twitter');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Your profile was not saved.').waitFor();
      t.match(await page.locator('#profile-twitter-error').textContent(), 'Enter your Twitter (X) profile address');
      t.equal(await page.getByLabel('Job title').inputValue(), `Mathematician (${label})`, 'typed values kept');
      t.equal(await page.getByLabel('Twitter').inputValue(), 'https://example.com/not-twitter');
      await expectNoAxeViolations(t, page, `/self with field messages at ${label}`);

      await page.getByLabel('Twitter').fill('https://x.com/ada');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Your profile is saved.').waitFor();
      t.equal(pathOf(page), `/profile/${ada.id}/self`);

      await page.getByLabel('Choose a photo').setInputFiles(notImage);
      await page.getByRole('button', { name: 'Upload photo' }).click();
      await page.getByText('This file is not a JPEG, PNG or WebP image.').waitFor();
      await expectNoAxeViolations(t, page, `/self with the photo refused at ${label}`);

      await page.getByLabel('Choose a photo').setInputFiles(photo);
      await page.getByRole('button', { name: 'Upload photo' }).click();
      await page.getByText('Your profile photo is saved.').waitFor();
      const loaded = await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.profile-photo img.profile-avatar');
        return img && img.complete && img.naturalWidth > 0 ? img.naturalWidth : null;
      });
      t.equal(await loaded.jsonValue(), 80, 'the stored photo loads (the 80 px preset)');

      await page.getByRole('link', { name: 'View my profile' }).click();
      await page.getByRole('heading', { name: /Ada Lovelace/ }).waitFor();
      t.match(await page.locator('.profile-head').textContent(), `Mathematician (${label}), Analytical Engines`);
      t.equal(await page.getByRole('link', { name: 'x.com/ada' }).getAttribute('href'), 'https://x.com/ada');
      const natural = await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.profile-head img.profile-avatar');
        return img && img.complete && img.naturalWidth > 0 ? img.naturalWidth : null;
      });
      t.equal(await natural.jsonValue(), 150, 'the profile shows the 150 px preset');
      t.match(await page.locator('.profile-head img.profile-avatar').getAttribute('srcset'), /\/300\.webp 2x$/, 'and 300 px for dense screens');
      await page.getByRole('link', { name: 'Edit profile' }).waitFor();
      await expectNoAxeViolations(t, page, `/profile at ${label}`);
      // The refused saves answer 400 (their page with the messages), which the console reports.
      t.same(problems.filter((p) => !p.includes('status of 400')), [], 'no page errors');
    });
  }

  await t.test('another member’s profile has Request introduction', async (t) => {
    const { token } = await signIn(app, grace, alpha);
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP, token });
    const page = await context.newPage();
    await page.goto(`/profile/${ada.id}`);
    const link = page.getByRole('link', { name: 'Request introduction' });
    t.equal(await link.getAttribute('href'), `/profile/${ada.id}/introduce`);
    t.equal(await page.getByRole('link', { name: 'Edit profile' }).count(), 0);
    await page.getByRole('link', { name: 'Notes on the Analytical Engine' }).waitFor();
    // With JavaScript the link opens the introductions area's dialog on the profile itself.
    await link.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').waitFor();
    t.equal(new URL(page.url()).pathname, `/profile/${ada.id}`, 'still on the profile');
    await expectNoAxeViolations(t, page, 'the profile with the introduction dialog open');
  });

  await t.test('no sideways scroll at 320 and 375 px, JavaScript on and off; axe without JavaScript', async (t) => {
    const { token } = await signIn(app, ada, alpha);
    for (const javaScriptEnabled of [true, false]) {
      // Each page loaded once per mode, checked at 320 then 375 px (page.setViewportSize).
      const context = await openContext(t, browser, baseUrl, { viewport: { width: 320, height: 740 }, token, javaScriptEnabled });
      const page = await context.newPage();
      for (const url of [`/profile/${ada.id}`, `/profile/${ada.id}/self`]) {
        await page.setViewportSize({ width: 320, height: 740 });
        await page.goto(url);
        for (const width of [320, 375]) {
          await page.setViewportSize({ width, height: 740 });
          const what = `${url} at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`;
          await expectNoSidewaysScroll(t, page, what);
          if (!javaScriptEnabled && width === 320) await expectNoAxeViolationsWithoutJavaScript(t, browser, page, what);
        }
      }
      await context.close();
    }
  });

  await t.test('without JavaScript: a refused save keeps the values; a photo uploads', async (t) => {
    const { token } = await signIn(app, ada, alpha);
    const context = await openContext(t, browser, baseUrl, { viewport: PHONE, token, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/profile/${ada.id}/self`);
    await page.getByLabel('LinkedIn').fill('https://www.linkedin.com/feed');
    await page.getByLabel('Location').fill('London, UK');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Enter your LinkedIn profile address').waitFor();
    t.equal(await page.getByLabel('Location').inputValue(), 'London, UK');
    await page.getByLabel('LinkedIn').fill('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Your profile is saved.').waitFor();
    await page.getByLabel('Choose a photo').setInputFiles(photo);
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await page.getByText('Your profile photo is saved.').waitFor();
    await page.getByRole('button', { name: 'Remove photo' }).click();
    await page.getByText('Your profile photo is removed.').waitFor();
    const row = await db.selectFrom('memberships').select(['location_name', 'link_linkedin', 'avatar_key']).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    t.same(row, { location_name: 'London, UK', link_linkedin: null, avatar_key: null });
  });
});
