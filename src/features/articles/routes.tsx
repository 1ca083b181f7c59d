import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '#src/core/errors.ts';
import { AgreementGate, AgreementPage, Dashboard, GuidelinesPage, PublishedPage } from '#src/features/articles/views/dashboard.tsx';
import { EditorForm, EditorReadOnly, type EditorState } from '#src/features/articles/views/editor.tsx';
import { SettingsPage } from '#src/features/articles/views/settings.tsx';
import { scanForRequest } from './copy-scan/stored.ts';
import { htmlToPlainParagraphs, plainParagraphsToHtml } from './plain.ts';
import { AUTHOR_EDITABLE, EDITORS_AT_WORK, blackoutDays, editorLinkOf, type BlackoutWindow } from './rules.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { acceptProductAgreement, bylineField, getByline, productAgreementStatus, saveByline } from './byline-terms.ts';
import { approveForPublishing, autosaveRevision, submitForReview } from './writing.ts';
import { blackoutNow } from './blackouts.ts';
import { createFeedback, listFeedback, markFeedbackRead } from './feedback.ts';
import { findArticleInFlight, type ArticleDeps, type Person } from './queries.ts';
import { listPendingPublication, listPublished } from './publishing.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { checkbox, field, formOf, optionalId, queryOf } from '#src/lib/form.ts';
import { requireId } from '#src/core/ids.ts';
import { z } from 'zod';
import { withAlert } from '#src/lib/alerts.ts';
import { offersAmplification } from '#src/features/payments/index.ts';

/** A query-string hint a page reads: its text, or none when it is anything else (links may carry anything). */
const hint = z.string().optional().catch(undefined);

/** The member's pages' query string: the guidelines to open, the notice to show, how many remarks. */
const PageQuery = z.object({ guidelines: hint, saved: hint, feedback: hint });

const AgreementForm = z.object({ guidelines: field(), acknowledge: checkbox });
const BylineForm = z.object({ byline: field() });
/**
 * The editor's form: the island posts the rich text as `content`, the form without JavaScript plain
 * `body` paragraphs. The article's id is an id or none (a new article).
 */
const EditorPostForm = z.object({
  articleId: optionalId,
  title: field(),
  body: field(),
  content: z.string().max(1_048_576).optional(),
  agreed: checkbox,
  action: field(),
});
/** The article's id names a row: one that is not an id is NotFound, as an unknown one (requireId). */
const ApproveForm = z.object({ articleId: field(), agreed: checkbox, revisionId: optionalId });
const AuthorFeedbackForm = z.object({ articleId: field(), feedback: field() });

/** Web addresses in escaped plain text become links (the byline field without JavaScript). */
export function linkify(escaped: string): string {
  return escaped.replace(/\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/gi, (url) => `<a href="${url}">${url}</a>`);
}

export function articleDeps(request: FastifyRequest): ArticleDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community: request.community, t: app.t, notifier: app.notifications, jobs: app.jobs };
}

export function personOf(request: FastifyRequest): Person {
  return request.guardian.articlePerson;
}

/** How many remarks the editor page shows at first, and how many more each "Show older messages" adds. */
export const FEEDBACK_STEP = 20;
/** The most remarks the page shows at once without JavaScript. */
const FEEDBACK_MOST = 1000;

/** The `feedback` query parameter (how many of the newest remarks to show), within bounds. */
export function feedbackCount(value: string | undefined): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? Math.min(Math.max(n, FEEDBACK_STEP), FEEDBACK_MOST) : FEEDBACK_STEP;
}

/**
 * The newest `count` remarks, oldest first, and where older ones start. Without JavaScript "Show older
 * messages" asks for more of them, so the thread grows rather than turning into another page; the
 * service answers at most 100 a call, so a longer thread is read back a page at a time.
 */
async function newestFeedback(deps: ArticleDeps, person: Person, articleId: number, count: number) {
  type Page = Awaited<ReturnType<typeof listFeedback>>;
  let remarks: Page['remarks'] = [];
  let before: number | null = null;
  let more = false;
  while (remarks.length < count) {
    const page: Page = await listFeedback(deps, person, { articleId, last: Math.min(100, count - remarks.length), before });
    remarks = [...page.remarks, ...remarks];
    more = page.pageInfo.hasPreviousPage;
    if (!more || !page.pageInfo.startCursor) break;
    before = Number(page.pageInfo.startCursor);
  }
  return { remarks, older: more && remarks[0] ? { cursor: remarks[0].cursor, count: remarks.length + FEEDBACK_STEP } : null };
}

