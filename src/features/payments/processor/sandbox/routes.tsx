import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { z } from 'zod';
import { ChallengePage, HostedPayPage, SandboxDocument, type HostedField, type HostedPageData } from '#src/features/payments/views/payments/SandboxPay.tsx';
import { TEST_CARDS } from './cards.ts';
import { CARD_FIELD_LABELS, isSandboxPublicKey, SandboxKeyError, type CardField, type CardInput } from './engine.ts';
import { SANDBOX_PREFIX, SandboxProcessor } from './processor.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const asset = (name: string) => {
  const body = readFileSync(path.join(here, 'browser', name));
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
};

const SUB_DOMAIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;
const TOKEN = /^tok_[A-Za-z0-9_-]{8,64}$/;
/** Our sealed state is opaque to the provider: it only keeps it to a sane size and alphabet. */
const STATE = /^[A-Za-z0-9._-]{1,4096}$/;
const CARD_FIELDS = Object.keys(CARD_FIELD_LABELS) as CardField[];

/** A text the provider takes from a form or JSON: a string, capped (the engine refuses what is too long). */
const cardText = z
  .string()
  .optional()
  .catch(undefined)
  .transform((v) => (v ?? '').slice(0, 200));
/**
 * A card as the hosted page's form or the tokens API sends it: each field's text (cut to 200; not
 * text: empty), for the engine to check field by field (422 with the invalid ones).
 */
const CardForm = z.object(Object.fromEntries(CARD_FIELDS.map((f) => [f, cardText])) as Record<CardField, typeof cardText>);
/** The tokens API's body: a card and the public key it is for (anything but text: no key, 401). */
const TokensBody = CardForm.extend({ publicKey: z.string().optional().catch(undefined) });

/** `/:subDomain/hosted`: the site's sub-domain. */
const HostedParams = z.object({ subDomain: z.string().regex(SUB_DOMAIN) });
/** The hosted page's query: the public key, our opaque state, where to return and where Cancel goes (checked by ownAddress), an error to show. */
const HostedQuery = z.object({
  key: z.string().refine(isSandboxPublicKey),
  state: z.string().regex(STATE),
  return: z.string(),
  cancel: z.string().optional(),
  error: z.string().optional().catch(undefined),
});
/** `/challenge/:token` */
const ChallengeParams = z.object({ token: z.string().regex(TOKEN) });
/** The challenge's query: all optional (a client of the tokens API may open it alone), all checked. */
const ChallengeQuery = z.object({
  state: z.string().regex(STATE).optional(),
  return: z.string().optional(),
  hosted: z
    .string()
    .max(6000)
    .refine((v) => !/[\u0000-\u001f\u007f\\\s]/.test(v))
    .optional(),
});
/** The challenge's answer. */
const ChallengeForm = z.object({ answer: z.enum(['approve', 'fail']) });
/** What a page shows again: no control characters. */
const shown = (v: string) => v.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100);

/**
 * Sandbox Pay's browser side, served under /sandbox-pay as if it were another host: its script
 * (js/card.js), its tokens API (v1/tokens), its hosted payment page ({subDomain}/hosted) and its
 * 3-D-Secure-style challenge page (challenge/{token}). Only mounted when the sandbox is the
 * configured processor.
 */
