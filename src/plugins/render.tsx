import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AppError, asClientError, errorSpec, type ErrorCode, type ServerErrorCode } from '#src/core/errors.ts';
import { isDatabaseUnavailable } from '#src/db/faults.ts';
import { Guardian } from '#src/core/guardian/index.ts';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { countImpressions, pickAds } from '#src/features/ads/index.ts';
import { adminAreas } from '#src/lib/admin/areas.ts';
import { hasUnviewed } from '#src/features/notifications/index.ts';
import { safeRedirect } from '#src/features/auth/index.ts';
import { feedLinksOf } from '#src/features/syndication/index.ts';
import { analyticsState, GOOGLE_SOURCES, googleTagsHtml } from '#src/features/insights/index.ts';
import { extendCsp } from './security.ts';
import { ErrorNoticePage, NotFoundPage } from '#views/errors/ErrorPages.tsx';
import { PageContext, type PageContextValue } from '#views/layout/page-context.tsx';
import { AdminShell, Shell } from '#views/layout/Shell.tsx';
import { isHtmx, wantsJson } from '#src/lib/negotiation.ts';
import { assetUrl } from '#shared/asset-url.ts';
import { alertFor } from '#src/lib/alerts.ts';
import { queryOf } from '#src/lib/form.ts';
import { brandStyle } from '#src/lib/color.ts';
import { z } from 'zod';
import type { PageOptions } from './types.ts';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

async function pageContext(request: FastifyRequest, reply: FastifyReply): Promise<PageContextValue> {
  const app = request.server;
  const identity = request.identity ?? PUBLIC_IDENTITY;
  const guardian = request.guardian ?? new Guardian(identity, request.community);
  // The admin area has its own shell and navigation, and no ads.
  const inAdmin = request.routeOptions.config?.access === 'admin' && guardian.isAdmin;
  const member = identity.loggedIn && !inAdmin ? { communityId: request.community.id, userId: identity.user.id } : null;
  // The bell's dot, on the server: what the session's statement found when a GET began (nothing in
  // a GET marks notifications seen), else one probe of an index (notifications_unviewed).
  const known = request.method === 'GET' && identity.loggedIn ? identity.unviewedAtStart : undefined;
  const [ads, unviewed] = await Promise.all([
    member ? pickAds(app.db, request.community, app.clock) : { masthead: null, mediumSquare: null },
    member ? (known ?? hasUnviewed(app.db, member)) : false,
  ]);
  return {
    t: app.t,
    community: request.community,
    identity,
    guardian,
    basePath: app.config.basePath,
    currentPath: request.appPath,
    signInHref: signInHrefFor(request),
    csrfToken: reply.generateCsrf(),
    nonce: (reply as unknown as { cspNonce: { script: string } }).cspNonce.script,
    now: app.clock.now(),
    ads,
    hasUnviewed: unviewed,
    adminAreas: inAdmin ? adminAreas(app) : null,
    alert: alertFor(queryOf(AlertQuery, request).alert, app.t),
    islands: new Set(),
  };
}

/**
 * The one-time alert a page shows (`?alert=<id>`, src/lib/alerts.ts): anything but text is none. Read
 * on every page, error pages included, so it never refuses.
 */
const AlertQuery = z.object({ alert: z.string().optional().catch(undefined) }).catch({ alert: undefined });

/**
 * The header's Sign In link carries the page it is on (spec section 2: after login the user goes to the
 * previous page, else to the redirect parameter): `/login?redirect=<this page>`. Only what the sign-in
 * would accept (safeRedirect: a same-site path in the app, not a sign-in page) is carried; the one-time
 * alert of the page is not.
 */
function signInHrefFor(request: FastifyRequest): string {
  const base = request.server.config.basePath;
  const login = `${base}/login`;
  if (request.method !== 'GET' && request.method !== 'HEAD') return login;
  const url = new URL(request.url, 'http://app.invalid');
  url.searchParams.delete('alert');
  const here = `${url.pathname}${url.search}`;
  const target = safeRedirect(here, base);
  return target === here && request.appPath !== '/' ? `${login}?redirect=${encodeURIComponent(target)}` : login;
}

