import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Translate } from '#src/core/i18n.ts';
import type { DeclineCode } from './processor/types.ts';
import type { PaymentSite } from './queries.ts';

/**
 * The card form's contract (docs/notes card-contract, decision 0027): how a checkout that leaves for
 * the provider's hosted page (JavaScript off, or the 3-D-Secure-style step) comes back to the handler
 * that started it. The state travels sealed: encrypted and authenticated (AES-256-GCM, a key derived
 * from the cookie secret with HKDF-SHA256, a random 12-byte IV), so the address of the hosted page (on
 * another host in production) shows nothing of it. It expires in an hour, and names the community,
 * the handler (purpose), the idempotency key, the return path and the handler's own data.
 */

/** What the hosted page must bring back to us: sealed (AES-256-GCM, key from the cookie secret), expiring in 1 hour. */
export type CheckoutState = {
  communityId: number;
  /** Which handler the return belongs to, e.g. 'onboarding', 'pay-now', 'amplify', 'admin-card'. */
  purpose: string;
  /** The idempotency key of the form that started it: the return charges under the same key. */
  idempotencyKey: string;
  /** Our app path (no base path) the hosted page returns to, e.g. '/pay-now/return'. */
  returnPath: string;
  /** The purpose's own small data (ids, the accepted-terms flag, …). Strings only. */
  data: Record<string, string>;
};

/** A sealed state lives an hour (app.clock). */
export const STATE_TTL_MS = 60 * 60_000;
/** Anything longer is not ours (the seal of a state with a little data is a few hundred characters). */
const MAX_SEALED = 4096;
const MAX_TOKEN = 200;

/** Random, url-safe, 22 characters. */
export function newIdempotencyKey(): string {
  return randomBytes(16).toString('base64url');
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bound to this use: the same key never seals anything else. */
const AAD = Buffer.from('checkout-state:v2');
const keys = new Map<string, Buffer>();

/** The state's own key: HKDF-SHA256 of the cookie secret, labelled (cached per secret). */
function stateKey(app: FastifyInstance): Buffer {
  const secret = app.config.cookieSecret;
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'checkout-state', 'checkout-state aes-256-gcm', 32));
    keys.set(secret, key);
  }
  return key;
}

/** `<iv>.<ciphertext and tag>`, both base64url. */
export function sealState(app: FastifyInstance, state: CheckoutState): string {
  const plain = Buffer.from(
    JSON.stringify({ c: state.communityId, p: state.purpose, k: state.idempotencyKey, r: state.returnPath, d: state.data, e: app.clock.now().getTime() + STATE_TTL_MS }),
  );
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', stateKey(app), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${body.toString('base64url')}`;
}

const isShortText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

