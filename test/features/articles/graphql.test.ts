import t from 'tap';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Community, Role } from '#src/db/types.ts';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { words } from '#test/helpers/articles.ts';
import { createCommunity, createMember, signIn } from '#test/helpers/factories.ts';

type Jar = { cookie?: string; token?: string; host?: string };
type GqlError = { message: string; path?: string[]; extensions: { code: string; fields?: Record<string, { code: string; key: string }> } };


const ARTICLE = 'id status statusUpdatedAt updatedAt canView currentRevision { id title content updatedAt } editor { id } author { id } scheduledDate publishedDate articleUrl wordCount';
const FEEDBACK_PAGE = /* GraphQL */ `
  query Feedback($articleId: ID!, $last: Int, $before: String) {
    articleFeedback(articleId: $articleId, last: $last, before: $before) {
      edges { cursor node { id remark createdAt hasRead author { id snapshot { id avatar name } } } }
      pageInfo { hasPreviousPage startCursor endCursor }
    }
  }
`;
const AUTOSAVE = `mutation Save($articleId: ID, $title: String!, $content: String!) { articleAutoSaveRevision(articleId: $articleId, title: $title, content: $content) { ${ARTICLE} } }`;
const SEND = `mutation Send($articleId: ID!, $title: String!, $content: String!, $agreed: Boolean!) { articleSendForReview(articleId: $articleId, title: $title, content: $content, agreed: $agreed) { ${ARTICLE} } }`;
const APPROVE = `mutation Approve($id: ID!, $agreed: Boolean!) { articleApproveForPublishing(id: $id, agreed: $agreed) { ${ARTICLE} } }`;
/** The operations exactly as spec section 7 names them: a client written from the spec sends no `agreed`. */
const SPEC_SEND = `mutation Send($articleId: ID!, $title: String!, $content: String!) { articleSendForReview(articleId: $articleId, title: $title, content: $content) { ${ARTICLE} } }`;
const SPEC_APPROVE = `mutation Approve($id: ID!) { articleApproveForPublishing(id: $id) { ${ARTICLE} } }`;
const FEEDBACK_CREATE = 'mutation Remark($articleId: ID!, $feedback: String!) { articleFeedbackCreate(articleId: $articleId, feedback: $feedback) { id remark createdAt hasRead author { id snapshot { id name avatar } } } }';
const MOVE = `mutation Move($articleId: ID!, $to: ArticleStatus!, $note: String) { articleMove(articleId: $articleId, to: $to, note: $note) { ${ARTICLE} } }`;
const SCAN = 'mutation Scan($articleId: ID!) { articleScanCreate(articleId: $articleId) { id exportId status identicalWords minorChangedWords relatedMeaningWords aggregatedScore aiProbability createdAt updatedAt totalExcluded totalWords } }';

/** A signed-in browser on a community's host: its cookies and the CSRF token of a page there. */
async function browser(app: FastifyInstance, user: { id: number }, community: Community, roles: Role[] = ['MEMBER'], host?: string): Promise<Jar> {
  const { cookie } = await signIn(app, user, community, roles);
  const res = await app.inject({ method: 'GET', url: '/', headers: { cookie, accept: 'text/html', ...(host ? { host } : {}) } });
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1];
  const csrf = res.cookies.find((c) => c.name === '_csrf');
  if (!token || !csrf) throw new Error(`No CSRF token (status ${res.statusCode})`);
  return { cookie: `${cookie}; _csrf=${csrf.value}`, token, host };
}

