import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { acceptProductAgreement, saveByline } from '#src/features/articles/byline-terms.ts';
import { autosaveRevision, submitForReview } from '#src/features/articles/writing.ts';
import { blankAnnouncementForm, createAnnouncement } from '#src/features/feeds/announcements.ts';
import { featureEvent } from '#src/features/feeds/featured.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { GOOD_PASSWORD, setPassword } from '#test/helpers/auth.ts';
import { createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';

/**
 * Hostile input, everywhere: every route the app has (read from its router, so a new route is fuzzed
 * without touching this file), every form field, REST body field, query parameter and GraphQL argument
 * (read from the schemas by introspection), as a visitor, a member and an admin. Whatever comes in,
 * the answer is never a 5xx.
 */

/** Strings no text field should choke on. */
const HOSTILE_TEXT: ReadonlyArray<readonly [string, string]> = [
  ['NUL', '\u0000'],
  ['NUL inside text', 'before\u0000after'],
  ['C0 controls', 'a\u0001\u0007\u0008\u000b\u000c\u001b[31mred\u001f'],
  ['lone high surrogate', '\uD800'],
  ['lone low surrogate', 'x\uDFFFy'],
  ['character reference beyond Unicode', '<p>&#99999999; words</p>'],
  ['zero character reference', '<p>&#0; &#x0;</p>'],
  ['surrogate and huge hex references', '<p>&#xD800; &#x110000; &#xFFFFFFFFFFFF;</p>'],
  ['100 KB', `<p>${'word '.repeat(20_000)}</p>`],
  ['SQL', "' or 1=1; -- \\"],
  ['markup', '<script>alert(1)</script><p onclick="x">&amp;</p>'],
  ['percent signs', '%E0%A4%A %00 %'],
  ['empty', ''],
];

const nested = (depth: number): unknown => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** JSON values where strings are expected (and strings where anything else is). */
const HOSTILE_JSON: ReadonlyArray<readonly [string, unknown]> = [
  ...HOSTILE_TEXT,
  ['array of strings', ['a', '\u0000']],
  ['huge number', 1e308],
  ['negative number', -1],
  ['object', { a: '\u0000' }],
  ['null', null],
  ['true', true],
  ['nested objects', nested(500)],
];

/** Values a form can carry: strings, and a field sent twice (an array once parsed). */
const HOSTILE_FORM: ReadonlyArray<readonly [string, string | string[]]> = [...HOSTILE_TEXT, ['field sent twice', ['one', '\u0000']]];

/** What each GraphQL argument gets (the variables are typed: most shapes stop at validation). */
const GRAPHQL_VALUES = HOSTILE_JSON.filter(([label]) =>
  ['NUL inside text', 'lone high surrogate', 'character reference beyond Unicode', '100 KB', 'C0 controls', 'array of strings', 'huge number', 'object', 'null'].includes(label),
);

/** Raw query strings and bodies that no parser should turn into a 500. */
const MALFORMED_QUERIES = ['q=%', 'q=%E0%A4%A', '%=x&%%=%%', 'q=%00&q=%01&a[b]=1&a=2', `q=${'%25'.repeat(3000)}`];

/** Names the app reads from query strings (besides the fields of GET forms, read from the pages). */
const QUERY_NAMES = [
  'redirect', 'email', 'token', 'q', 'status', 'editor', 'author', 'sort', 'after', 'before', 'feedback', 'from', 'to',
  'notice', 'saved', 'done', 'guidelines', 'reset', 'query', 'variables', 'operationName', 'state',
];

/** Names forms and islands post that a page's static markup may not show (islands add them in the browser). */
const EXTRA_FIELDS = ['content', 'body', 'title', 'agreed', 'action', 'articleId', 'revisionId', 'code', 'd1', 'd2', 'd3', 'd4', 'd5', 'channel', 'resend', 'destination', 'remember', 'redirect', 'method'];

type Role = 'visitor' | 'member' | 'admin';
type Route = { method: string; path: string };

/** Every route of the app, from its router's own listing (`printRoutes`), HEAD left out (GET covers it). */
function listRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?) \(([A-Z, ]+)\)$/.exec(line.replace(/\u00a0/g, ' '));
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('');
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}

