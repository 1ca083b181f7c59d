import t from 'tap';
import { AppError } from '#src/core/errors.ts';
import { INVITE_TTL_MS } from '#src/features/expert-panels/rules.ts';
import { invitationExpiry, invitationPath, readInvitation, resolveInvitation, verifyInvitation } from '#src/features/expert-panels/invite/links.ts';

const SECRET = 'test-secret-0123456789-0123456789-abcdef';
const now = new Date('2026-11-21T12:00:00Z');
const link = (over: Partial<{ communityId: number; userId: number; questionIds: number[]; expiresAt: Date }> = {}) =>
  invitationPath(SECRET, { communityId: 1, userId: 7, questionIds: [3, 1, 2], expiresAt: invitationExpiry(now), ...over });
const query = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams) as Record<string, string>;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

t.test('signed invitation links', async (t) => {
  await t.test('a link names the questions, the member, its expiry and a signature, and verifies', async (t) => {
    const path = link();
    t.match(path, /^\/expert-panels\/invite\?ids=1,2,3&m=7&exp=\d+&sig=[\w-]{43}$/, 'the shape of the address; ids once each, in order');
    const read = verifyInvitation(SECRET, 1, query(path), now);
    t.same(read.questionIds, [1, 2, 3]);
    t.equal(read.userId, 7);
    t.equal(read.expiresAt.getTime(), Math.floor((now.getTime() + INVITE_TTL_MS) / 1000) * 1000);
    t.equal(read.expired, false);
  });

  await t.test('missing ids is the missing-argument error', async (t) => {
    const q = query(link());
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, ids: undefined }, now)), 'ExpertPanels.InviteMissingIds');
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, ids: '' }, now)), 'ExpertPanels.InviteMissingIds');
  });

  await t.test('a tampered link does not verify: ids, member, expiry or signature changed', async (t) => {
    const q = query(link());
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, ids: '1,2,3,4' }, now)), 'ExpertPanels.InviteLoadFailed', 'a question added');
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, ids: '1,2' }, now)), 'ExpertPanels.InviteLoadFailed', 'a question taken away');
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, exp: String(Number(q.exp) + 86_400) }, now)), 'ExpertPanels.InviteLoadFailed', 'a later expiry');
    const flipped = (q.sig![0] === 'A' ? 'B' : 'A') + q.sig!.slice(1);
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, sig: flipped }, now)), 'ExpertPanels.InviteLoadFailed', 'another signature');
    t.equal(codeOf(() => readInvitation('another-secret-0123456789-0123456789', 1, q, now)), 'ExpertPanels.InviteLoadFailed', 'another key');
  });

  await t.test('another member’s link: the member changed in the address does not verify', async (t) => {
    const q = query(link({ userId: 7 }));
    t.equal(codeOf(() => readInvitation(SECRET, 1, { ...q, m: '8' }, now)), 'ExpertPanels.InviteLoadFailed');
  });

  await t.test('another community’s link does not verify here', async (t) => {
    const q = query(link({ communityId: 2 }));
    t.equal(codeOf(() => readInvitation(SECRET, 1, q, now)), 'ExpertPanels.InviteLoadFailed');
    t.ok(readInvitation(SECRET, 2, q, now), 'it does in its own community');
  });

  await t.test('an expired link is read as expired; verifying refuses it', async (t) => {
    const q = query(link({ expiresAt: new Date(now.getTime() - 1000) }));
    t.equal(readInvitation(SECRET, 1, q, now).expired, true);
    t.equal(codeOf(() => verifyInvitation(SECRET, 1, q, now)), 'ExpertPanels.InviteLoadFailed');
    const later = query(link());
    t.equal(codeOf(() => verifyInvitation(SECRET, 1, later, new Date(now.getTime() + INVITE_TTL_MS + 1000))), 'ExpertPanels.InviteLoadFailed', 'a link is good for INVITE_TTL_MS');
  });

  await t.test('hostile values are the load error, never a crash', async (t) => {
    const q = query(link());
    for (const bad of [
      { ...q, ids: '1,,2' },
      { ...q, ids: '0' },
      { ...q, ids: '-1' },
      { ...q, ids: '99999999999' },
      { ...q, ids: Array.from({ length: 51 }, (_, i) => i + 1).join(',') },
      { ...q, ids: ['1', '2'] },
      { ...q, m: 'x' },
      { ...q, m: '\u0000' },
      { ...q, exp: '1e9' },
      { ...q, sig: 'short' },
      { ...q, sig: 'x'.repeat(10_000) },
      { ...q, sig: undefined },
    ]) {
      t.equal(codeOf(() => readInvitation(SECRET, 1, bad, now)), 'ExpertPanels.InviteLoadFailed', JSON.stringify(bad).slice(0, 80));
    }
  });

  await t.test('who may act: the member signed in (even expired), a visitor with a valid link; nobody else', async (t) => {
    const valid = query(link());
    const expired = query(link({ expiresAt: new Date(now.getTime() - 1000) }));
    const as = (input: Record<string, string>, userId: number | null) => resolveInvitation(SECRET, 1, input, now, userId);
    t.match(as(valid, null), { ok: true, via: 'link' }, 'signed out, the link authorises');
    t.match(as(valid, 7), { ok: true, via: 'session' }, 'the member signed in');
    t.match(as(expired, 7), { ok: true, via: 'session' }, 'the member signed in, with an expired link');
    const other = as(valid, 8);
    t.equal(other.ok, false, 'another member signed in');
    if (!other.ok) {
      t.equal(other.error.code, 'ExpertPanels.InviteLoadFailed');
      t.ok(other.link, 'the link itself held');
    }
    const late = as(expired, null);
    t.equal(late.ok, false, 'signed out with an expired link');
    if (!late.ok) t.ok(late.link, 'signing in would do');
    const tampered = as({ ...valid, m: '8' }, null);
    t.equal(tampered.ok, false);
    if (!tampered.ok) t.equal(tampered.link, null, 'a tampered link: nothing to sign in for');
  });
});