function renderDocument(request: FastifyRequest, reply: FastifyReply, ctx: PageContextValue, options: PageOptions): string {
  const app = request.server;
  // The community's Google tags (insights): none on the staff's pages or a bare one; else the banner
  // until the visitor chooses, then the tags, with this page's CSP extended for Google's hosts.
  const analytics = analyticsState(request, Boolean(ctx.adminAreas) || Boolean(options.bare));
  ctx.analytics = analytics;
  const body = renderToStaticMarkup(
    <PageContext.Provider value={ctx}>
      {options.bare ? <main id="main">{options.body}</main> : ctx.adminAreas ? <AdminShell>{options.body}</AdminShell> : <Shell rail={options.rail}>{options.body}</Shell>}
    </PageContext.Provider>,
  );
  const { entries, preloads } = app.assets.islandScripts(ctx.islands);
  const styleNonce = (reply as unknown as { cspNonce: { style: string } }).cspNonce.style;
  const c = ctx.community;
  const title = app.t('shell.titleTemplate', { page: options.title, appName: c.app_name });
  const head = renderToStaticMarkup(
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      {/* Light and dark, as the reader's system prefers (the stylesheet's tokens follow it). */}
      <meta name="color-scheme" content="light dark" />
      <title>{title}</title>
      <link rel="stylesheet" href={app.assets.stylesheetHref()} />
      {/* The community's colours and the roles derived from them, for each scheme (src/lib/color.ts). */}
      <style nonce={styleNonce} dangerouslySetInnerHTML={{ __html: brandStyle(c.color_primary, c.color_accent) }} />
      <meta name="csrf-token" content={ctx.csrfToken} />
      <link rel="icon" href={assetUrl(app.config.basePath, c.icon ?? 'img/favicon.svg')} />
      {/* The community's enabled syndication feeds, from its cached row (no query): not in the staff's pages. */}
      {ctx.adminAreas
        ? null
        : feedLinksOf(c, app.config.basePath).map((link) => <link key={link.href} rel="alternate" type={link.type} title={link.title} href={link.href} />)}
      {options.htmx ? <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}' /> : null}
      {preloads.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
    </>,
  );
  const google = analytics.load;
  if (google) extendCsp(reply, GOOGLE_SOURCES);
  const scripts = [
    ...entries.map((src) => `<script type="module" nonce="${escapeAttr(ctx.nonce)}" src="${escapeAttr(src)}"></script>`),
    options.htmx ? `<script defer nonce="${escapeAttr(ctx.nonce)}" src="${escapeAttr(app.assets.htmxUrl())}"></script>` : '',
  ].join('');
  const bodyAttrs = options.htmx ? ` hx-headers="${escapeAttr(JSON.stringify({ 'x-csrf-token': ctx.csrfToken }))}"` : '';
  const tags = google ? googleTagsHtml(google, ctx.nonce) : '';
  return `<!doctype html><html lang="en"><head>${head}${tags}</head><body${bodyAttrs}>${body}${scripts}</body></html>`;
}

export async function sendPage(request: FastifyRequest, reply: FastifyReply, options: PageOptions) {
  const ctx = await pageContext(request, reply);
  if (options.alert) ctx.alert = alertFor(options.alert, request.server.t);
  const html = renderDocument(request, reply, ctx, options);
  // The ads the page shows, counted in memory (flushed every few seconds, not a write per view):
  // the masthead on every member page, the square where the page keeps its rail.
  if (!options.bare && !ctx.adminAreas) countImpressions(request.server.db, request.server.clock, request.community, [ctx.ads.masthead, options.rail === false ? null : ctx.ads.mediumSquare]);
  return reply
    .code(options.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .send(html);
}

export async function sendFragment(request: FastifyRequest, reply: FastifyReply, node: ReactNode, status = 200) {
  const ctx = await pageContext(request, reply);
  const html = renderToStaticMarkup(<PageContext.Provider value={ctx}>{node}</PageContext.Provider>);
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(html);
}

/** Errors answered with a small body and no page render (see the error handler). */
const CHEAP_CODES = new Set<ErrorCode>(['RateLimited', 'Busy.PasswordChecks', 'ServiceUnavailable.Database']);

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A small notice with a retry link: a whole document, or for htmx the fragment alone. No database, no React. */
function noticeHtml(request: FastifyRequest, message: string, fragment: boolean): string {
  const app = request.server;
  const again = request.method === 'GET' ? request.url : `${app.config.basePath}${request.appPath}`;
  // Only a path of ours: `//host/…` or `/\host` would be a link to another site.
  const retryHref = /^\/(?![/\\])/.test(again) ? again : `${app.config.basePath}/`;
  // The contact option too (spec section 8), from the community already known to the request: no query.
  const c = request.community;
  const contact = c
    ? `<p class="contact-line">${escapeText(app.t('errors.generic.contact', { email: c.concierge_email, phone: c.concierge_phone }))}</p>` +
      `<ul class="contact-actions"><li><a href="mailto:${escapeAttr(c.concierge_email)}">${escapeText(app.t('errors.generic.contactEmail'))}</a></li>` +
      `<li><a href="tel:${escapeAttr(c.concierge_phone.replace(/[^+\d]/g, ''))}">${escapeText(app.t('errors.generic.contactPhone'))}</a></li>` +
      `<li><a href="${escapeAttr(`${app.config.basePath}/contact`)}">${escapeText(app.t('shell.contact.link'))}</a></li></ul>`
    : '';
  const section =
    `<section class="notice-page" role="alert"><h1>${escapeText(app.t('errors.generic.title'))}</h1><p>${escapeText(message)}</p>` +
    `<p><a class="button" href="${escapeAttr(retryHref)}">${escapeText(app.t('errors.generic.tryAgain'))}</a></p>${contact}</section>`;
  if (fragment) return section;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<title>${escapeText(app.t('errors.generic.title'))}</title><link rel="stylesheet" href="${escapeAttr(app.assets.stylesheetHref())}"></head>` +
    `<body><main id="main">${section}</main></body></html>`
  );
}

/** Renders pages and fragments, the 404 page and the error notice, as HTML, htmx fragments or JSON. */
export default fp(
  async (app) => {
    app.decorateReply('page', function (this: FastifyReply, options: PageOptions) {
      return sendPage(this.request, this, options) as unknown as FastifyReply;
    });
    app.decorateReply('fragment', function (this: FastifyReply, node: ReactNode, status?: number) {
      return sendFragment(this.request, this, node, status) as unknown as FastifyReply;
    });
    app.decorateReply('redirectTo', function (this: FastifyReply, path: string, status = 303) {
      return this.redirect(`${app.config.basePath}${path}`, status);
    });

    async function ensureCommunity(request: FastifyRequest) {
      if (!request.community) {
        const community = await app.communities.resolve(request.hostname);
        if (community) request.community = community;
      }
      return request.community;
    }

    app.setNotFoundHandler(async (request, reply) => {
      const community = await ensureCommunity(request);
      if (!community || wantsJson(request)) {
        const error = new AppError('NotFound');
        return reply.code(404).send({ error: { code: error.publicCode, message: app.t(error.key) } });
      }
      if (isHtmx(request)) return reply.fragment(<NotFoundPage />, 404);
      return reply.page({ title: app.t('errors.notFound.title'), body: <NotFoundPage />, status: 404 });
    });

    app.setErrorHandler(async (err: unknown, request, reply) => {
      const error =
        asClientError(err) ??
        ((err as { statusCode?: number }).statusCode === 429
            ? new AppError('RateLimited')
            : isDatabaseUnavailable(err)
              ? new AppError('ServiceUnavailable.Database', { cause: err })
              : null);
      const fastifyStatus = (err as { statusCode?: number }).statusCode;
      const status = error?.status ?? (fastifyStatus && fastifyStatus >= 400 && fastifyStatus < 500 ? fastifyStatus : 500);
      if (status === 503) request.log.warn({ err }, 'database unavailable');
      else if (status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ code: error?.code ?? fastifyStatus }, 'request refused');

      // 5xx details never reach the user; 4xx say what the catalogue says.
      const fallback: ServerErrorCode =
        status >= 500 ? 'UnknownError' : status === 401 ? 'NotAuthenticated' : status === 403 ? 'Forbidden' : status === 404 ? 'NotFound' : 'BadRequest.Validation';
      const code = error ? error.publicCode : fallback;
      const message = error ? app.t(error.key, error.values) : status >= 500 ? app.t('errors.generic.text') : app.t(errorSpec(fallback).key);
      if (error && CHEAP_CODES.has(error.code)) {
        // Refusals under load (rate limits, busy password checks) and a database outage answer at once:
        // a small body, no page render and no database (the outage, or the flood, is not to be fed).
        // The rate limiter has set its own Retry-After (the seconds left in its window).
        if (!reply.hasHeader('retry-after')) reply.header('retry-after', error.code === 'RateLimited' ? '60' : '5');
        if (wantsJson(request)) return reply.code(status).send({ error: { code, message } });
        return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(noticeHtml(request, message, isHtmx(request)));
      }
      const community = await ensureCommunity(request).catch(() => undefined);
      if (!community || wantsJson(request)) {
        return reply.code(status).send({ error: { code, message, ...(error?.fields ? { fields: error.fields } : {}) } });
      }
      if (status === 404) return reply.page({ title: app.t('errors.notFound.title'), body: <NotFoundPage />, status });
      const again = request.method === 'GET' ? request.url : `${app.config.basePath}${request.appPath}`;
      // Only a path of ours: `//host/…` or `/\host` would be a link to another site.
      const retryHref = /^\/(?![/\\])/.test(again) ? again : `${app.config.basePath}/`;
      const body = <ErrorNoticePage message={message} retryHref={retryHref} reference={status >= 500 ? request.id : undefined} />;
      if (isHtmx(request)) return reply.fragment(body, status);
      return reply.page({ title: app.t('errors.generic.title'), body, status });
    });
  },
  { name: 'render', dependencies: ['identity'] },
);