/** The member's articles pages (spec section 2, "Articles screens"), all usable without JavaScript. */
export default async function articleRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const blackoutNotice = (window: BlackoutWindow) => {
    const days = blackoutDays(window);
    return { notice: t('articles.errors.blackout', days), need: t('articles.pages.blackoutNeed', days) };
  };
  const fieldErrors = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([field, f]) => [field, t(f.key)]));

  /** The product agreement gates the whole area: until it is accepted, every page is the gate. */
  async function gate(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (await productAgreementStatus(articleDeps(request), request.guardian.userId!)) return false;
    const guidelines = queryOf(PageQuery, request).guidelines === 'true';
    await reply.page({ title: t('articles.pages.gateTitle'), body: <AgreementGate guidelines={guidelines} /> });
    return true;
  }

  app.get('/articles', member, async (request, reply) => {
    if (await gate(request, reply)) return reply;
    const deps = articleDeps(request);
    const userId = request.guardian.userId!;
    const query = queryOf(PageQuery, request);
    const [inFlight, pending, published, amplifies] = await Promise.all([
      findArticleInFlight(deps, userId),
      listPendingPublication(deps, userId),
      listPublished(deps, userId),
      offersAmplification(deps.db, deps.community),
    ]);
    // The Amplify card (spec section 2): the newest published articles, when the community sells packages.
    const amplify = amplifies ? published.slice(0, 5).map((a) => ({ id: a.id, title: a.title })) : [];
    return reply.page({
      title: t('articles.pages.dashboardTitle'),
      body: <Dashboard inFlight={inFlight} pending={pending} published={published.length} guidelinesOpen={query.guidelines === 'true'} editorLink={inFlight ? editorLinkOf(inFlight.status) : null} amplify={amplify} />,
    });
  });

  app.get('/articles/agreement', member, async (request, reply) => {
    if (await gate(request, reply)) return reply;
    const status = (await productAgreementStatus(articleDeps(request), request.guardian.userId!))!;
    return reply.page({ title: t('articles.pages.agreementTitle'), body: <AgreementPage acceptedAt={status.createdAt} /> });
  });

  app.post('/articles/agreement', member, async (request, reply) => {
    const body = formOf(AgreementForm, request);
    // guidelines=true (spec section 2) rides through the gate: the editor opens with its guidelines.
    const guidelines = body.guidelines === 'true';
    if (!body.acknowledge) {
      return reply.page({ title: t('articles.pages.gateTitle'), body: <AgreementGate guidelines={guidelines} error={t('articles.pages.mustAcknowledge')} />, status: 400 });
    }
    await acceptProductAgreement(articleDeps(request), request.guardian.userId!);
    return reply.redirectTo(guidelines ? '/articles/edit?guidelines=true' : '/articles/edit');
  });

  app.get('/articles/guidelines', member, async (request, reply) => {
    if (await gate(request, reply)) return reply;
    return reply.page({ title: t('articles.pages.guidelinesTitle'), body: <GuidelinesPage /> });
  });

  app.get('/articles/published', member, async (request, reply) => {
    if (await gate(request, reply)) return reply;
    const [articles, amplify] = await Promise.all([listPublished(articleDeps(request), request.guardian.userId!), offersAmplification(app.db, request.community)]);
    return reply.page({ title: t('articles.pages.publishedTitle'), body: <PublishedPage articles={articles} amplify={amplify} /> });
  });

  app.get('/articles/settings', member, async (request, reply) => {
    if (await gate(request, reply)) return reply;
    const byline = await getByline(articleDeps(request), request.guardian.userId!);
    const notice = queryOf(PageQuery, request).saved === '1' ? t('articles.pages.bylineSaved') : undefined;
    return reply.page({ title: t('articles.pages.settingsTitle'), body: <SettingsPage byline={bylineField(byline?.byline ?? '')} notice={notice} /> });
  });

  app.post('/articles/settings', member, async (request, reply) => {
    // The settings are behind the agreement, as their page is.
    if (!(await productAgreementStatus(articleDeps(request), request.guardian.userId!))) {
      return reply.redirectTo(queryOf(PageQuery, request).guidelines === 'true' ? '/articles?guidelines=true' : '/articles');
    }
    const value = formOf(BylineForm, request).byline.trim();
    // A plain-text byline from the form becomes one paragraph, its web addresses links; markup (from the
    // editor island, or typed) is cleaned by the service.
    const html = value.startsWith('<') ? value : `<p>${linkify(value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))}</p>`;
    try {
      await saveByline(articleDeps(request), request.guardian.userId!, html);
      return reply.redirectTo('/articles/settings?saved=1');
    } catch (e) {
      if (!isAppError(e)) throw e;
      return reply.page({ title: t('articles.pages.settingsTitle'), body: <SettingsPage byline={bylineField(value)} error={fieldErrors(e).byline ?? t('articles.errors.byline')} />, status: 400 });
    }
  });

  async function editorState(request: FastifyRequest, overrides: Partial<EditorState> = {}): Promise<EditorState> {
    const deps = articleDeps(request);
    const userId = request.guardian.userId!;
    const query = queryOf(PageQuery, request);
    const article = await findArticleInFlight(deps, userId);
    const [byline, feedback, blackout] = await Promise.all([
      getByline(deps, userId),
      article ? newestFeedback(deps, personOf(request), article.id, feedbackCount(query.feedback)) : null,
      blackoutNow(deps),
    ]);
    const body = htmlToPlainParagraphs(article?.content ?? '');
    return {
      article,
      title: article?.title ?? '',
      body,
      // Older revisions may hold an underline as a styled span: the editor gets it as <u>.
      content: cleanRichText(article?.content ?? ''),
      preview: cleanRichText(article?.content ?? ''),
      wordCount: article?.word_count ?? 0,
      byline: byline?.byline ?? null,
      remarks: feedback?.remarks ?? [],
      olderFeedback: feedback?.older ?? null,
      errors: {},
      blackout: blackout ? blackoutNotice(blackout) : null,
      guidelinesOpen: query.guidelines === 'true',
      agreed: false,
      feedbackText: '',
      locked: false,
      ...overrides,
    };
  }

  async function renderEditor(request: FastifyRequest, reply: FastifyReply, state: EditorState, status = 200) {
    const article = state.article;
    if (article && EDITORS_AT_WORK.includes(article.status)) {
      return reply.page({ title: t('articles.pages.editorTitle'), rail: false, body: <EditorReadOnly state={state} approve={false} />, status });
    }
    if (article && article.status === 'READY_TO_APPROVE') {
      return reply.page({ title: t('articles.pages.editorTitle'), rail: false, body: <EditorReadOnly state={state} approve />, status });
    }
    if (article && !AUTHOR_EDITABLE.includes(article.status)) return reply.redirectTo('/articles');
    return reply.page({ title: t('articles.pages.editorTitle'), rail: false, body: <EditorForm state={state} />, status });
  }

  app.get('/articles/edit', member, async (request, reply) => {
    if (!(await productAgreementStatus(articleDeps(request), request.guardian.userId!))) {
      return reply.redirectTo(queryOf(PageQuery, request).guidelines === 'true' ? '/articles?guidelines=true' : '/articles');
    }
    const state = await editorState(request);
    // A community may send members with no article in flight to its external application form.
    if (!state.article && request.community.article_application_url) return reply.redirect(request.community.article_application_url, 303);
    if (state.article) await markFeedbackRead(articleDeps(request), personOf(request), state.article.id);
    const notice = queryOf(PageQuery, request).saved === '1' ? t('articles.pages.saved') : undefined;
    return renderEditor(request, reply, { ...state, notice });
  });

  /** The status of the member's article in flight, polled by the editors-at-work page. */
  app.get('/articles/edit/status', member, async (request, reply) => {
    const article = await findArticleInFlight(articleDeps(request), request.guardian.userId!);
    reply.header('cache-control', 'no-store');
    return { status: article?.status ?? null };
  });

  app.post('/articles/edit', member, async (request, reply) => {
    const deps = articleDeps(request);
    const userId = request.guardian.userId!;
    const body = formOf(EditorPostForm, request);
    const { articleId, title } = body;
    // The editor island posts the rich text as `content`; the form without JavaScript, plain `body`.
    const rich = body.content ?? null;
    const content = rich ?? plainParagraphsToHtml(body.body);
    const typed = {
      title,
      body: rich === null ? body.body : htmlToPlainParagraphs(rich),
      content: cleanRichText(content),
      wordCount: countWords(content),
      agreed: body.agreed,
    };
    try {
      if (body.action === 'submit') {
        const article = articleId ?? (await autosaveRevision(deps, userId, { title, content })).id;
        // The copy scan runs once the submission is stored, before the member sees the confirmation.
        await submitForReview(deps, userId, { articleId: article, title, content, agreed: body.agreed }, (submitted) =>
          scanForRequest(request, submitted.id).then(() => undefined),
        );
        return reply.redirectTo(withAlert('/articles', 'article-submitted'));
      }
      await autosaveRevision(deps, userId, { articleId, title, content });
      return reply.redirectTo(body.action === 'exit' ? '/articles' : '/articles/edit?saved=1');
    } catch (e) {
      if (!isAppError(e)) throw e;
      // Nothing typed is lost: the page comes back with the text and the errors next to the fields.
      if (e.code === 'Articles.NotEditable' || e.code === 'Articles.ApplicationRequired') {
        // The editors took the article while this was typed (or the community now starts new articles
        // with its application form): the editable page comes back anyway, with the text to copy, the
        // reason, and nothing offered that could not save it.
        const reason = e.code === 'Articles.NotEditable' ? 'articles.errors.notEditableKeepText' : 'articles.errors.applicationRequiredKeepText';
        const state = await editorState(request, { ...typed, errors: { form: t(reason) }, locked: true });
        return reply.page({ title: t('articles.pages.editorTitle'), rail: false, body: <EditorForm state={state} />, status: e.status });
      }
      const errors = fieldErrors(e);
      if (e.code === 'Articles.AgreementRequired') errors.agreed = t('articles.errors.agreementRequired');
      else if (e.code !== 'Articles.Blackout' && Object.keys(errors).length === 0) errors.form = t(body.action === 'submit' ? 'articles.errors.submit' : 'articles.errors.save');
      const state = await editorState(request, { ...typed, errors });
      // The notice names the community's own window (the catalogue's message only the spec's).
      if (e.code === 'Articles.Blackout') state.errors.form = state.blackout?.notice ?? t('articles.errors.blackout', e.values);
      return renderEditor(request, reply, state, e.status);
    }
  });

  app.post('/articles/approve', member, async (request, reply) => {
    const body = formOf(ApproveForm, request);
    const articleId = requireId(body.articleId);
    try {
      await approveForPublishing(articleDeps(request), request.guardian.userId!, { articleId, agreed: body.agreed, revisionId: body.revisionId });
      return reply.redirectTo(withAlert('/articles', 'article-approved'));
    } catch (e) {
      if (!isAppError(e)) throw e;
      // A changed text comes back as the new version to read, with the reason above it.
      const errors: Record<string, string> =
        e.code === 'Articles.AgreementRequired'
          ? { agreed: t('articles.errors.agreementRequired') }
          : { form: t(e.code === 'Articles.ChangedSinceOpened' ? 'articles.errors.changedSinceOpened' : 'articles.errors.approve') };
      return renderEditor(request, reply, await editorState(request, { errors }), e.status);
    }
  });

  app.post('/articles/feedback', member, async (request, reply) => {
    const body = formOf(AuthorFeedbackForm, request);
    const articleId = requireId(body.articleId);
    try {
      await createFeedback(articleDeps(request), personOf(request), { articleId, feedback: body.feedback });
      return reply.redirectTo('/articles/edit#feedback');
    } catch (e) {
      if (!isAppError(e)) throw e;
      const errors = { feedback: fieldErrors(e).feedback ?? t('articles.errors.feedback') };
      // The message comes back in its field, to send again.
      return renderEditor(request, reply, await editorState(request, { errors, feedbackText: body.feedback }), e.status);
    }
  });
}