/** The plain text of a sealed state, or null when it is not one of ours (forged, altered, malformed). */
function unseal(app: FastifyInstance, sealed: string): string | null {
  try {
    const [ivText, bodyText] = sealed.split('.') as [string, string];
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== IV_BYTES || body.length <= TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', stateKey(app), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(AAD);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** null: forged, expired, malformed. Never throws. */
export function openState(app: FastifyInstance, sealed: string): CheckoutState | null {
  if (typeof sealed !== 'string' || sealed.length > MAX_SEALED || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(sealed)) return null;
  const plain = unseal(app, sealed);
  if (plain === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(plain);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  if (typeof o.e !== 'number' || o.e <= app.clock.now().getTime()) return null;
  if (typeof o.c !== 'number' || !Number.isSafeInteger(o.c) || o.c <= 0) return null;
  if (!isShortText(o.p, 100) || !isShortText(o.k, 200) || !isShortText(o.r, 500) || !o.r.startsWith('/') || o.r.startsWith('//')) return null;
  if (!o.d || typeof o.d !== 'object' || Array.isArray(o.d)) return null;
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.d as Record<string, unknown>)) {
    if (typeof v !== 'string') return null;
    data[k] = v;
  }
  return { communityId: o.c, purpose: o.p, idempotencyKey: o.k, returnPath: o.r, data };
}

/** The origin the member's browser is on (a community may have a host of its own). */
function requestOrigin(request: FastifyRequest): string {
  const raw = `${request.protocol}://${request.host}`;
  return URL.canParse(raw) ? new URL(raw).origin : new URL(request.server.config.publicUrl).origin;
}

/** A token the card form island got for a card that still needs the 3-D-Secure-style step (posted as `cardChallenge`); anything else is none. */
const ChallengeForm = z.object({
  cardChallenge: z
    .string()
    .regex(/^tok_[A-Za-z0-9_-]{8,64}$/)
    .optional()
    .catch(undefined),
});

function pendingChallenge(request: FastifyRequest): string | null {
  const form = ChallengeForm.safeParse(request.body ?? {});
  return (form.success && form.data.cardChallenge) || null;
}

/** The hosted page's return (`?token=&state=&signature=`): short text each, the token and signature not empty. */
const HostedReturnQuery = z.object({
  token: z.string().min(1).max(MAX_TOKEN),
  state: z.string().max(MAX_SEALED),
  signature: z.string().min(1).max(200),
});

/**
 * The absolute address of the provider's hosted page for this state; the page returns to state.returnPath.
 * When the island posted a card that needs the 3-D-Secure-style step (`cardChallenge`), the address
 * is the provider's challenge page for that token instead, which returns the same way.
 */
export function hostedPageAddress(app: FastifyInstance, request: FastifyRequest, site: PaymentSite, state: CheckoutState): string {
  const origin = requestOrigin(request);
  const settings = app.cardProcessor.browserSettings(site);
  const absolute = (address: string) => new URL(/^https?:\/\//.test(address) ? address : `${origin}${address}`);
  const hosted = absolute(settings.hostedPageUrl);
  const sealed = sealState(app, state);
  hosted.searchParams.set('state', sealed);
  hosted.searchParams.set('return', `${origin}${app.config.basePath}${state.returnPath}`);
  // Cancel goes back to the page whose form was posted (its handler's path is the form's own page).
  if (request.method === 'POST' && /^\/(?![/\\])/.test(request.url)) hosted.searchParams.set('cancel', `${origin}${request.url}`);
  const challenge = app.cardProcessor.kind === 'sandbox' ? pendingChallenge(request) : null;
  if (!challenge) return hosted.toString();
  const address = absolute(`${settings.serverHost}/challenge/${encodeURIComponent(challenge)}`);
  address.searchParams.set('state', sealed);
  address.searchParams.set('return', hosted.searchParams.get('return')!);
  // A failed challenge goes back to the hosted page, to enter the card again.
  if (hosted.origin === origin) address.searchParams.set('hosted', `${hosted.pathname}${hosted.search}`);
  return address.toString();
}

/**
 * On the return GET: { token, state } when the provider's signature and our seal hold, the state is
 * this community's and was made for this very path; else null (answer 400).
 */
export function readHostedReturn(app: FastifyInstance, request: FastifyRequest): { token: string; state: CheckoutState } | null {
  const query = HostedReturnQuery.safeParse(request.query ?? {});
  if (!query.success) return null;
  const { token, state: sealed, signature } = query.data;
  const state = openState(app, sealed);
  if (!state || state.communityId !== request.community.id || state.returnPath !== request.appPath) return null;
  // The processor's signature is over the token and the state exactly as it carried them. The site is
  // the request's community (the state says the same), so its keys are the processor's to check.
  if (!app.cardProcessor.verifyReturn({ communityId: state.communityId, publicKey: '', subDomain: '' }, { token, state: sealed, signature })) return null;
  return { token, state };
}

/** The message for a refused card, member or admin wording (src/features/payments/locales/en/payments.json). */
export function cardErrorMessage(t: Translate, code: DeclineCode, mode: 'member' | 'admin'): string {
  switch (code) {
    case 'declined':
      return mode === 'admin' ? t('payments.cardForm.admin.declined') : t('payments.errors.declined');
    case 'cvv':
      return mode === 'admin' ? t('payments.cardForm.admin.cvv') : t('payments.errors.cvv');
    case 'expired':
      return mode === 'admin' ? t('payments.cardForm.admin.expired') : t('payments.errors.expired');
    case 'invalid_token':
      return mode === 'admin' ? t('payments.cardForm.admin.invalidToken') : t('payments.errors.invalidToken');
    case 'authentication':
      return mode === 'admin' ? t('payments.cardForm.admin.authentication') : t('payments.errors.authentication');
    case 'not_accepted':
      return t('payments.errors.notAccepted');
    default:
      return t('payments.errors.processing');
  }
}
