import t from 'tap';
import { formatExpiry, maskCard } from '#src/features/payments/cards.ts';
import { addCard, adminScope, authLog, changeDefault, deleteCard, listCards, memberScope, needsUpdate, responseOutcome, reversalOutcome } from '#src/features/payments/saved-cards/service.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';
import { FormBrowser } from '#test/helpers/form-browser.ts';
import { CARDS, cardToken, enablePayments } from '#test/helpers/payments.ts';

t.test('saved cards', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock(); // 2026-11-21
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  await enablePayments(db, alpha);
  await enablePayments(db, beta);

  const boss = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Bea', lastName: 'Boss' });
  const betaBoss = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ben', lastName: 'Betaboss' });
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const alan = await createMember(db, alpha, { firstName: 'Alan', lastName: 'Turing' });
  const grace = await createMember(db, beta, { firstName: 'Grace', lastName: 'Hopper' });
  const staff = { userId: boss.id };
  const alphaStaff = { id: alpha.id, code: alpha.code, name: alpha.name };
  const adaAdmin = await adminScope(app, staff, alphaStaff, ada.id);

  const cardsOf = async (userId: number) =>
    db.selectFrom('saved_payments').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null).orderBy('id').execute();

  await t.test('masks and expiry (spec section 9)', async (t) => {
    t.equal(maskCard('AMERICAN_EXPRESS', '0005'), '***********0005');
    t.equal(maskCard('AMERICAN_EXPRESS', '0005').length, 15);
    t.equal(maskCard('VISA', '4242'), '************4242');
    t.equal(maskCard('DINERS_CLUB', '5904').length, 16);
    t.equal(formatExpiry(4, 2027), '04/27');
    t.equal(formatExpiry(12, 2030), '12/30');
  });

  await t.test('adding a card makes it the default and the others lose default', async (t) => {
    const first = await addCard(app, adaAdmin, { token: await cardToken(app, alpha, CARDS.visa) });
    t.equal(first.isDefault, true);
    const second = await addCard(app, adaAdmin, { token: await cardToken(app, alpha, CARDS.mastercard) });
    t.equal(second.isDefault, true);
    const rows = await cardsOf(ada.id);
    t.same(rows.map((r) => [r.id, r.is_default]), [[first.id, false], [second.id, true]], 'only the newest is default');
    const listed = await listCards(app, adaAdmin);
    t.equal(listed[0]!.id, second.id, 'the default first');
    t.notOk('processorRef' in listed[0]!, 'the processor reference is never handed out');
    const actions = await db.selectFrom('staff_actions').select(['action', 'detail', 'actor_id']).where('member_id', '=', ada.id).execute();
    t.same(actions.map((a) => a.action), ['card_added', 'card_added'], 'staff actions recorded');
    t.equal(actions[0]!.actor_id, boss.id);
    const log = await authLog(app, adaAdmin, first.id);
    t.equal(log.length, 1, 'the verification is in the card’s auth log');
    t.equal(log[0]!.authResponseCode, 0);
    t.equal(log[0]!.reversalHttpCode, 200);
  });

  await t.test('a refused card is the admin’s verification message, no help line; the member’s has it', async (t) => {
    const before = (await cardsOf(ada.id)).length;
    await t.rejects(addCard(app, adaAdmin, { token: await cardToken(app, alpha, CARDS.decline) }), { code: 'SavedCards.VerificationFailed', status: 400 });
    try {
      await addCard(app, adaAdmin, { token: await cardToken(app, alpha, CARDS.cvv) });
    } catch (e) {
      const err = e as { key: string; values: Record<string, unknown> };
      t.equal(app.t(err.key, err.values), 'The card could not be verified. Check the details or use another card.');
    }
    try {
      await addCard(app, memberScope(alpha, ada.id), { token: await cardToken(app, alpha, CARDS.decline) });
    } catch (e) {
      const err = e as { key: string; values: Record<string, unknown> };
      t.equal(app.t(err.key, err.values), 'We couldn’t verify your card. Please check the details or use another card. Need help? Email concierge@alpha.example.com.');
    }
    await t.rejects(addCard(app, adaAdmin, { token: 'tok_not-a-real-token' }), { code: 'SavedCards.AddFailed' });
    await t.rejects(addCard(app, adaAdmin, { token: '' }), { code: 900 });
    await t.rejects(addCard(app, adaAdmin, { token: 'a\u0000b' }), { code: 'SavedCards.AddFailed' });
    t.equal((await cardsOf(ada.id)).length, before, 'nothing saved');
  });

  await t.test('changing the default makes only the chosen card default, with a ledger row', async (t) => {
    const [older, newer] = await cardsOf(ada.id);
    t.equal(await changeDefault(app, adaAdmin, older!.id), older!.id);
    const rows = await cardsOf(ada.id);
    t.same(rows.filter((r) => r.is_default).map((r) => r.id), [older!.id], 'one default');
    const ledger = await db.selectFrom('payment_ledger').selectAll().where('kind', '=', 'card_default').where('user_id', '=', ada.id).execute();
    t.equal(ledger.length, 1);
    t.equal(ledger[0]!.saved_payment_id, older!.id);
    t.equal(ledger[0]!.actor_id, boss.id);
    t.equal(await changeDefault(app, adaAdmin, older!.id), older!.id, 'the default again: nothing changes');
    // Racing changes end with exactly one default.
    await Promise.all([changeDefault(app, adaAdmin, newer!.id).catch(() => null), changeDefault(app, adaAdmin, older!.id).catch(() => null)]);
    t.equal((await cardsOf(ada.id)).filter((r) => r.is_default).length, 1, 'still one default');
    await changeDefault(app, adaAdmin, newer!.id);
  });

  await t.test('the default card cannot be removed; another can, softly, with a ledger row', async (t) => {
    const [older, newer] = await cardsOf(ada.id);
    t.equal(newer!.is_default, true);
    await t.rejects(deleteCard(app, adaAdmin, newer!.id), { code: 'Payments.DefaultCardRemoval', status: 409 });
    t.equal(await deleteCard(app, adaAdmin, older!.id), older!.id);
    const gone = await db.selectFrom('saved_payments').select('deleted_at').where('id', '=', older!.id).executeTakeFirstOrThrow();
    t.ok(gone.deleted_at, 'soft deleted');
    t.same((await listCards(app, adaAdmin)).map((c) => c.id), [newer!.id]);
    const ledger = await db.selectFrom('payment_ledger').select(['kind', 'status']).where('saved_payment_id', '=', older!.id).where('kind', '=', 'card_removed').execute();
    t.equal(ledger.length, 1);
    const profile = await db.selectFrom('sandbox_profiles').selectAll().where('id', '=', older!.processor_ref).executeTakeFirst();
    t.ok(!profile || (profile as Record<string, unknown>).deleted_at, 'the processor forgot the profile');
    await t.rejects(deleteCard(app, adaAdmin, older!.id), { code: 'NotFound' }, 'removed already');
    await t.rejects(changeDefault(app, adaAdmin, older!.id), { code: 'NotFound' }, 'a removed card cannot be made default');
  });

  await t.test('a default change racing a removal: the card is never the default with its profile gone', async (t) => {
    const rae = await createMember(db, alpha, { firstName: 'Rae', lastName: 'Racer' });
    const processor = app.cardProcessor;
    const original = processor.deletePaymentProfile;
    t.teardown(() => {
      processor.deletePaymentProfile = original;
    });
    const keep = await addCard(app, memberScope(alpha, rae.id), { token: await cardToken(app, alpha, CARDS.visa) });
    const racing = await addCard(app, memberScope(alpha, rae.id), { token: await cardToken(app, alpha, CARDS.mastercard) });
    await changeDefault(app, memberScope(alpha, rae.id), keep.id);
    // While the processor forgets the profile, the member (another tab) makes that card the default.
    let raced: unknown = null;
    processor.deletePaymentProfile = async (input) => {
      raced = await changeDefault(app, memberScope(alpha, rae.id), racing.id).catch((e: unknown) => e);
      return original.call(processor, input);
    };
    t.equal(await deleteCard(app, memberScope(alpha, rae.id), racing.id), racing.id);
    t.match(raced, { code: 'NotFound' }, 'the card was already marked removed: it cannot become the default');
    const rows = await cardsOf(rae.id);
    t.same(rows.map((r) => [r.id, r.is_default]), [[keep.id, true]], 'the other card stays the default');
    const gone = await db.selectFrom('saved_payments').select(['deleted_at', 'is_default']).where('id', '=', racing.id).executeTakeFirstOrThrow();
    t.ok(gone.deleted_at, 'removed');
    t.equal(gone.is_default, false, 'never default');

    // The processor fails: the card comes back, not the default, and nothing is in the ledger.
    const third = await addCard(app, memberScope(alpha, rae.id), { token: await cardToken(app, alpha, CARDS.visa) });
    await changeDefault(app, memberScope(alpha, rae.id), keep.id);
    processor.deletePaymentProfile = async () => {
      throw new Error('processor down');
    };
    await t.rejects(deleteCard(app, memberScope(alpha, rae.id), third.id), { code: 'SavedCards.DeleteFailed' });
    const back = (await cardsOf(rae.id)).find((r) => r.id === third.id);
    t.ok(back, 'the card is listed again');
    t.equal(back!.is_default, false);
    const ledger = await db.selectFrom('payment_ledger').select('id').where('saved_payment_id', '=', third.id).where('kind', '=', 'card_removed').execute();
    t.equal(ledger.length, 0, 'no removal in the ledger');
    processor.deletePaymentProfile = original;
    t.equal(await deleteCard(app, memberScope(alpha, rae.id), third.id), third.id, 'trying again works');
  });

  await t.test('statuses follow the expiry at read; the update prompt follows the default', async (t) => {
    const insert = (userId: number, last4: string, month: number, year: number, status: 'VALID' | 'FAILED' = 'VALID', isDefault = false) =>
      db
        .insertInto('saved_payments')
        .values({ community_id: alpha.id, user_id: userId, processor_ref: `prof-test-${last4}-${userId}`, first_name: 'Alan', last_name: 'Turing', expiration_month: month, expiration_year: year, last4, card_type: 'VISA', status, is_default: isDefault })
        .returning('id')
        .executeTakeFirstOrThrow();
    const expired = await insert(alan.id, '1111', 10, 2026, 'VALID', true); // stored VALID, expired by now
    const pending = await insert(alan.id, '2222', 12, 2026);
    const failed = await insert(alan.id, '3333', 5, 2029, 'FAILED');
    const fine = await insert(alan.id, '4444', 5, 2029);
    const scope = await adminScope(app, staff, alphaStaff, alan.id);
    const cards = await listCards(app, scope);
    const status = (id: number) => cards.find((c) => c.id === id)!.status;
    t.equal(status(expired.id), 'EXPIRED');
    t.equal(status(pending.id), 'EXPIRATION_PENDING');
    t.equal(status(failed.id), 'FAILED');
    t.equal(status(fine.id), 'VALID');
    t.equal(needsUpdate(cards), true, 'the default is expired: the prompt');
    await changeDefault(app, scope, fine.id);
    t.equal(needsUpdate(await listCards(app, scope)), false, 'a valid default: no prompt');
    await changeDefault(app, scope, failed.id);
    t.equal(needsUpdate(await listCards(app, scope)), true, 'a failed default: the prompt');

    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    const page = await b.get(`/admin/members/alpha/${alan.id}/cards`);
    t.equal(page.statusCode, 200);
    for (const text of [
      'Expired</span> This card has expired. Add a new card to keep your membership active.',
      'Failed</span> The last payment with this card failed. Add a new card or update this one.',
      'Expires soon</span> This card expires soon. Add a new card before it does.',
      'The default card needs attention: add a new card to keep payments going.',
      '************1111',
      '10/26',
      '12/26',
    ]) {
      t.match(page.body, text);
    }
    t.notMatch(page.body, /data-update-prompt="" hidden=""/, 'the prompt is shown');
    await changeDefault(app, scope, fine.id);
    t.match((await b.get(`/admin/members/alpha/${alan.id}/cards`)).body, /data-update-prompt="" hidden=""/, 'and hidden with a valid default');
    t.match((await b.get(`/admin/members/alpha/${alan.id}`)).body, `href="/admin/members/alpha/${alan.id}/cards"`, 'the member page links here');
  });

  await t.test('auth log rules: newest first, codes as the spec reads them, admin mode only', async (t) => {
    t.equal(responseOutcome(null), 'none');
    t.equal(responseOutcome(0), 'success');
    t.equal(responseOutcome(5), 'failure');
    t.equal(reversalOutcome(null), 'notApplicable');
    t.equal(reversalOutcome(200), 'success');
    t.equal(reversalOutcome(500), 'failure');
    const [card] = await cardsOf(ada.id);
    await db.deleteFrom('card_auth_log').where('saved_payment_id', '=', card!.id).execute();
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));
    await db
      .insertInto('card_auth_log')
      .values([
        { community_id: alpha.id, saved_payment_id: card!.id, attempt_amount_cents: 100, attempted_at: at(1), auth_response_code: 0, reversal_http_code: 200 },
        { community_id: alpha.id, saved_payment_id: card!.id, attempt_amount_cents: 600000, attempted_at: at(3), auth_response_code: 5, reversal_http_code: null },
        { community_id: alpha.id, saved_payment_id: card!.id, attempt_amount_cents: 100, attempted_at: at(2), auth_response_code: null, reversal_http_code: 502 },
      ])
      .execute();
    const log = await authLog(app, adaAdmin, card!.id);
    t.same(log.map((e) => e.attemptAmountCents), [600000, 100, 100], 'newest first');
    await t.rejects(authLog(app, memberScope(alpha, ada.id), card!.id), { code: 'Forbidden' }, 'member mode has no auth log');

    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    const base = `/admin/members/alpha/${ada.id}/cards`;
    const closed = await b.get(base);
    t.match(closed.body, `href="${base}?log=${card!.id}#log-${card!.id}"`, 'without JavaScript the log opens by a link');
    t.match(closed.body, /<template data-log-skeleton="">/, 'the skeleton template');
    t.equal((closed.body.match(/skeleton-bar/g) ?? []).length, 40, '10 rows of 4 cells');
    const open = await b.get(`${base}?log=${card!.id}`);
    t.match(open.body, new RegExp(`<details id="log-${card!.id}"[^>]* open=""`));
    for (const text of ['$6,000.00', 'Refused (code 5)', 'Approved (code 0)', 'Reversed', 'Reversal failed (HTTP 502)', 'Not applicable', 'Nov 3, 2026, 12:00 UTC']) t.match(open.body, text);
    const fragment = await b.get(`${base}/${card!.id}/log?fragment=1`);
    t.equal(fragment.statusCode, 200);
    t.notMatch(fragment.body, '<html', 'a fragment');
    t.match(fragment.body, 'Refused (code 5)');
    const nav = await b.get(`${base}/${card!.id}/log`);
    t.equal(nav.statusCode, 303);
    t.equal(nav.headers.location, `${base}?log=${card!.id}#log-${card!.id}`);
  });

  await t.test('JavaScript off: the forms redirect with an alert, or show the admin’s message', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    const base = `/admin/members/alpha/${alan.id}/cards`;
    const rows = await cardsOf(alan.id);
    const def = rows.find((r) => r.is_default)!;
    const other = rows.find((r) => !r.is_default)!;
    const page = await b.get(base);
    t.notMatch(page.body, `<form data-card-action="remove" action="${base}/${def.id}/remove"`, 'the default’s remove form is hidden');
    t.match(page.body, `<form data-card-action="remove" hidden="" action="${base}/${def.id}/remove"`);
    const refused = await b.post(`${base}/${def.id}/remove`, {}, base);
    t.equal(refused.statusCode, 409);
    t.match(refused.body, 'The default card can’t be removed. Make another card the default first.');
    const made = await b.post(`${base}/${other.id}/default`, {}, base);
    t.equal(made.statusCode, 303);
    t.equal(made.headers.location, `${base}?alert=saved-card-default`);
    t.match((await b.get(made.headers.location as string)).body, 'The default card was changed.');
    const removed = await b.post(`${base}/${def.id}/remove`, {}, base);
    t.equal(removed.statusCode, 303);
    t.equal(removed.headers.location, `${base}?alert=saved-card-removed`);
    const added = await b.post(base, { token: await cardToken(app, alpha, CARDS.amex), idempotencyKey: 'admin-add-0001' }, base);
    t.equal(added.statusCode, 303);
    t.equal(added.headers.location, `${base}?alert=saved-card-added`);
    const after = await b.get(`${base}?alert=saved-card-added`);
    t.match(after.body, '***********0005', 'the American Express mask is 15 long');
    const declined = await b.post(base, { token: await cardToken(app, alpha, CARDS.decline), idempotencyKey: 'admin-add-0002' }, base);
    t.equal(declined.statusCode, 400);
    t.match(declined.body, /<p class="card-error" role="alert">The card could not be verified. Check the details or use another card.<\/p>/, 'the refused card inside the card form');
    t.notMatch(declined.body, 'Need help?', 'admin mode hides the help line');
    const history = await b.get(`/admin/members/alpha/${alan.id}`);
    t.match(history.body, 'Default card changed');
    t.match(history.body, 'Card removed');
  });

  await t.test('JavaScript off, adding a card goes by the provider’s hosted page and comes back', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    const base = `/admin/members/alpha/${ada.id}/cards`;
    const page = await b.get(base);
    t.match(page.body, 'data-card-form=""', 'the card form');
    t.match(page.body, `action="${base}"`);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.body)![1]!;
    const start = await b.post(base, { idempotencyKey: key }, base);
    t.equal(start.statusCode, 303, 'no token: to the hosted page');
    const hosted = new URL(start.headers.location as string);
    t.match(hosted.pathname, '/sandbox-pay/alpha/hosted');
    const form = await b.get(`${hosted.pathname}${hosted.search}`);
    t.equal(form.statusCode, 200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    const year = String(clock.now().getUTCFullYear() + 3);
    const submitted = await app.inject({
      method: 'POST',
      url: `${hosted.pathname}${hosted.search}`,
      headers: { cookie: b.jar, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ _csrf: csrf, firstName: 'Ada', lastName: 'Lovelace', number: CARDS.mastercard, cvv: '123', month: '07', year, zip: '10001' }).toString(),
    });
    t.equal(submitted.statusCode, 303, 'the hosted page returns');
    const back = new URL(submitted.headers.location as string);
    t.equal(back.pathname, '/admin/cards/return');
    const done = await b.get(`${back.pathname}${back.search}`);
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, `${base}?alert=saved-card-added`);
    const cards = await listCards(app, adaAdmin);
    t.equal(cards[0]!.last4Digits, '4444', 'the new card');
    t.equal(cards[0]!.isDefault, true, 'is the default');
    const count = cards.length;
    const again = await b.get(`${back.pathname}${back.search}`);
    t.ok(again.statusCode < 500, `a replayed return: ${again.statusCode}`);
    t.equal((await listCards(app, adaAdmin)).length, count, 'saves nothing twice');
    const forged = await b.get(`${back.pathname}?token=tok_forged12345&state=${back.searchParams.get('state')}&signature=AAAA`);
    t.equal(forged.statusCode, 400, 'a forged return is refused');
  });

  await t.test('JSON answers for the island: the id, or the code and the admin message', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    const base = `/admin/members/alpha/${alan.id}/cards`;
    const page = await b.get(base);
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const rows = await cardsOf(alan.id);
    const def = rows.find((r) => r.is_default)!;
    const other = rows.find((r) => !r.is_default)!;
    const post = (url: string) =>
      app.inject({ method: 'POST', url, headers: { cookie: b.jar, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(csrf)}` });
    const ok = await post(`${base}/${other.id}/default`);
    t.equal(ok.statusCode, 200);
    t.same(ok.json(), { id: String(other.id) });
    const no = await post(`${base}/${other.id}/remove`);
    t.equal(no.statusCode, 409);
    t.equal(no.json().error.code, 'Payments.DefaultCardRemoval');
    t.match(no.json().error.message, 'The default card can’t be removed');
    await changeDefault(app, await adminScope(app, staff, alphaStaff, alan.id), def.id);
  });

  await t.test('tenancy: staff of one community cannot see or change a card of another', async (t) => {
    const graceCard = await addCard(app, memberScope(beta, grace.id), { token: await cardToken(app, beta, CARDS.visa) });
    await addCard(app, memberScope(beta, grace.id), { token: await cardToken(app, beta, CARDS.mastercard) });
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    t.equal((await b.get(`/admin/members/beta/${grace.id}/cards`)).statusCode, 404, 'a community they do not administer');
    t.equal((await b.get(`/admin/members/alpha/${grace.id}/cards`)).statusCode, 404, 'a member of another community under theirs');
    t.equal((await b.post(`/admin/members/alpha/${grace.id}/cards/${graceCard.id}/remove`, {}, '/admin/members')).statusCode, 404);
    t.equal((await b.post(`/admin/members/beta/${grace.id}/cards/${graceCard.id}/default`, {}, '/admin/members')).statusCode, 404);
    // A card of another member of their own community, under this member: not found.
    const adaCard = (await cardsOf(ada.id))[0]!;
    t.equal((await b.post(`/admin/members/alpha/${alan.id}/cards/${adaCard.id}/default`, {}, '/admin/members')).statusCode, 404);
    t.equal((await b.get(`/admin/members/alpha/${alan.id}/cards/${adaCard.id}/log?fragment=1`)).statusCode, 404);
    await t.rejects(adminScope(app, staff, alphaStaff, grace.id), { code: 'NotFound' });
    const graceCards = await cardsOf(grace.id);
    t.equal(graceCards.length, 2);
    t.equal(graceCards.find((c) => c.id === graceCard.id)!.is_default, false, 'unchanged');
    const member = new FormBrowser(app, '203.0.113.40');
    member.cookies.set('auth', (await signIn(app, alan, alpha)).token);
    t.not((await member.get(`/admin/members/alpha/${alan.id}/cards`)).statusCode, 200, 'a member cannot open the admin page');
    void betaBoss;
  });

  await t.test('hostile ids are 4xx', async (t) => {
    const b = new FormBrowser(app);
    b.cookies.set('auth', (await signIn(app, boss, alpha, ['ADMIN', 'MEMBER'])).token);
    for (const url of [
      '/admin/members/alpha/abc/cards',
      '/admin/members/alpha/0/cards',
      '/admin/members/alpha/99999999999/cards',
      `/admin/members/al%00pha/${ada.id}/cards`,
      `/admin/members/alpha/${ada.id}/cards/1e3/log?fragment=1`,
      `/admin/members/alpha/${ada.id}/cards/99999999999/log?fragment=1`,
      `/admin/members/alpha/${ada.id}/cards?log=%00`,
    ]) {
      const res = await b.get(url);
      t.ok(res.statusCode < 500, `${url}: ${res.statusCode}`);
    }
    for (const url of [`/admin/members/alpha/${ada.id}/cards/-1/remove`, `/admin/members/alpha/${ada.id}/cards/%00/default`]) {
      const res = await b.post(url, {}, '/admin/members');
      t.equal(res.statusCode, 404, url);
    }
    const res = await b.post(`/admin/members/alpha/${ada.id}/cards`, { token: 'x'.repeat(100000) }, '/admin/members');
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `a huge token: ${res.statusCode}`);
  });
});
