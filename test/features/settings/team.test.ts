import t, { type Test } from 'tap';
import { AppError } from '#src/core/errors.ts';
import { checkContact, deleteContact, findTeam, saveContact, type TeamDeps } from '#src/features/settings/team.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

async function rejects(t: Test, p: Promise<unknown>, code: string | number, message: string) {
  try {
    await p;
    t.fail(`${message}: expected ${code}`);
  } catch (e) {
    t.ok(e instanceof AppError, `${message}: an AppError`);
    t.equal((e as AppError).code, code, message);
    return e as AppError;
  }
  return null;
}

const JORDAN = { name: 'Jordan Ellis', email: ' Jordan.Ellis@Example.com ', mobilePhone: { countryCode: 'US', number: '512 555 0117' }, officePhone: { countryCode: 'US', number: '512-555-0100', extension: '214' } };

t.test('team contacts', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });
  const deps: TeamDeps = { db, clock, community: alpha };
  const msg = (e: AppError | null, field: string) => (e?.fields?.[field] ? app.t(e.fields[field]!.key, e.fields[field]!.values) : undefined);

  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const bob = await createMember(db, alpha, { firstName: 'Bob', lastName: 'Builder' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Other' });

  await t.test('service: add, edit (one per type), delete, tenancy', async (t) => {
    t.same(await findTeam(deps, ada.id), { ea: null, pr: null }, 'none at first');
    const ea = await saveContact(deps, ada.id, 'ea', JORDAN);
    t.equal(ea.name, 'Jordan Ellis');
    t.equal(ea.email, 'jordan.ellis@example.com', 'trimmed (and lower case)');
    t.same(ea.mobilePhone, { countryCode: 'US', number: '(512) 555-0117' });
    t.same(ea.officePhone, { countryCode: 'US', number: '(512) 555-0100', extension: '214' });

    const again = await saveContact(deps, ada.id, 'ea', { name: 'Jordan Ellis-Reed', email: 'jer@example.com', mobilePhone: { countryCode: 'GB', number: '07400 123456' }, officePhone: null });
    t.equal(again.id, ea.id, 'an upsert: the same row');
    t.same(again.mobilePhone, { countryCode: 'GB', number: '07400 123456' });
    t.equal(again.officePhone, null, 'office phone cleared');
    const pr = await saveContact(deps, ada.id, 'pr', { name: 'Nadia Petrova', email: 'nadia@example.com' });
    t.not(pr.id, ea.id, 'PR is its own contact');
    const team = await findTeam(deps, ada.id);
    t.equal(team.ea?.name, 'Jordan Ellis-Reed');
    t.equal(team.pr?.name, 'Nadia Petrova');
    t.same(await findTeam(deps, bob.id), { ea: null, pr: null }, 'another member sees none of them');
    t.same(await findTeam({ db, community: beta }, ada.id), { ea: null, pr: null }, 'another community has none of them');
    t.equal(await deleteContact({ db, community: beta }, ada.id, 'ea'), null, 'another community cannot delete them');

    const n = Number((await db.selectFrom('support_contacts').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', ada.id).executeTakeFirstOrThrow()).n);
    t.equal(n, 2, 'one row per type');

    t.equal(await deleteContact(deps, ada.id, 'pr'), pr.id);
    t.equal(await deleteContact(deps, ada.id, 'pr'), null, 'twice: nothing');
    t.equal((await findTeam(deps, ada.id)).pr, null);
    t.ok((await findTeam(deps, ada.id)).ea, 'the assistant stays');
  });

  await t.test('service: validation messages', async (t) => {
    let e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, name: '   ' }), 'BadRequest.Validation', 'name required');
    t.equal(msg(e, 'name'), 'Please enter a name.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, name: 'x'.repeat(121) }), 'BadRequest.Validation', 'name too long');
    t.equal(msg(e, 'name'), 'The name can be at most 120 characters.');
    await saveContact(deps, bob.id, 'pr', { ...JORDAN, name: 'x'.repeat(120) }).then((c) => t.equal(c.name.length, 120, '120 is fine'));
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, email: 'not-an-email' }), 'BadRequest.Validation', 'invalid email');
    t.equal(msg(e, 'email'), 'Please enter a valid email address.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, email: '' }), 'BadRequest.Validation', 'email is required');
    t.equal(msg(e, 'email'), 'Please enter a valid email address.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, mobilePhone: { countryCode: 'US', number: '123' } }), 'BadRequest.Validation', 'invalid mobile');
    t.equal(msg(e, 'mobilePhone'), 'Please enter a valid phone number.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, mobilePhone: { countryCode: 'ZZ', number: '512 555 0117' } }), 'BadRequest.Validation', 'unknown country');
    t.equal(msg(e, 'mobilePhone'), 'Please enter a valid phone number.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, officePhone: { countryCode: 'US', number: '512 555 0100', extension: '12345678901' } }), 'BadRequest.Validation', 'extension > 10 digits');
    t.equal(msg(e, 'officeExtension'), 'The extension can only be digits, at most 10.');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, officePhone: { countryCode: 'US', number: '512 555 0100', extension: '12a' } }), 'BadRequest.Validation', 'extension not digits');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, officePhone: { countryCode: 'US', number: '', extension: '12' } }), 'BadRequest.Validation', 'extension without a number');
    t.equal(msg(e, 'officeExtension'), 'Please enter the office number this extension belongs to.');
    t.same(checkContact({ ...JORDAN, officePhone: { countryCode: 'US', number: '512 555 0100', extension: 'ext. 1234567890' } }).values?.officePhone?.extension, '1234567890', '"ext." typed is dropped');
    t.same(checkContact({ name: 'A', email: 'a@example.com', mobilePhone: { countryCode: '', number: '(512) 555-0117' } }).values?.mobilePhone, { countryCode: 'US', number: '(512) 555-0117' }, 'default country US');
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { name: '', email: 'bad', mobilePhone: { countryCode: 'US', number: '1' } }), 'BadRequest.Validation', 'all at once');
    t.same(Object.keys(e?.fields ?? {}).sort(), ['email', 'mobilePhone', 'name']);
    e = await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, name: 'Jo\u0000rdan' }), 150, 'a NUL byte');
    await rejects(t, saveContact(deps, bob.id, 'ea', { ...JORDAN, name: 42 as unknown as string }), 'BadRequest.Validation', 'not a string');
    t.equal((await findTeam(deps, bob.id)).ea, null, 'nothing saved');
  });

  const form = (fields: Record<string, string>) => ({ name: '', email: '', mobilePhoneCountry: 'US', mobilePhone: '', officePhoneCountry: 'US', officePhone: '', officeExtension: '', ...fields });

  await t.test('pages without JavaScript', async (t) => {
    const cy = await createMember(db, alpha, { firstName: 'Cy', lastName: 'Young' });
    const as = await csrfFor(app, (await signIn(app, cy, alpha)).cookie, '/settings/team');
    const get = (url: string, jar = as) => app.inject({ url, headers: { cookie: jar.cookie, accept: 'text/html' } });
    const post = (url: string, fields: Record<string, string>, jar = as) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: jar.token, ...fields }).toString(),
      });

    const empty = await get('/settings/team');
    t.equal(empty.statusCode, 200);
    t.match(empty.body, 'Executive assistant');
    t.match(empty.body, 'PR/marketing support');
    t.match(empty.body, 'You have not added an executive assistant.');
    t.match(empty.body, 'You have not added a PR/marketing contact.');
    t.match(empty.body, /href="\/settings\/team\/ea" data-modal=""/);
    t.notMatch(empty.body, 'not available here yet', 'no longer the placeholder');

    const formPage = await get('/settings/team/ea');
    t.equal(formPage.statusCode, 200);
    t.match(formPage.body, 'Add your executive assistant');
    t.match(formPage.body, /<select[^>]*name="mobilePhoneCountry"/);
    t.match(formPage.body, /<option value="US" selected="">United States \(\+1\)<\/option>/, 'US by default');
    t.match(formPage.body, 'settings-menu', 'inside the settings layout');

    const bad = await post('/settings/team/ea', form({ name: '', email: 'cy@nowhere', mobilePhone: '555 12', officePhone: '', officeExtension: '12', mobilePhoneCountry: 'CA' }));
    t.equal(bad.statusCode, 400);
    t.match(bad.body, 'Please enter a name.');
    t.match(bad.body, 'Please enter a valid email address.');
    t.match(bad.body, 'Please enter a valid phone number.');
    t.match(bad.body, 'Please enter the office number this extension belongs to.');
    t.match(bad.body, /id="team-ea-email"[^>]*value="cy@nowhere"|value="cy@nowhere"[^>]*id="team-ea-email"/, 'the typed email is kept');
    t.match(bad.body, 'value="555 12"', 'the typed phone is kept');
    t.match(bad.body, /<option value="CA" selected="">/, 'the chosen country is kept');
    t.match(bad.body, /aria-describedby="team-ea-email-error"/, 'the message is tied to its field');
    t.match(bad.body, 'id="team-ea-email-error"');

    const hostile = await post('/settings/team/ea', form({ name: 'Cy\u0000\u0007', email: 'a@example.com' }));
    t.equal(hostile.statusCode, 400, 'control characters: a 4xx with the message');
    t.match(hostile.body, 'field-error');
    const huge = await post('/settings/team/ea', form({ name: 'y'.repeat(200_000), email: 'a@example.com' }));
    t.ok(huge.statusCode >= 400 && huge.statusCode < 500, `a huge name is a 4xx (${huge.statusCode})`);

    const ok = await post('/settings/team/ea', form({ name: 'Jordan <Ellis>', email: ' jordan@example.com ', mobilePhone: '512 555 0117', officePhone: '512 555 0100', officeExtension: '214' }));
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/settings/team?alert=team-saved');
    const after = await get(ok.headers.location as string);
    t.match(after.body, 'Your team contact has been saved.', 'the alert shows');
    t.match(after.body, 'Jordan &lt;Ellis&gt;', 'escaped');
    t.match(after.body, 'jordan@example.com');
    t.match(after.body, '(512) 555-0117');
    t.match(after.body, '(512) 555-0100 ext. 214');
    t.match(after.body, 'You have not added a PR/marketing contact.');

    const edit = await get('/settings/team/ea');
    t.match(edit.body, 'Edit your executive assistant');
    t.match(edit.body, 'value="Jordan &lt;Ellis&gt;"', 'the form holds the stored values');

    const fragment = await get('/settings/team/pr?fragment=1');
    t.equal(fragment.statusCode, 200);
    t.notMatch(fragment.body, '<html', 'the fragment alone');
    t.match(fragment.body, 'data-modal-form');
    const fragmentBad = await post('/settings/team/pr?fragment=1', form({ name: 'Nadia' }));
    t.equal(fragmentBad.statusCode, 200, 'the dialog gets 200 with the messages');
    t.match(fragmentBad.body, 'Please enter a valid email address.');
    t.match(fragmentBad.body, 'value="Nadia"');
    t.notMatch(fragmentBad.body, '<html');
    const fragmentOk = await post('/settings/team/pr?fragment=1', form({ name: 'Nadia Petrova', email: 'nadia@example.com' }));
    t.equal(fragmentOk.statusCode, 303);
    t.equal(fragmentOk.headers.location, '/settings/team?alert=team-saved');

    const confirm = await get('/settings/team/pr/delete');
    t.equal(confirm.statusCode, 200);
    t.match(confirm.body, 'Remove Nadia Petrova as your PR/marketing contact?');
    t.match(confirm.body, /action="\/settings\/team\/pr\/delete" method="post"/);
    t.notMatch((await get('/settings/team/pr/delete?fragment=1')).body, '<html');
    const deleted = await post('/settings/team/pr/delete', {});
    t.equal(deleted.statusCode, 303);
    t.equal(deleted.headers.location, '/settings/team?alert=team-deleted');
    const gone = await get(deleted.headers.location as string);
    t.match(gone.body, 'Your team contact has been deleted.');
    t.match(gone.body, 'You have not added a PR/marketing contact.');
    t.match(gone.body, 'Jordan &lt;Ellis&gt;', 'the assistant stays');
    const nothing = await get('/settings/team/pr/delete');
    t.equal(nothing.statusCode, 303, 'nothing to delete: back to the section');

    t.equal((await get('/settings/team/xx')).statusCode, 404);
    t.equal((await post('/settings/team/xx', form({ name: 'A', email: 'a@example.com' }))).statusCode, 404);
    t.equal((await post('/settings/team/pr/delete', {}, { ...as, token: 'wrong' })).statusCode, 403, 'CSRF checked');

    const signedOut = await app.inject({ url: '/settings/team', headers: { accept: 'text/html' } });
    t.equal(signedOut.statusCode, 303, 'signed out: to sign-in');

    const billing = await get('/settings/billing');
    t.equal(billing.statusCode, 200);
    t.match(billing.body, 'Statements');
    t.match(billing.body, 'You have no statements yet.');
    t.match(billing.body, 'Contact the concierge');
    t.match(billing.body, `mailto:${alpha.concierge_email}`);
    t.notMatch(billing.body, 'not available here yet');
  });

  await t.test('tenancy: another community’s member sees and changes none of these', async (t) => {
    await saveContact(deps, ada.id, 'pr', { name: 'Alpha Secret', email: 'secret@example.com' });
    const { cookie } = await signIn(app, bea, beta);
    const page = await app.inject({ url: '/settings/team', headers: { host: 'beta.test', cookie, accept: 'text/html' } });
    t.equal(page.statusCode, 200);
    t.notMatch(page.body, 'Alpha Secret');
    t.match(page.body, 'You have not added a PR/marketing contact.');
    const betaDeps: TeamDeps = { db, clock, community: beta };
    t.same(await findTeam(betaDeps, bea.id), { ea: null, pr: null });
    t.same(await findTeam(betaDeps, ada.id), { ea: null, pr: null });
    t.equal((await findTeam(deps, ada.id)).pr?.name, 'Alpha Secret', 'untouched');
  });

  await t.test('GraphQL: bearer and cookie+CSRF', async (t) => {
    const gia = await createMember(db, alpha, { firstName: 'Gia', lastName: 'Graph' });
    const bearer = (await signIn(app, gia, alpha)).token;
    const gql = (query: string, variables: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
    const SAVE = `mutation S($name: String!, $email: String, $mobilePhone: TeamPhoneInput, $officePhone: TeamPhoneInput) {
      myAssistant(name: $name, email: $email, mobilePhone: $mobilePhone, officePhone: $officePhone) { id name email type mobilePhone { countryCode number } officePhone { countryCode number extension } }
    }`;
    const auth = { authorization: `Bearer ${bearer}` };

    const saved = await gql(SAVE, { name: 'Jordan Ellis', email: 'jordan@example.com', mobilePhone: { number: '512 555 0117' }, officePhone: { countryCode: 'US', number: '512 555 0100', extension: '9' } }, auth);
    const ea = saved.json().data?.myAssistant;
    t.same(ea && { ...ea, id: undefined }, {
      id: undefined,
      name: 'Jordan Ellis',
      email: 'jordan@example.com',
      type: 'EA',
      mobilePhone: { countryCode: 'US', number: '(512) 555-0117' },
      officePhone: { countryCode: 'US', number: '(512) 555-0100', extension: '9' },
    }, saved.body);

    const bad = await gql(SAVE, { name: '', email: 'x', officePhone: { number: '512 555 0100', extension: 'abc' } }, auth);
    const err = bad.json().errors?.[0];
    t.equal(err?.extensions?.code, 'BadRequest.Validation');
    t.same(Object.keys(err?.extensions?.fields ?? {}).sort(), ['email', 'name', 'officePhone.extension']);
    const hostile = await gql(SAVE, { name: 'A\u0000', email: 'a@example.com' }, auth);
    t.equal(hostile.json().errors?.[0]?.extensions?.code, '150');

    const pr = await gql('mutation { myPublicRelations(name: "Nadia Petrova", email: "nadia@example.com") { id type } }', {}, auth);
    t.equal(pr.json().data?.myPublicRelations?.type, 'PR', pr.body);
    const me = await gql('{ me { assistant { id name } publicRelations { name email mobilePhone { number } } } }', {}, auth);
    t.same(me.json().data.me, { assistant: { id: ea.id, name: 'Jordan Ellis' }, publicRelations: { name: 'Nadia Petrova', email: 'nadia@example.com', mobilePhone: null } });

    const browser = await csrfFor(app, (await signIn(app, gia, alpha)).cookie, '/settings/team');
    const noToken = await gql('mutation { myPublicRelationsDelete }', {}, { cookie: browser.cookie });
    t.ok(noToken.statusCode === 403 || noToken.json().errors?.[0]?.extensions?.code === 'BadRequest.Csrf', 'a cookie without the CSRF token is refused');
    const viaCookie = await gql('mutation { myPublicRelationsDelete }', {}, { cookie: browser.cookie, 'x-csrf-token': browser.token });
    t.equal(viaCookie.json().data?.myPublicRelationsDelete, true, viaCookie.body);
    const again = await gql('mutation { myPublicRelationsDelete }', {}, auth);
    t.equal(again.json().data?.myPublicRelationsDelete, false, 'nothing left to delete');

    const other = await gql('{ me { assistant { name } publicRelations { name } } }', {}, { host: 'beta.test', authorization: `Bearer ${(await signIn(app, bea, beta)).token}` });
    t.same(other.json().data.me, { assistant: null, publicRelations: null }, 'another community’s member sees none');
    const anon = await gql('mutation { myAssistantDelete }', {}, {});
    t.equal(anon.json().errors?.[0]?.extensions?.code, 'NotAuthenticated');
    t.equal((await findTeam(deps, gia.id)).ea?.name, 'Jordan Ellis', 'the anonymous call deleted nothing');
  });
});
