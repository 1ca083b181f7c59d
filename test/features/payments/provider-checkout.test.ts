import t from 'tap';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { fixedClock } from '#src/core/clock.ts';
import { Guardian } from '#src/core/guardian/index.ts';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import { cardErrorMessage, newIdempotencyKey, openState, sealState, STATE_TTL_MS, type CheckoutState } from '#src/features/payments/checkout.ts';
import { cardFormLogos } from '#src/features/payments/cards.ts';
import { CardForm } from '#src/features/payments/views/payments/CardForm.tsx';
import { PageContext, type PageContextValue } from '#views/layout/page-context.tsx';
import { setupDatabase, startApp } from '../../helpers/app.ts';
import { createCommunity } from '../../helpers/factories.ts';

t.test('the checkout state and the card form', async (t) => {
  const db = await setupDatabase(t);
  const clock = fixedClock('2026-11-21T12:00:00Z');
  const { app } = await startApp(t, db, { clock });
  const community = await createCommunity(db, { code: 'checkout-a' });
  const state: CheckoutState = { communityId: community.id, purpose: 'pay-now', idempotencyKey: newIdempotencyKey(), returnPath: '/pay-now/return', data: { subscriptionId: 'sub-1', terms: 'yes' } };

  await t.test('a sealed state opens to itself, within the hour', async (t) => {
    const sealed = sealState(app, state);
    t.match(sealed, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'url-safe');
    t.same(openState(app, sealed), state);
    clock.advance(STATE_TTL_MS - 1000);
    t.same(openState(app, sealed), state, 'still good just before the hour');
    clock.advance(2000);
    t.equal(openState(app, sealed), null, 'expired after the hour');
    clock.set('2026-11-21T12:00:00Z');
  });

  await t.test('a forged, altered or malformed state is null, never an exception', async (t) => {
    const sealed = sealState(app, state);
    const [iv, body] = sealed.split('.') as [string, string];
    const bytes = Buffer.from(body, 'base64url');
    for (const at of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[at]! ^= 1;
      t.equal(openState(app, `${iv}.${flipped.toString('base64url')}`), null, `one bit changed at byte ${at}`);
    }
    const otherIv = Buffer.from(iv, 'base64url');
    otherIv[0]! ^= 1;
    t.equal(openState(app, `${otherIv.toString('base64url')}.${body}`), null, 'another IV');
    t.equal(openState(app, `${iv}.${body.slice(0, -4)}`), null, 'cut short');
    const plainOld = Buffer.from(JSON.stringify({ c: community.id, p: state.purpose, k: state.idempotencyKey, r: state.returnPath, d: state.data, e: clock.now().getTime() + 1000 })).toString('base64url');
    t.equal(openState(app, `${plainOld}.${body}`), null, 'a readable (unencrypted) payload');
    for (const hostile of ['', '.', 'a.b', 'a'.repeat(10_000), `${iv}`, `${iv}.${body}.x`, '\u0000.\u0000', '%00.%00', 'e30.e30', `${iv}.AAAA`, `AAAA.${body}`]) {
      t.equal(openState(app, hostile), null, `refuses ${JSON.stringify(hostile.slice(0, 20))}`);
    }
    t.equal(openState(app, 42 as unknown as string), null, 'not a string');
  });

  await t.test('the sealed state is encrypted: nothing of it is readable in the hosted page address', async (t) => {
    const secretState: CheckoutState = { ...state, data: { uid: 'onb_visible-uid-1234567890', userId: '424242', subscriptionId: 'sub_visible-sub' } };
    const sealed = sealState(app, secretState);
    t.match(sealed, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'url-safe');
    t.equal(Buffer.from(sealed.split('.')[0]!, 'base64url').length, 12, 'a 12-byte IV');
    const decoded = sealed
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join(' ');
    for (const secret of ['onb_visible-uid-1234567890', '424242', 'sub_visible-sub', state.idempotencyKey, '/pay-now/return', 'pay-now']) {
      t.notOk(decoded.includes(secret) || sealed.includes(secret), `${secret} is not readable`);
    }
    t.not(sealState(app, secretState), sealed, 'a fresh IV each time');
    t.same(openState(app, sealed), secretState, 'and it opens to itself');
  });

  await t.test('idempotency keys are random and url-safe', async (t) => {
    const a = newIdempotencyKey();
    t.match(a, /^[A-Za-z0-9_-]{16,}$/);
    t.not(a, newIdempotencyKey());
  });

  await t.test('refused cards read as members and as staff are told', async (t) => {
    t.equal(cardErrorMessage(app.t, 'declined', 'member'), 'Your card was declined. Please use another card.');
    t.equal(cardErrorMessage(app.t, 'declined', 'admin'), 'The card was declined. Use another card.');
    t.equal(cardErrorMessage(app.t, 'processing', 'admin'), 'There was a problem processing your payment. Please try again.');
    for (const code of ['cvv', 'expired', 'invalid_token', 'authentication'] as const) {
      for (const mode of ['member', 'admin'] as const) t.notMatch(cardErrorMessage(app.t, code, mode), /^payments\./, `${code} ${mode} has a message`);
    }
  });

  await t.test('the server-rendered card form has no card input, at most three logos and the rest as "and more..."', async (t) => {
    const ctx = { t: app.t, community, identity: PUBLIC_IDENTITY, guardian: new Guardian(PUBLIC_IDENTITY, community), basePath: '', currentPath: '/pay-now', csrfToken: 'csrf-1', nonce: 'n', now: clock.now(), ads: { masthead: null, mediumSquare: null }, hasUnviewed: false, adminAreas: null, alert: null, islands: new Set<string>() } as PageContextValue;
    const processor = app.cardProcessor.browserSettings({ communityId: community.id, publicKey: 'pk_sandbox_checkout_a_test', subDomain: 'checkout-a' });
    const html = renderToStaticMarkup(
      createElement(PageContext.Provider, { value: ctx }, createElement(CardForm, { action: '/pay-now', idempotencyKey: 'key-123456789', processor, logos: cardFormLogos(['VISA', 'MASTERCARD', 'AMERICAN_EXPRESS', 'DISCOVER']), submitLabel: 'Pay', hidden: { subscriptionId: 'sub-1' }, cardError: 'Your card was declined. Please use another card.' })),
    );
    t.notMatch(html, /name="(number|cvv|cardNumber|token)"/, 'no card input and no token field');
    t.match(html, /name="_csrf" value="csrf-1"/);
    t.match(html, /name="idempotencyKey" value="key-123456789"/);
    t.match(html, /name="subscriptionId" value="sub-1"/);
    t.match(html, /role="alert">Your card was declined/);
    t.equal((html.match(/class="card-logo /g) ?? []).length, 3, 'three logos');
    t.match(html, /and more\.\.\./);
    t.match(html, /data-island="CardForm"/);
    t.match(html, /secure page/);
    t.ok(ctx.islands.has('CardForm'), 'the page ships the island');
    t.match(html, /<li class="card-logo card-logo-american-express">American Express<\/li>/);
    t.notMatch(html, /Discover/, 'the fourth is "and more..."');

    const few = renderToStaticMarkup(
      createElement(PageContext.Provider, { value: ctx }, createElement(CardForm, { action: '/pay-now', idempotencyKey: 'key-123456789', processor, logos: cardFormLogos(['JCB', 'DINERS_CLUB']), submitLabel: 'Pay' })),
    );
    t.equal((few.match(/class="card-logo /g) ?? []).length, 2, 'two logos');
    t.match(few, />JCB</);
    t.match(few, />Diners Club</);
    t.notMatch(few, /and more/, 'no "and more..." for three or fewer');
  });

  await t.test('the card form’s logos are computed by the service: at most three, names from CARD_NAMES', async (t) => {
    t.same(cardFormLogos(['VISA', 'MASTERCARD', 'AMERICAN_EXPRESS', 'DISCOVER']), {
      logos: [
        { type: 'VISA', className: 'card-logo-visa', name: 'Visa' },
        { type: 'MASTERCARD', className: 'card-logo-mastercard', name: 'Mastercard' },
        { type: 'AMERICAN_EXPRESS', className: 'card-logo-american-express', name: 'American Express' },
      ],
      more: true,
    });
    t.same(cardFormLogos(['VISA', 'JCB', 'DINERS_CLUB']).more, false, 'three: no "and more..."');
    t.same(cardFormLogos([]), { logos: [], more: false });
    const rendered = renderToStaticMarkup(
      createElement(
        PageContext.Provider,
        { value: { t: app.t, community, identity: PUBLIC_IDENTITY, guardian: new Guardian(PUBLIC_IDENTITY, community), basePath: '', currentPath: '/pay-now', csrfToken: 'csrf-1', nonce: 'n', now: clock.now(), ads: { masthead: null, mediumSquare: null }, hasUnviewed: false, adminAreas: null, alert: null, islands: new Set<string>() } as PageContextValue },
        createElement(CardForm, { action: '/pay-now', idempotencyKey: 'key-123456789', processor: app.cardProcessor.browserSettings({ communityId: community.id, publicKey: 'pk_sandbox_checkout_a_test', subDomain: 'checkout-a' }), logos: cardFormLogos(['VISA', 'MASTERCARD', 'AMERICAN_EXPRESS', 'DISCOVER']), submitLabel: 'Pay' }),
      ),
    );
    t.equal((rendered.match(/class="card-logo /g) ?? []).length, 3, 'the form shows three logos');
    t.match(rendered, /and more\.\.\./);
  });
});