// Every route times every hostile value: it grows with the app (payments added about sixty routes), and
// on a busy two-core machine it takes minutes, more than the suite's two-minute default.
t.setTimeout(10 * 60_000);

t.test('hostile input gets a 4xx or a page, never a 5xx, on every route, form, REST call and GraphQL argument', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock();
  const alpha = await createCommunity(db, { code: 'alpha' });
  const { app } = await startApp(t, db, { clock });
  const deps = { db, clock, community: alpha, t: app.t, notifier: app.notifications };

  const member = await createMember(db, alpha, { firstName: 'Mona', lastName: 'Member' });
  const writer = await createMember(db, alpha, { firstName: 'Walt', lastName: 'Writer' });
  const admin = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Ada', lastName: 'Admin' });
  for (const user of [member, writer, admin]) await setPassword(db, user.id);
  const words = `<p>${Array.from({ length: 520 }, (_, i) => `word${i}`).join(' ')}</p>`;
  for (const user of [member, writer]) {
    await acceptProductAgreement(deps, user.id);
    await saveByline(deps, user.id, `<p>${user.firstName} writes.</p>`);
  }
  const draft = await autosaveRevision(deps, member.id, { title: 'Draft', content: '<p>A start.</p>' });
  const submitted = await autosaveRevision(deps, writer.id, { title: 'Submitted', content: words });
  await submitForReview(deps, writer.id, { articleId: submitted.id, title: 'Submitted', content: words, agreed: true });
  // Two live announcements and two featured event links, so that the feeds' routes with an id (the
  // draft's for members, the submitted article's for staff) reach a row.
  const asAdmin = { userId: admin.id, isStaff: true };
  for (const title of ['First news', 'Second news']) {
    await createAnnouncement(deps, asAdmin, { ...blankAnnouncementForm(), title }, { publish: true });
    await featureEvent(deps, asAdmin, { title, url: 'https://example.com/event', date: '2030-01-01', place: '', pinned: false, endsAt: '' });
  }

  // One CSRF pair serves every request: the token goes with the `_csrf` cookie, not with the session.
  const csrf = await csrfFor(app, '', '/login');
  let sessionFor: Record<Role, string> = { visitor: '', member: '', admin: '' };
  /** Fresh sessions, so that a sign-out or a sign-in among the fuzzed calls does not end the run. */
  async function freshSessions() {
    sessionFor = {
      visitor: '',
      member: (await signIn(app, member, alpha)).cookie,
      admin: (await signIn(app, admin, alpha, ['ADMIN', 'MEMBER'])).cookie,
    };
  }
  await freshSessions();

  const failures: string[] = [];
  let requests = 0;
  let ip = 0;
  async function send(role: Role, method: string, url: string, options: { payload?: string | Buffer; type?: string; accept?: string; what: string }) {
    requests++;
    ip++;
    const res = await app.inject({
      method: method as 'GET',
      url,
      // A new address each time: the per-address limits would otherwise answer 429 before the handlers run.
      remoteAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
      headers: {
        accept: options.accept ?? 'text/html',
        cookie: [csrf.cookie, sessionFor[role]].filter(Boolean).join('; '),
        'x-csrf-token': csrf.token,
        ...(options.type ? { 'content-type': options.type } : {}),
      },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
    if (res.statusCode >= 500) failures.push(`${res.statusCode} ${method} ${url.slice(0, 120)} as ${role}: ${options.what}`);
    // GraphQL answers a resolver's crash with 200 and UnknownError: a 5xx in all but the status.
    else if (url.startsWith('/graphql') && res.body.includes('"code":"UnknownError"')) failures.push(`UnknownError ${method} ${url.slice(0, 120)} as ${role}: ${options.what}`);
    return res;
  }

  const routes = listRoutes(app);
  t.ok(routes.length >= 50, `the router lists the app's routes (${routes.length})`);
  t.ok(routes.some((r) => r.method === 'POST' && r.path === '/admin/articles/:id/move'), 'parametric routes are listed');

  /** A route's path with its parameters filled: the real article, or a hostile id. */
  const fill = (path: string, id: string) => path.replace(/:[a-zA-Z]+/g, id).replace(/\*$/, 'a/b%00c');
  const HOSTILE_IDS = ['%00', '99999999999999999999', '-1', '%E0%A4%A'];

  // The fields of every form on every page each role can see, by where the form posts.
  const formFields = new Map<string, Set<string>>();
  const getFormNames = new Set<string>();
  for (const role of ['visitor', 'member', 'admin'] as const) {
    // (Not the sign-out links: they would end the session the next pages are read with.)
    for (const route of routes.filter((r) => r.method === 'GET' && !r.path.includes('*') && !r.path.includes('logout') && !r.path.startsWith('/graph') && !r.path.startsWith('/static'))) {
      const res = await send(role, 'GET', fill(route.path, String(submitted.id)), { what: 'the page itself' });
      for (const form of res.body.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
        const action = /action="([^"]*)"/.exec(form[1]!)?.[1] ?? route.path;
        const names = [...form[2]!.matchAll(/name="([^"]+)"/g)].map((m) => m[1]!).filter((n) => n !== '_csrf');
        if (/method="get"/i.test(form[1]!)) names.forEach((n) => getFormNames.add(n));
        const set = formFields.get(action.split('?')[0]!) ?? new Set<string>();
        names.forEach((n) => set.add(n));
        formFields.set(action.split('?')[0]!, set);
      }
    }
  }
  t.ok(formFields.get('/login')?.has('email'), 'the sign-in form is found');
  t.ok(formFields.get(`/admin/articles/${submitted.id}/move`)?.has('note'), "the editors' move form is found");

  /** What a real form sends, so that one hostile field reaches the code behind the others. */
  const VALID: Record<string, string> = {
    email: member.email, password: GOOD_PASSWORD, confirm: GOOD_PASSWORD, title: 'A fair title', body: 'Some words here.',
    content: '<p>Some words here.</p>', byline: 'Writes about things.', feedback: 'A remark.', articleId: String(draft.id),
    revisionId: '', agreed: 'on', acknowledge: 'on', action: 'save', to: 'FIRST_ROUND_EDIT', q: 'word', community: 'alpha',
    token: 'x'.repeat(43), code: '12345', channel: 'EMAIL', startsOn: '2030-01-01', endsBefore: '2030-01-05', terms: 'Terms.',
    guidelines: 'Guidelines.', applicationUrl: '', note: 'A note.', articleUrl: 'https://example.com/a', scheduledDate: '2031-01-01T10:00',
    editorId: String(admin.id), sort: 'newest', redirect: '/articles', remember: 'on',
  };
  const encode = (fields: Record<string, string | string[]>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
    return p.toString();
  };

  /** Hostile values spread over the fields: request k gives field i value k + i, so each field meets each value. */
  function spread<V>(names: string[], values: ReadonlyArray<readonly [string, V]>, k: number): Record<string, V> {
    return Object.fromEntries(names.map((n, i) => [n, values[(k + i) % values.length]![1]]));
  }
  /** The role that reaches a route's handler: the first one not refused (401, 403) on a plain call. */
  async function reachingRole(method: string, url: string): Promise<Role> {
    for (const role of ['visitor', 'member', 'admin'] as const) {
      const res = await send(role, method, url, { what: 'a plain call', accept: 'application/json', ...(method === 'POST' ? { type: 'application/json', payload: '{}' } : {}) });
      if (res.statusCode !== 401 && res.statusCode !== 403) return role;
    }
    return 'visitor';
  }
  const JSON_SHAPES = HOSTILE_JSON.filter(([label]) => ['NUL', 'lone high surrogate', 'array of strings', 'huge number', 'object', 'null', 'nested objects'].includes(label));
  const BODIES: Array<[string, string, string]> = [
    ['malformed JSON', 'application/json', '{"username": "a",'],
    // An empty JSON body is no body (src/app.ts): every handler must cope with a body of undefined.
    ['empty JSON body', 'application/json', ''],
    ['JSON array', 'application/json', '[1, "\\u0000"]'],
    ['JSON string', 'application/json', '"\\u0000"'],
    ['JSON nested 5000 deep', 'application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['plain text', 'text/plain', 'email=a@example.com'],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na\r\n--x--\r\n'],
    ['malformed form encoding', 'application/x-www-form-urlencoded', 'email=%&title=%E0%A4%A&%=%'],
  ];
  /** The REST calls' fields (spec section 7). */
  const REST_FIELDS = ['username', 'password', 'targetCommunity', 'remember', 'to', 'channel', 'code', 'token', 'resetToken', 'newPassword'];
  const validRest: Record<string, unknown> = { username: member.email, password: GOOD_PASSWORD, targetCommunity: 'alpha', remember: false, to: member.email, channel: 'EMAIL', code: '12345', token: 'x'.repeat(43), resetToken: 'x'.repeat(43), newPassword: GOOD_PASSWORD };

  const started = Date.now();
  const skipped = (path: string) => path.startsWith('/graphql') || path.startsWith('/graphiql') || path.startsWith('/static') || path === '/*' || /^\/v1\/(?!forum)/.test(path);
  for (const route of routes.filter((r) => !skipped(r.path))) {
    await freshSessions();
    const url = fill(route.path, String(route.path.startsWith('/admin') ? submitted.id : draft.id));
    const role = await reachingRole(route.method, url);
    const form = route.method === 'POST' ? { type: 'application/x-www-form-urlencoded' } : {};
    // Hostile path parameters.
    if (route.path.includes(':') || route.path.endsWith('*')) {
      for (const id of HOSTILE_IDS) await send(role, route.method, fill(route.path, id), { what: `path parameter ${id}`, ...form, payload: route.method === 'POST' ? '' : undefined });
    }

    if (route.method === 'GET') {
      const names = [...new Set([...QUERY_NAMES, ...getFormNames])];
      for (let k = 0; k < HOSTILE_FORM.length; k++) {
        const accept = k % 2 ? 'application/json' : 'text/html';
        await send(role, 'GET', `${url}?${encode(spread(names, HOSTILE_FORM, k))}`, { what: `every query parameter, values from ${HOSTILE_FORM[k]![0]} on (${accept})`, accept });
      }
      for (const raw of MALFORMED_QUERIES) await send(role, 'GET', `${url}?${raw}`, { what: `malformed query ${raw.slice(0, 40)}` });
      await send(role, 'GET', `${url}%`, { what: 'malformed percent-encoding in the path' });
      continue;
    }

    // POST: as a form (hostile values spread over every field, then one field at a time), as JSON, and
    // as bodies of the wrong type or shape.
    const isRest = route.path.startsWith('/rest/');
    const harvested = formFields.get(url) ?? formFields.get(route.path);
    const names = isRest ? REST_FIELDS : [...new Set([...(harvested ?? []), ...EXTRA_FIELDS])];
    // One field at a time: the form's own fields (or, for a form the pages do not show, the islands' ones).
    const ownNames = isRest ? REST_FIELDS : harvested && harvested.size > 0 ? [...harvested] : EXTRA_FIELDS;
    for (let k = 0; k < HOSTILE_FORM.length; k++) {
      await send(role, 'POST', url, { what: `form, values from ${HOSTILE_FORM[k]![0]} on`, ...form, payload: encode(spread(names, HOSTILE_FORM, k)) });
    }
    if (isRest) {
      for (let k = 0; k < HOSTILE_JSON.length; k++) {
        await send(role, 'POST', url, { what: `JSON, values from ${HOSTILE_JSON[k]![0]} on`, type: 'application/json', accept: 'application/json', payload: JSON.stringify(spread(names, HOSTILE_JSON, k)) });
      }
      for (const name of names) {
        for (const [label, value] of JSON_SHAPES) {
          await send(role, 'POST', url, { what: `JSON field ${name}: ${label}`, type: 'application/json', accept: 'application/json', payload: JSON.stringify({ ...validRest, [name]: value }) });
        }
      }
    } else {
      const valid = Object.fromEntries(names.map((n) => [n, VALID[n] ?? 'value']));
      for (const name of ownNames) {
        await send(role, 'POST', url, { what: `form field ${name}: NUL`, ...form, payload: encode({ ...valid, [name]: 'before\u0000after' }) });
      }
      for (let k = 0; k < JSON_SHAPES.length; k++) {
        await send(role, 'POST', url, { what: `JSON, values from ${JSON_SHAPES[k]![0]} on`, type: 'application/json', payload: JSON.stringify(spread(names, JSON_SHAPES, k)) });
      }
    }
    for (const [label, type, payload] of BODIES) await send(role, 'POST', url, { what: label, type, payload });
  }
  const routesTook = Date.now() - started;

  // GraphQL: every operation and argument of both schemas, read by introspection.
  const gqlStarted = Date.now();
  type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
  type Field = { name: string; args: Array<{ name: string; type: TypeRef }>; type: TypeRef };
  // Within the schemas' depth limit (8): argument types two wrappers deep (String!, [ID!]), field types three.
  const INTROSPECT = `{ __schema { queryType { name } mutationType { name } types { name kind enumValues { name } fields { name type { ...T } args { name type { ...A } } } } } }
    fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
    fragment A on __Type { kind name ofType { kind name ofType { kind name } } }`;
  const typeText = (type: TypeRef): string => (type.kind === 'NON_NULL' ? `${typeText(type.ofType!)}!` : type.kind === 'LIST' ? `[${typeText(type.ofType!)}]` : type.name!);
  const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

  for (const [endpoint, roles] of [['/graphql', ['visitor', 'member']], ['/graphqlAdmin', ['admin']]] as const) {
    await freshSessions();
    const res = await send(roles.at(-1)!, 'POST', endpoint, { what: 'introspection', type: 'application/json', accept: 'application/json', payload: JSON.stringify({ query: INTROSPECT }) });
    if (!res.json().data) throw new Error(`introspection of ${endpoint} failed: ${res.body.slice(0, 500)}`);
    const schema = res.json().data.__schema as { queryType: { name: string }; mutationType: { name: string } | null; types: Array<{ name: string; kind: string; enumValues: Array<{ name: string }> | null; fields: Field[] | null }> };
    const types = new Map(schema.types.map((ty) => [ty.name, ty]));
    const validValue = (type: TypeRef): unknown => {
      const base = named(type);
      const value = base.name === 'ID' ? String(draft.id) : base.name === 'Int' || base.name === 'Float' ? 1 : base.name === 'Boolean' ? true : base.kind === 'ENUM' ? types.get(base.name!)!.enumValues![0]!.name : base.name === 'String' ? 'hello' : {};
      return type.kind === 'LIST' || (type.kind === 'NON_NULL' && type.ofType!.kind === 'LIST') ? [value] : value;
    };
    const operations = [
      ...(types.get(schema.queryType.name)!.fields ?? []).map((f) => ['query', f] as const),
      ...(schema.mutationType ? (types.get(schema.mutationType.name)!.fields ?? []).map((f) => ['mutation', f] as const) : []),
    ];
    t.ok(operations.length > 10, `${endpoint} has operations to fuzz (${operations.length})`);
    for (const role of roles) {
      // The operations as the role that may call them all; a visitor gets the malformed requests below.
      for (const [kind, field] of role === 'visitor' ? [] : operations) {
        await freshSessions();
        const selection = ['OBJECT', 'INTERFACE', 'UNION'].includes(named(field.type).kind) ? ' { __typename }' : '';
        const declared = field.args.map((a) => `$${a.name}: ${typeText(a.type)}`).join(', ');
        const passed = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${kind} Fuzz${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
        const valid = Object.fromEntries(field.args.map((a) => [a.name, validValue(a.type)]));
        const call = (variables: Record<string, unknown>, what: string) =>
          send(role, 'POST', endpoint, { what: `${kind} ${field.name}: ${what}`, type: 'application/json', accept: 'application/json', payload: JSON.stringify({ query, variables }) });
        if (field.args.length === 0) await call({}, 'no arguments');
        for (const arg of field.args) {
          for (const [label, value] of GRAPHQL_VALUES) await call({ ...valid, [arg.name]: value }, `argument ${arg.name}: ${label}`);
        }
        // The same hostile string written into the query text itself, as a literal.
        for (const arg of field.args.filter((a) => named(a.type).name === 'String' || named(a.type).name === 'ID')) {
          const literal = `${kind} { ${field.name}(${field.args.map((a) => `${a.name}: ${a === arg ? JSON.stringify('a\u0000b\uD800') : JSON.stringify(valid[a.name])}`).join(', ').replace(/"(true|1)"/g, '$1')})${selection} }`;
          await send(role, 'POST', endpoint, { what: `${kind} ${field.name}: literal ${arg.name} with NUL`, type: 'application/json', accept: 'application/json', payload: JSON.stringify({ query: literal }) });
        }
      }
      // The request itself malformed.
      const broken: Array<[string, string, string]> = [
        ['query not a string', 'application/json', JSON.stringify({ query: 123 })],
        ['variables a string', 'application/json', JSON.stringify({ query: '{ __typename }', variables: '\u0000' })],
        ['variables an array', 'application/json', JSON.stringify({ query: '{ __typename }', variables: ['\u0000'] })],
        ['NUL in the query text', 'application/json', JSON.stringify({ query: '{ __typename\u0000 }' })],
        ['lone surrogate in the query text', 'application/json', JSON.stringify({ query: '{ "\uD800" }' })],
        ['operationName hostile', 'application/json', JSON.stringify({ query: '{ __typename }', operationName: '\u0000' })],
        ['deeply nested query', 'application/json', JSON.stringify({ query: `{ ${'a { '.repeat(2000)}b${' }'.repeat(2000)} }` })],
        ['malformed JSON', 'application/json', '{"query": '],
        ['a batch of nulls', 'application/json', '[null, 1, "x"]'],
        ['application/graphql', 'application/graphql', '{ __typename\u0000 }'],
        ['a form', 'application/x-www-form-urlencoded', 'query=%00'],
        ['plain text', 'text/plain', '{ __typename }'],
      ];
      for (const [label, type, payload] of broken) await send(role, 'POST', endpoint, { what: label, type, accept: 'application/json', payload });
      for (const raw of ['query=%00', 'query=%', 'query={__typename}&variables=%7B', `query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{"a":"\u0000"}')}`]) {
        await send(role, 'GET', `${endpoint}?${raw}`, { what: `GET ${raw}`, accept: 'application/json' });
      }
    }
  }
  const gqlTook = Date.now() - gqlStarted;

  t.same(failures.slice(0, 60), [], `no 5xx in ${requests} hostile requests (routes ${routesTook} ms, GraphQL ${gqlTook} ms); ${failures.length} failed`);
});