t.test('articles over GraphQL (/graphql for members, /graphqlAdmin for the editors)', async (t) => {
  const db = await setupDatabase(t);
  const clock = testClock(); // 2026-11-21: no blackout
  const alpha = await createCommunity(db, { code: 'alpha', article_terms: 'Alpha article terms.', article_guidelines: 'Write what you know.' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db, { clock });

  const author = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const editor = await createMember(db, alpha, { roles: ['ADMIN', 'MEMBER'], firstName: 'Edith', lastName: 'Editor' });
  const other = await createMember(db, alpha);
  const betaMember = await createMember(db, beta);
  const betaAdmin = await createMember(db, beta, { roles: ['ADMIN', 'MEMBER'] });

  const ada = await browser(app, author, alpha);
  const edith = await browser(app, editor, alpha, ['ADMIN', 'MEMBER']);
  const stranger = await browser(app, other, alpha);
  const betaBrowser = await browser(app, betaMember, beta, ['MEMBER'], 'beta.test');
  const betaStaff = await browser(app, betaAdmin, beta, ['ADMIN', 'MEMBER'], 'beta.test');

  const post = (url: string) => (query: string, variables: object = {}, jar: Jar = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        ...(jar.host ? { host: jar.host } : {}),
        ...(jar.cookie ? { cookie: jar.cookie } : {}),
        ...(jar.token ? { 'x-csrf-token': jar.token } : {}),
      },
      payload: JSON.stringify({ query, variables }),
    });
  const gql = post('/graphql');
  const admin = post('/graphqlAdmin');
  const errorOf = (res: LightMyRequestResponse) => {
    const errors = res.json().errors as GqlError[] | undefined;
    if (!errors?.length) throw new Error(`Expected an error, got ${res.body}`);
    return errors[0]!;
  };
  /** The data of a successful answer (fails loudly otherwise). */
  const dataOf = (res: LightMyRequestResponse) => {
    const body = res.json();
    if (res.statusCode !== 200 || body.errors) throw new Error(`GraphQL failed (${res.statusCode}): ${res.body}`);
    return body.data;
  };
  const adminMove = async (articleId: number, to: string, note?: string) => dataOf(await admin(MOVE, { articleId, to, note }, edith)).articleMove;

  let articleId = 0;

  await t.test('a signed-out visitor gets NotAuthenticated from every article query and mutation', async (t) => {
    for (const query of [
      '{ articleInFlight { id } }',
      '{ articlesPendingPublication { id } }',
      '{ articlesPublished { id } }',
      '{ articleGuidelines }',
      '{ articleUserSetting { id } }',
      '{ articleProductTerms { terms } }',
      '{ articleProductAgreementStatus { createdAt } }',
      '{ articleFeedback(articleId: "1") { pageInfo { hasPreviousPage } } }',
      'mutation { articleCreate { id } }',
      'mutation { articleAutoSaveRevision(title: "t", content: "c") { id } }',
      'mutation { articleUserByline(byline: "b") { id } }',
      'mutation { articleAcceptProductAgreement { createdAt } }',
      'mutation { articleFeedbackCreate(articleId: "1", feedback: "f") { id } }',
      'mutation { articleSendForReview(articleId: "1", title: "t", content: "c", agreed: true) { id } }',
      'mutation { articleScanCreate(articleId: "1") { id } }',
      'mutation { articleApproveForPublishing(id: "1", agreed: true) { id } }',
    ]) {
      const res = await gql(query);
      t.equal(errorOf(res).extensions.code, 'NotAuthenticated', query);
      // A nullable field answers null beside the error (200); a non-null one leaves no data (401).
      t.ok(res.statusCode === 401 || (res.statusCode === 200 && Object.values(res.json().data).every((v) => v === null)), `${query}: no data`);
    }
    t.equal((await gql('mutation { articleCreate { id } }')).statusCode, 401);
  });

  await t.test('the member reads the terms and guidelines, and accepting the product agreement opens the area', async (t) => {
    t.same(dataOf(await gql('{ articleProductAgreementStatus { createdAt } }', {}, ada)), { articleProductAgreementStatus: null });
    const refused = await gql(`mutation { articleCreate { ${ARTICLE} } }`, {}, ada);
    t.equal(errorOf(refused).extensions.code, 'Articles.AgreementRequired', 'no article before the agreement');
    t.equal(refused.statusCode, 403);

    t.same(dataOf(await gql('{ articleProductTerms { terms } articleGuidelines }', {}, ada)), {
      articleProductTerms: { terms: 'Alpha article terms.' },
      articleGuidelines: 'Write what you know.',
    });
    const accepted = dataOf(await gql('mutation { articleAcceptProductAgreement { createdAt } }', {}, ada));
    t.same(accepted, { articleAcceptProductAgreement: { createdAt: '2026-11-21T12:00:00.000Z' } });
    t.same(dataOf(await gql('{ articleProductAgreementStatus { createdAt } }', {}, ada)), { articleProductAgreementStatus: { createdAt: '2026-11-21T12:00:00.000Z' } });
  });

  await t.test('with no article in flight the first autosave creates the draft; the next one saves into it', async (t) => {
    t.same(dataOf(await gql('{ articleInFlight { id } }', {}, ada)), { articleInFlight: null });
    const created = dataOf(await gql(AUTOSAVE, { title: 'My story', content: '<p>Hello <script>alert(1)</script><b>world</b></p>' }, ada)).articleAutoSaveRevision;
    articleId = Number(created.id);
    t.match(created, {
      status: 'DRAFT',
      canView: true,
      author: { id: String(author.id) },
      editor: null,
      currentRevision: { title: 'My story', content: '<p>Hello <strong>world</strong></p>' },
      wordCount: 2,
      statusUpdatedAt: '2026-11-21T12:00:00.000Z',
      scheduledDate: null,
      publishedDate: null,
      articleUrl: null,
    });
    const saved = dataOf(await gql(AUTOSAVE, { articleId: created.id, title: 'My story, v2', content: words(10) }, ada)).articleAutoSaveRevision;
    t.equal(saved.id, created.id, 'the same article');
    t.equal(saved.currentRevision.id, created.currentRevision.id, 'the same revision');
    t.equal(saved.wordCount, 10);
    t.equal(dataOf(await gql('{ articleInFlight { id currentRevision { title } } }', {}, ada)).articleInFlight.currentRevision.title, 'My story, v2');
    t.equal(dataOf(await gql(`mutation { articleCreate { id } }`, {}, ada)).articleCreate.id, created.id, 'articleCreate answers the article in flight');
  });

  await t.test('the byline is saved with articleUserByline and read with articleUserSetting; an empty one names the field', async (t) => {
    t.same(dataOf(await gql('{ articleUserSetting { id byline } }', {}, ada)), { articleUserSetting: null });
    const empty = await gql('mutation { articleUserByline(byline: "  ") { id byline } }', {}, ada);
    t.equal(errorOf(empty).extensions.code, 'Articles.Invalid');
    t.same(errorOf(empty).extensions.fields, { byline: { code: 'Articles.Invalid', key: 'articles.errors.bylineRequired' } });
    const byline = '<p>Founder of <a href="https://example.com">Acme</a></p>';
    const saved = dataOf(await gql('mutation B($byline: String!) { articleUserByline(byline: $byline) { id byline } }', { byline }, ada)).articleUserByline;
    t.equal(saved.byline, byline);
    t.same(dataOf(await gql('{ articleUserSetting { id byline } }', {}, ada)), { articleUserSetting: saved });
    const twoLines = dataOf(await gql('mutation B($byline: String!) { articleUserByline(byline: $byline) { id byline } }', { byline: '<p>Founder of<br>Acme</p>\n<p>and more</p>' }, ada)).articleUserByline;
    t.equal(twoLines.byline, '<p>Founder of Acme and more</p>', 'line breaks fold into spaces: one line, as Enter is blocked');
    t.equal(dataOf(await gql('mutation B($byline: String!) { articleUserByline(byline: $byline) { id byline } }', { byline }, ada)).articleUserByline.byline, byline);
  });

  await t.test('another member of the community can neither read nor edit the article: NotFound', async (t) => {
    const id = String(articleId);
    for (const [query, variables] of [
      [FEEDBACK_PAGE, { articleId: id }],
      [FEEDBACK_CREATE, { articleId: id, feedback: 'Nice' }],
      [AUTOSAVE, { articleId: id, title: 'Mine now', content: words(3) }],
      [SEND, { articleId: id, title: 'Mine now', content: words(500), agreed: true }],
      [APPROVE, { id, agreed: true }],
    ] as const) {
      const res = await gql(query, variables, stranger);
      t.equal(errorOf(res).extensions.code, 'NotFound', query.split('(')[0]!);
      t.equal(res.statusCode, 404);
    }
    t.equal(dataOf(await gql('{ articleInFlight { id } }', {}, stranger)).articleInFlight, null, 'and it is not their article in flight');
    t.equal(dataOf(await gql('{ articleInFlight { currentRevision { title } } }', {}, ada)).articleInFlight.currentRevision.title, 'My story, v2', 'the text is untouched');
  });

  await t.test('a member of another community cannot see it, and an alpha cookie is signed out on beta', async (t) => {
    const id = String(articleId);
    t.equal(errorOf(await gql(FEEDBACK_PAGE, { articleId: id }, betaBrowser)).extensions.code, 'NotFound');
    t.equal(errorOf(await gql(AUTOSAVE, { articleId: id, title: 't', content: words(3) }, betaBrowser)).extensions.code, 'NotFound');
    t.equal(errorOf(await gql(FEEDBACK_CREATE, { articleId: id, feedback: 'Hello' }, betaBrowser)).extensions.code, 'NotFound');
    t.equal(errorOf(await admin(`query A($id: ID!) { article(id: $id) { id } }`, { id }, betaStaff)).extensions.code, 'NotFound', 'nor beta’s staff');
    t.same(dataOf(await admin('{ articles { id } }', {}, betaStaff)), { articles: [] }, 'beta’s board lists no alpha article');
    t.equal(errorOf(await gql('{ articleInFlight { id } }', {}, { ...ada, host: 'beta.test' })).extensions.code, 'NotAuthenticated');
  });

  await t.test('sending for review is refused without the agreement and with 499 words, naming the fields; 500 words go', async (t) => {
    const base = { articleId: String(articleId), title: 'How we grew' };
    const unagreed = await gql(SEND, { ...base, content: words(500), agreed: false }, ada);
    t.equal(unagreed.statusCode, 403);
    t.same(errorOf(unagreed).extensions, { code: 'Articles.AgreementRequired', fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });

    const short = await gql(SEND, { ...base, content: words(499), agreed: true }, ada);
    t.equal(short.statusCode, 400);
    t.same(errorOf(short).extensions, { code: 'Articles.Invalid', fields: { content: { code: 'Articles.Invalid', key: 'articles.errors.bodyTooShort' } } });

    const untitled = await gql(SEND, { ...base, title: ' ', content: words(1001), agreed: true }, ada);
    t.same(Object.keys(errorOf(untitled).extensions.fields ?? {}).sort(), ['content', 'title'], 'every failing field at once');

    const sent = dataOf(await gql(SEND, { ...base, content: words(500), agreed: true }, ada)).articleSendForReview;
    t.match(sent, { id: String(articleId), status: 'SUBMITTED_FOR_REVIEW', wordCount: 500, currentRevision: { title: 'How we grew' } });
    const scans = await db.selectFrom('copy_scans').select(['status', 'total_words']).where('article_id', '=', articleId).execute();
    t.same(scans, [{ status: 'COMPLETED', total_words: 500 }], 'submitting over GraphQL runs the copy scan, as the form does');
    t.equal(errorOf(await gql(AUTOSAVE, { ...base, content: words(3) }, ada)).extensions.code, 'Articles.NotEditable', 'no longer the author’s to edit');
  });

  await t.test('a member cannot use /graphqlAdmin, and a signed-out visitor is asked to sign in there', async (t) => {
    const res = await admin('{ articles { id } }', {}, ada);
    t.equal(res.statusCode, 403);
    t.equal(errorOf(res).extensions.code, 'Forbidden');
    const move = await admin(MOVE, { articleId: String(articleId), to: 'FIRST_ROUND_EDIT' }, ada);
    t.equal(move.statusCode, 403);
    const anonymous = await admin('{ articles { id } }');
    t.equal(anonymous.statusCode, 401);
    t.equal(errorOf(anonymous).extensions.code, 'NotAuthenticated');
  });

  await t.test('the author scans the article they submitted, and staff any article; another member may not', async (t) => {
    t.equal(errorOf(await gql(SCAN, { articleId: String(articleId) }, stranger)).extensions.code, 'NotFound');
    const before = await db.selectFrom('copy_scans').select('id').where('article_id', '=', articleId).execute();
    const own = dataOf(await gql(SCAN, { articleId: String(articleId) }, ada)).articleScanCreate;
    t.match(own, { status: 'COMPLETED', totalWords: 500 }, 'the author, once submitted');
    t.equal(own.id, String(before[0]!.id), 'the author gets the scan the submission ran: the same version is not scanned again');
    t.equal((await db.selectFrom('copy_scans').select('id').where('article_id', '=', articleId).execute()).length, 1, 'no new row');
    const scan = dataOf(await gql(SCAN, { articleId: String(articleId) }, edith)).articleScanCreate;
    t.match(scan, { status: 'COMPLETED', totalWords: 500, identicalWords: 0, aggregatedScore: 0, aiProbability: null, createdAt: '2026-11-21T12:00:00.000Z' });
    t.equal(dataOf(await admin(SCAN, { articleId: String(articleId) }, edith)).articleScanCreate.status, 'COMPLETED', 'also on /graphqlAdmin');
  });

  await t.test('the editors list it, assign an editor, move it to FIRST_ROUND_EDIT, then NEEDS_REVISION with feedback', async (t) => {
    const listed = dataOf(await admin(`{ articles(status: SUBMITTED_FOR_REVIEW) { ${ARTICLE} } }`, {}, edith)).articles;
    t.same(
      listed.map((a: { id: string }) => a.id),
      [String(articleId)],
    );
    t.equal(dataOf(await admin('{ articles(status: DRAFT) { id } }', {}, edith)).articles.length, 0);
    const assigned = dataOf(await admin('mutation A($articleId: ID!, $editorId: ID) { articleAssignEditor(articleId: $articleId, editorId: $editorId) { editor { id } } }', { articleId: articleId, editorId: editor.id }, edith));
    t.same(assigned, { articleAssignEditor: { editor: { id: String(editor.id) } } });
    const notStaff = await admin('mutation A($articleId: ID!, $editorId: ID) { articleAssignEditor(articleId: $articleId, editorId: $editorId) { id } }', { articleId, editorId: author.id }, edith);
    t.same(errorOf(notStaff).extensions.fields, { editorId: { code: 'Articles.Invalid', key: 'articles.errors.editorNotStaff' } });

    const refused = await admin(MOVE, { articleId: String(articleId), to: 'PUBLISHED' }, edith);
    t.equal(errorOf(refused).extensions.code, 'Articles.TransitionRefused');
    t.equal(refused.statusCode, 409);

    clock.advance(60_000);
    t.match(await adminMove(articleId, 'FIRST_ROUND_EDIT'), { status: 'FIRST_ROUND_EDIT', statusUpdatedAt: '2026-11-21T12:01:00.000Z' });
    const edited = dataOf(await admin('mutation E($articleId: ID!, $title: String!, $content: String!) { articleEditText(articleId: $articleId, title: $title, content: $content) { currentRevision { title } wordCount } }', { articleId, title: 'How we grew, edited', content: words(510) }, edith));
    t.same(edited, { articleEditText: { currentRevision: { title: 'How we grew, edited' }, wordCount: 510 } });
    const revisions = dataOf(await admin('query R($articleId: ID!) { articleRevisions(articleId: $articleId) { id title wordCount author { id } createdAt } }', { articleId }, edith)).articleRevisions;
    t.same(
      revisions.map((r: { author: { id: string } }) => r.author.id),
      [String(author.id), String(editor.id)],
      'the author’s revision and the editor’s, oldest first',
    );

    for (const feedback of ['Please tighten the opening.', 'And cite the figures.']) {
      clock.advance(1000);
      const remark = dataOf(await admin(FEEDBACK_CREATE, { articleId, feedback }, edith)).articleFeedbackCreate;
      t.match(remark, { remark: feedback, hasRead: true, author: { id: String(editor.id), snapshot: { name: 'Edith Editor' } } });
    }
    t.match(await adminMove(articleId, 'NEEDS_REVISION', 'See the remarks'), { status: 'NEEDS_REVISION' });
    t.match(dataOf(await admin('query A($id: ID!) { article(id: $id) { status editor { id } } }', { id: articleId }, edith)), { article: { status: 'NEEDS_REVISION', editor: { id: String(editor.id) } } });
  });

  await t.test('the member reads the feedback page by page, answers, and resubmits', async (t) => {
    const latest = dataOf(await gql(FEEDBACK_PAGE, { articleId: String(articleId), last: 1 }, ada)).articleFeedback;
    t.equal(latest.edges.length, 1);
    t.match(latest.edges[0].node, {
      remark: 'And cite the figures.',
      hasRead: false,
      createdAt: '2026-11-21T12:01:02.000Z',
      author: { id: String(editor.id), snapshot: { id: String(editor.id), name: 'Edith Editor', avatar: null } },
    });
    t.equal(latest.edges[0].cursor, latest.pageInfo.startCursor);
    t.equal(latest.pageInfo.hasPreviousPage, true);
    const earlier = dataOf(await gql(FEEDBACK_PAGE, { articleId: String(articleId), last: 1, before: latest.pageInfo.startCursor }, ada)).articleFeedback;
    t.same(
      earlier.edges.map((e: { node: { remark: string } }) => e.node.remark),
      ['Please tighten the opening.'],
    );
    t.equal(earlier.pageInfo.hasPreviousPage, false);
    t.equal(errorOf(await gql(FEEDBACK_PAGE, { articleId: String(articleId), before: 'nonsense' }, ada)).extensions.code, 'BadRequest.Validation', 'a cursor that is not ours');

    await db.updateTable('memberships').set({ avatar_url: '/static/avatars/ada.png' }).where('user_id', '=', author.id).execute();
    const answer = dataOf(await gql(FEEDBACK_CREATE, { articleId: String(articleId), feedback: 'Done, thank you.' }, ada)).articleFeedbackCreate;
    t.match(answer, { remark: 'Done, thank you.', hasRead: true, author: { id: String(author.id), snapshot: { name: 'Ada Lovelace', avatar: '/static/avatars/ada.png' } } });
    const empty = await gql(FEEDBACK_CREATE, { articleId: String(articleId), feedback: '   ' }, ada);
    t.same(errorOf(empty).extensions.fields, { feedback: { code: 'Articles.Invalid', key: 'articles.errors.feedbackEmpty' } });
    const all = dataOf(await gql(FEEDBACK_PAGE, { articleId: String(articleId) }, ada)).articleFeedback;
    t.same(
      all.edges.map((e: { node: { remark: string } }) => e.node.remark),
      ['Please tighten the opening.', 'And cite the figures.', 'Done, thank you.'],
      'oldest first',
    );
    t.equal(all.edges[2].node.author.snapshot.avatar, '/static/avatars/ada.png', 'the writer’s picture in this community');
    t.equal(dataOf(await admin(FEEDBACK_PAGE, { articleId: String(articleId) }, edith)).articleFeedback.edges.length, 3, 'the editors read the same thread');

    // Sent again as the spec's client calls it, with no agreement argument (its own modal asked first).
    const resent = dataOf(await gql(SPEC_SEND, { articleId: String(articleId), title: 'How we grew, revised', content: words(520) }, ada)).articleSendForReview;
    t.match(resent, { status: 'SUBMITTED_FOR_REVIEW', wordCount: 520, currentRevision: { title: 'How we grew, revised' } });
  });

  await t.test('the editors take it to READY_TO_APPROVE; the member approves it with the agreement, then it is published', async (t) => {
    await adminMove(articleId, 'FIRST_ROUND_EDIT');
    await adminMove(articleId, 'FINAL_EDIT');
    t.match(await adminMove(articleId, 'READY_TO_APPROVE'), { status: 'READY_TO_APPROVE' });
    t.equal(dataOf(await gql('{ articleInFlight { status } }', {}, ada)).articleInFlight.status, 'READY_TO_APPROVE');

    t.equal(errorOf(await gql(APPROVE, { id: String(articleId), agreed: true }, stranger)).extensions.code, 'NotFound', 'only the author approves');
    const unagreed = await gql(APPROVE, { id: String(articleId), agreed: false }, ada);
    t.same(errorOf(unagreed).extensions, { code: 'Articles.AgreementRequired', fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });
    const approved = dataOf(await gql(SPEC_APPROVE, { id: String(articleId) }, ada)).articleApproveForPublishing;
    t.match(approved, { id: String(articleId), status: 'READY_TO_PUBLISH' }, 'approved as the spec’s client calls it (agreement asked by its own modal)');
    const approvals = await db.selectFrom('article_agreements').select('kind').where('article_id', '=', articleId).where('kind', '=', 'APPROVAL').execute();
    t.equal(approvals.length, 1, 'and the acknowledgement is recorded');
    t.equal(errorOf(await gql(APPROVE, { id: String(articleId), agreed: true }, ada)).extensions.code, 'Articles.TransitionRefused', 'approving twice is refused');

    t.same(dataOf(await gql('{ articleInFlight { id } articlesPendingPublication { id status } articlesPublished { id } }', {}, ada)), {
      articleInFlight: null,
      articlesPendingPublication: [{ id: String(articleId), status: 'READY_TO_PUBLISH' }],
      articlesPublished: [],
    });

    clock.advance(60_000);
    await adminMove(articleId, 'PUBLISHED');
    t.same(dataOf(await gql('{ articlesPendingPublication { id } articlesPublished { id status publishedDate canView } }', {}, ada)), {
      articlesPendingPublication: [],
      articlesPublished: [{ id: String(articleId), status: 'PUBLISHED', publishedDate: '2026-11-21T12:02:02.000Z', canView: true }],
    });
  });

  await t.test('the board, the history with who and when, the allowed moves and the latest scan over /graphqlAdmin', async (t) => {
    const board = dataOf(
      await admin('{ articleBoard(search: "grew") { total tooMany nextCursor rows { title article { id status } author { id name } editor { id name } } } }', {}, edith),
    ).articleBoard;
    t.same(board, {
      total: 1,
      tooMany: false,
      nextCursor: null,
      rows: [{ title: 'How we grew, revised', article: { id: String(articleId), status: 'PUBLISHED' }, author: { id: String(author.id), name: 'Ada Lovelace' }, editor: { id: String(editor.id), name: 'Edith Editor' } }],
    });
    t.equal(dataOf(await admin('query B($m: ID) { articleBoard(memberId: $m) { total } }', { m: other.id }, edith)).articleBoard.total, 0, 'filtered by member');
    t.equal(dataOf(await admin('{ articleBoard(editorId: "none") { total } }', {}, edith)).articleBoard.total, 0, 'filtered by editor');

    const history = dataOf(await admin('query H($id: ID!) { articleStatusHistory(articleId: $id) { from to actor { id name } createdAt } }', { id: articleId }, edith)).articleStatusHistory;
    t.same(history[0], { from: 'DRAFT', to: 'SUBMITTED_FOR_REVIEW', actor: { id: String(author.id), name: 'Ada Lovelace' }, createdAt: history[0].createdAt });
    t.match(history.at(-1), { from: 'READY_TO_PUBLISH', to: 'PUBLISHED', actor: { name: 'Edith Editor' } });
    t.same(dataOf(await admin('query M($id: ID!) { articleAllowedMoves(articleId: $id) }', { id: articleId }, edith)).articleAllowedMoves, [], 'a published article goes nowhere');
    t.match(dataOf(await admin('query S($id: ID!) { articleCopyScan(articleId: $id) { status totalWords } }', { id: articleId }, edith)).articleCopyScan, { status: 'COMPLETED', totalWords: 520 }, 'the latest scan: the resubmission’s');
    t.equal(dataOf(await admin('{ articleBoard { total } }', {}, betaStaff)).articleBoard.total, 0, 'another community’s staff see none of alpha’s articles');
  });

  await t.test('an ID that is not a number is simply not found', async (t) => {
    t.equal(errorOf(await gql(FEEDBACK_PAGE, { articleId: 'abc' }, ada)).extensions.code, 'NotFound');
    t.equal(errorOf(await admin('{ article(id: "99999999999999999999") { id } }', {}, edith)).extensions.code, 'NotFound');
  });
});