export default async function sandboxRoutes(app: FastifyInstance) {
  const processor = app.cardProcessor;
  if (!(processor instanceof SandboxProcessor)) return;
  const engine = processor.engine;
  const t = app.t;
  const base = app.config.basePath;
  const prefix = `${base}${SANDBOX_PREFIX}`;
  const script = asset('card.js');
  const stylesheet = asset('pay.css');
  // The stand-in for an outside card provider: its pages are never held back by our onboarding gate (onboarding pays here).
  const open = { access: 'public' as const, allowDuringOnboarding: true };

  function sendAsset(request: FastifyRequest, reply: FastifyReply, file: { body: Buffer; etag: string }, type: string) {
    reply.header('cache-control', 'public, max-age=3600').header('etag', file.etag).header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type(type).send(file.body);
  }

  app.get(`${SANDBOX_PREFIX}/js/card.js`, { config: { ...open, bare: true } }, (request, reply) => sendAsset(request, reply, script, 'text/javascript; charset=utf-8'));
  app.get(`${SANDBOX_PREFIX}/css/pay.css`, { config: { ...open, bare: true } }, (request, reply) => sendAsset(request, reply, stylesheet, 'text/css; charset=utf-8'));

  function sendPage(reply: FastifyReply, status: number, title: string, body: ReactNode) {
    const html = renderToStaticMarkup(
      <SandboxDocument t={t} title={title} stylesheet={`${prefix}/css/pay.css`}>
        {body}
      </SandboxDocument>,
    );
    return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(`<!doctype html>${html}`);
  }

  const badRequest = (reply: FastifyReply) =>
    sendPage(
      reply,
      400,
      t('payments.sandbox.hosted.title'),
      <p className="sp-alert" role="alert">
        {t('payments.sandbox.errors.badRequest')}
      </p>,
    );

  /**
   * A return (or cancel) address the provider will send the browser to: only our own app, never an
   * open redirect. A path under the base path, or an absolute address on the request's own origin or
   * the configured public address, under the base path; no credentials, no control characters.
   */
  function ownAddress(request: FastifyRequest, raw: unknown): URL | null {
    if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000 || /[\u0000-\u001f\u007f\\\s]/.test(raw)) return null;
    const origin = `${request.protocol}://${request.host}`;
    if (!URL.canParse(origin)) return null;
    let url: URL;
    if (raw.startsWith('/')) {
      if (raw.startsWith('//')) return null;
      url = new URL(raw, origin);
    } else if (/^https?:\/\//i.test(raw) && URL.canParse(raw)) {
      url = new URL(raw);
    } else return null;
    const allowed = new Set([new URL(origin).origin, URL.canParse(app.config.publicUrl) ? new URL(app.config.publicUrl).origin : '']);
    if (!allowed.has(url.origin) || url.username || url.password) return null;
    if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return null;
    return url;
  }

  /** The hosted page's query, checked: the public key, our opaque state, where to return and where Cancel goes. */
  function hostedQuery(request: FastifyRequest) {
    const params = HostedParams.safeParse(request.params ?? {});
    const query = HostedQuery.safeParse(request.query ?? {});
    if (!params.success || !query.success) return null;
    const { subDomain } = params.data;
    const q = query.data;
    const { key, state } = q;
    const returnTo = ownAddress(request, q.return);
    if (!returnTo) return null;
    const cancel = q.cancel === undefined ? null : ownAddress(request, q.cancel);
    if (q.cancel !== undefined && !cancel) return null;
    const own = new URLSearchParams({ key, state, return: String(q.return) });
    if (cancel) own.set('cancel', String(q.cancel));
    return {
      subDomain,
      key,
      state,
      returnTo,
      cancelHref: cancel ? cancel.toString() : `${base}/`,
      self: `${prefix}/${encodeURIComponent(subDomain)}/hosted?${own.toString()}`,
      error: q.error === 'authentication' ? t('payments.sandbox.errors.authentication') : null,
    };
  }

  const testCards = Object.entries(TEST_CARDS).map(([number, behaviour]) => ({ number, behaviour }));

  function hostedData(reply: FastifyReply, self: string, cancelHref: string, values: HostedPageData['values'], errors: HostedPageData['errors'], summary: string | null): HostedPageData {
    return { action: self, csrfToken: reply.generateCsrf(), values, errors, summary, cancelHref, testCards };
  }

  /** Back to our app, with the token, our state as it came, and the provider's signature over both. */
  function returnWithToken(reply: FastifyReply, returnTo: URL, token: string, state: string) {
    const to = new URL(returnTo);
    to.searchParams.set('token', token);
    to.searchParams.set('state', state);
    to.searchParams.set('signature', engine.sign(token, state));
    return reply.redirect(to.toString(), 303);
  }

  app.get(`${SANDBOX_PREFIX}/:subDomain/hosted`, { config: open }, async (request, reply) => {
    const q = hostedQuery(request);
    if (!q) return badRequest(reply);
    const empty = { firstName: '', lastName: '', month: '', year: '', zip: '' };
    return sendPage(reply, 200, t('payments.sandbox.hosted.title'), <HostedPayPage t={t} data={hostedData(reply, q.self, q.cancelHref, empty, {}, q.error)} />);
  });

  app.post(`${SANDBOX_PREFIX}/:subDomain/hosted`, { config: { ...open, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const q = hostedQuery(request);
    if (!q) return badRequest(reply);
    const form = CardForm.safeParse(request.body ?? {});
    const card: CardInput = form.success ? form.data : CardForm.parse({});
    const values = { firstName: shown(card.firstName), lastName: shown(card.lastName), month: shown(card.month), year: shown(card.year), zip: shown(card.zip) };
    let result;
    try {
      result = await engine.tokenize(q.key, card);
    } catch (e) {
      if (e instanceof SandboxKeyError) return badRequest(reply);
      throw e;
    }
    if (!result.ok) {
      const year = String(app.clock.now().getUTCFullYear() + 2);
      const errors = Object.fromEntries(result.invalid.map((f) => [f, t(`payments.sandbox.fields.${f}`, { year })])) as Partial<Record<HostedField, string>>;
      const summary = t('payments.errors.invalidFields', { fields: result.invalid.map((f) => t(`payments.fields.${f}`)).join(', ') });
      return sendPage(reply, 422, t('payments.sandbox.hosted.title'), <HostedPayPage t={t} data={hostedData(reply, q.self, q.cancelHref, values, errors, summary)} />);
    }
    if (result.challenge) {
      const challenge = new URLSearchParams({ state: q.state, return: q.returnTo.toString(), hosted: q.self });
      return reply.redirect(`${prefix}/challenge/${encodeURIComponent(result.token)}?${challenge.toString()}`, 303);
    }
    return returnWithToken(reply, q.returnTo, result.token, q.state);
  });

  /** The challenge's query: all optional (a client of the tokens API may open it alone), all checked. */
  function challengeQuery(request: FastifyRequest) {
    const params = ChallengeParams.safeParse(request.params ?? {});
    const asked = ChallengeQuery.safeParse(request.query ?? {});
    if (!params.success || !asked.success) return null;
    const { token } = params.data;
    const q = asked.data;
    const state = q.state ?? null;
    const returnTo = q.return === undefined ? null : (ownAddress(request, q.return) ?? false);
    const hosted = q.hosted === undefined ? null : q.hosted.startsWith(`${prefix}/`) ? q.hosted : false;
    if (returnTo === false || hosted === false || (state === null) !== (returnTo === null)) return null;
    const own = new URLSearchParams();
    if (state && returnTo) {
      own.set('state', state);
      own.set('return', String(q.return));
    }
    if (hosted) own.set('hosted', hosted);
    const query = own.toString();
    return { token, state, returnTo, hosted, self: `${prefix}/challenge/${encodeURIComponent(token)}${query ? `?${query}` : ''}` };
  }

  app.get(`${SANDBOX_PREFIX}/challenge/:token`, { config: open }, async (request, reply) => {
    const q = challengeQuery(request);
    if (!q) return badRequest(reply);
    const status = await engine.tokenStatus(q.token);
    const isOpen = status === 'challenge';
    return sendPage(
      reply,
      isOpen ? 200 : 409,
      t('payments.sandbox.challenge.title'),
      <ChallengePage t={t} data={{ action: q.self, csrfToken: reply.generateCsrf(), open: isOpen, message: isOpen ? null : t('payments.sandbox.challenge.done'), backHref: isOpen ? null : q.hosted }} />,
    );
  });

  app.post(`${SANDBOX_PREFIX}/challenge/:token`, { config: { ...open, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const q = challengeQuery(request);
    if (!q) return badRequest(reply);
    const form = ChallengeForm.safeParse(request.body ?? {});
    if (!form.success) return badRequest(reply);
    const { answer } = form.data;
    const closed = () =>
      sendPage(reply, 409, t('payments.sandbox.challenge.title'), <ChallengePage t={t} data={{ action: q.self, csrfToken: '', open: false, message: t('payments.sandbox.challenge.done'), backHref: q.hosted }} />);
    if (!(await engine.completeChallenge(q.token, answer === 'approve'))) return closed();
    if (answer === 'approve') {
      if (q.state && q.returnTo) return returnWithToken(reply, q.returnTo, q.token, q.state);
      return sendPage(reply, 200, t('payments.sandbox.challenge.title'), <ChallengePage t={t} data={{ action: q.self, csrfToken: '', open: false, message: t('payments.sandbox.challenge.approved'), backHref: null }} />);
    }
    if (q.hosted) {
      const back = new URL(q.hosted, 'http://sandbox.invalid');
      back.searchParams.set('error', 'authentication');
      return reply.redirect(`${back.pathname}${back.search}`, 303);
    }
    return sendPage(reply, 200, t('payments.sandbox.challenge.title'), <ChallengePage t={t} data={{ action: q.self, csrfToken: '', open: false, message: t('payments.sandbox.errors.authentication'), backHref: null }} />);
  });

  // The provider's tokens API: what its script calls. Public JSON (no cookies of ours: the script
  // omits them), rate limited per address. 401 unknown key, 422 the invalid fields, 200 the token.
  app.post(`${SANDBOX_PREFIX}/v1/tokens`, { config: { ...open, csrf: false, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const body = TokensBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: { code: 'BadRequest', message: t('payments.sandbox.errors.badRequest') } });
    const { publicKey, ...card } = body.data;
    try {
      const result = await engine.tokenize(publicKey ?? '', card);
      if (!result.ok) return reply.code(422).send({ invalid: result.invalid });
      return reply.code(200).send(result.challenge ? { token: result.token, challengeUrl: `${prefix}/challenge/${encodeURIComponent(result.token)}` } : { token: result.token });
    } catch (e) {
      if (e instanceof SandboxKeyError) return reply.code(401).send({ error: { code: 'UnknownKey', message: t('payments.sandbox.errors.unknownKey') } });
      throw e;
    }
  });
}
