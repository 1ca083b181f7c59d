import t from 'tap';
import { createFeedback } from '#src/features/articles/feedback.ts';
import { moveArticle } from '#src/features/articles/review.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openContext, pathOf, PHONE, serveApp, setAuthCookie } from '#test/helpers/browser.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

t.test('the articles pages in a browser: the journey and axe on every page', async (t) => {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle', article_terms: 'Terms of the program.', article_guidelines: 'Write well.' });
  const { app, baseUrl } = await serveApp(t, db);
  const browser = await browserReady;
  const author = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Byron' });
  const editorUser = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'] });
  const editor = { userId: editorUser.id, isStaff: true };
  const deps = { db, clock: app.clock, community: alpha, t: app.t, notifier: app.notifications };

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await t.test(`at ${label} width`, async (t) => {
      const member = label === 'desktop' ? author : await createMember(db, alpha);
      const context = await openContext(t, browser, baseUrl, { viewport });
      await setAuthCookie(context, baseUrl, (await signIn(app, member, alpha)).token);
      const page = await context.newPage();

      await page.goto(`${baseUrl}/articles`);
      await page.getByRole('heading', { name: 'Before you write' }).waitFor();
      await expectNoAxeViolations(t, page, 'the agreement gate');
      await page.getByLabel('I have read and accept these terms').check();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(`${baseUrl}/articles/edit`);
      await expectNoAxeViolations(t, page, 'the empty editor');

      await page.goto(`${baseUrl}/articles/settings`);
      await page.getByLabel('Byline (at most 140 characters and 1 link)').fill('Ada writes about engines.');
      await page.getByRole('button', { name: 'Save Byline' }).click();
      await page.getByText('Byline saved.').waitFor();
      await expectNoAxeViolations(t, page, 'article settings');

      await page.goto(`${baseUrl}/articles/edit`);
      await page.getByRole('textbox', { name: 'Title' }).fill('What engines taught me');
      await page.getByRole('textbox', { name: 'Article' }).fill(words(120));
      await page.getByText('120/1000 words (500 min)').waitFor();
      // Autosave: 'Saving...' then 'Autosaved' with the time, 3 s after the last change.
      await page.getByRole('status').getByText(/^Autosaved \d{1,2}:\d{2}/).waitFor();
      const draft = await db
        .selectFrom('articles')
        .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
        .select(['article_revisions.title', 'article_revisions.word_count'])
        .where('articles.author_id', '=', member.id)
        .executeTakeFirstOrThrow();
      t.same(draft, { title: 'What engines taught me', word_count: 120 }, 'the first autosave created the article');
      t.equal(await page.getByRole('button', { name: 'Submit', exact: true }).isDisabled(), true, 'Submit waits for 500 words');
      await page.getByRole('textbox', { name: 'Article' }).fill(words(510));
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await page.getByLabel('I confirm this article is my original work and agree to the article agreement').check();
      await page.getByRole('dialog', { name: 'Article agreement' }).getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Your article was submitted for review.').waitFor();
      t.equal(pathOf(page), '/articles');
      await expectNoAxeViolations(t, page, 'the dashboard with an article in flight');

      for (const path of ['/articles/published', '/articles/guidelines', '/articles/agreement', '/articles?guidelines=true']) {
        await page.goto(`${baseUrl}${path}`);
        await expectNoAxeViolations(t, page, path);
      }

      const article = await db.selectFrom('articles').select('id').where('author_id', '=', member.id).executeTakeFirstOrThrow();
      await moveArticle(deps, editor, { articleId: article.id, to: 'FIRST_ROUND_EDIT' });
      await page.goto(`${baseUrl}/articles/edit`);
      await page.getByText('The editors are working on your article.').waitFor();
      await expectNoAxeViolations(t, page, 'the editors-at-work page');
      await createFeedback(deps, editor, { articleId: article.id, feedback: 'Lovely start.' });
      await moveArticle(deps, editor, { articleId: article.id, to: 'NEEDS_REVISION' });
      await page.goto(`${baseUrl}/articles/edit`);
      if (label === 'phone') {
        // Below the computer width the sidebar (feedback, guidelines, byline) slides over the editor.
        const toggle = page.getByRole('button', { name: 'Guidelines & feedback' });
        await toggle.waitFor();
        await page.getByLabel('Message to your editor').waitFor({ state: 'hidden' });
        t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'the sidebar starts closed');
        await toggle.click();
        const panel = page.getByRole('dialog', { name: 'Guidelines & feedback' });
        await panel.waitFor();
        t.equal(await page.evaluate(() => document.activeElement?.id), 'editor-sidebar', 'focus moves into the panel');
        t.equal(await page.evaluate(() => document.querySelector('.editor-main')?.closest('[inert]') !== null), true, 'the editor behind is inert');
        await page.keyboard.press('Tab');
        t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Close', 'Close is the first control of the panel');
        await page.keyboard.press('Escape');
        await panel.waitFor({ state: 'hidden' });
        t.equal(await page.evaluate(() => document.activeElement?.id), 'editor-sidebar-toggle', 'focus returns to the button');
        t.equal(await page.evaluate(() => document.querySelector('[inert]')), null, 'nothing stays inert');
        await toggle.click();
        await expectNoAxeViolations(t, page, 'the open slide-over sidebar');
      }
      await page.getByText('Lovely start.').waitFor();
      await expectNoAxeViolations(t, page, 'the editor with feedback');
      await page.getByLabel('Message to your editor').fill('Thank you!');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Thank you!').waitFor();
      for (const to of ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'READY_TO_APPROVE'] as const) await moveArticle(deps, editor, { articleId: article.id, to });
      await page.goto(`${baseUrl}/articles/edit`);
      await page.getByRole('heading', { name: 'Approve for publishing' }).waitFor();
      await expectNoAxeViolations(t, page, 'the approval preview');
      await page.getByRole('button', { name: 'Approve' }).click();
      const approval = page.getByRole('dialog', { name: 'Approval agreement' });
      const confirm = approval.getByRole('button', { name: 'Confirm' });
      t.equal(await confirm.isDisabled(), true, 'Confirm waits for the box');
      await expectNoAxeViolations(t, page, 'the approval agreement modal');
      await approval.getByLabel('I approve this final version for publishing').check();
      await confirm.click();
      await page.getByText('Thank you: your article goes live in 1 to 2 weeks.').waitFor();
      t.equal(pathOf(page), '/articles');
    });
  }

  await t.test('the editors’ board and an article page pass axe, and a move works in the browser', async (t) => {
    const context = await openContext(t, browser, baseUrl, { viewport: DESKTOP });
    await setAuthCookie(context, baseUrl, (await signIn(app, editorUser, alpha, ['ADMIN', 'MEMBER'])).token);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/articles`);
    await page.getByRole('heading', { name: 'Articles board' }).waitFor();
    await expectNoAxeViolations(t, page, 'the articles board');
    await page.getByRole('link', { name: 'What engines taught me' }).first().click();
    await page.getByRole('heading', { name: 'What engines taught me', level: 1 }).waitFor();
    await expectNoAxeViolations(t, page, 'an article in the admin area');
    await page.getByLabel('Move to').selectOption('SCHEDULED');
    await page.getByLabel('Publication date and time (UTC)').fill('2030-01-15T09:00');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('Status changed.').waitFor();
    t.match(await page.textContent('main'), 'Ready to publish → Scheduled');
  });
});
