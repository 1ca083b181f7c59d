import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import t from 'tap';
import type { Database } from '#src/db/types.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { freshDatabase } from '#test/helpers/db.ts';
import { createCommunity } from '#test/helpers/factories.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The files allowed to call `crossCommunity(db)`, each with the query of docs/architecture.md's
 * "Queries that cross communities (the named few)" it makes (`named` is that bullet's bold name).
 * A new cross-community query is a design change: name it there first, then here.
 */
const ALLOWED: { file: string; named: string; reason: string }[] = [
  { file: 'src/features/seed.ts', named: 'The demo seed', reason: 'writes the demo communities in one transaction' },
  { file: 'src/features/auth/account.ts', named: 'Signing in', reason: 'finds the person by email and whether they hold ADMIN anywhere, before a community is chosen' },
  { file: 'src/features/auth/passwords.ts', named: "A person's password", reason: 'a new password spends the person’s unused reset links in every community' },
  { file: 'src/features/communities/queries.ts', named: 'The community of a request', reason: 'finds the community by host name (community_hosts) or code' },
  { file: 'src/features/communities/admin.ts', named: 'The community of a request', reason: 'a new host name must not belong to another community' },
  { file: 'src/features/communities/site-staff.ts', named: 'What a staff member administers', reason: 'the communities where the admin holds ADMIN' },
  { file: 'src/features/members/admin.ts', named: "The staff's members area", reason: 'the cross-brand list and its filters, and the communities the admin administers' },
  { file: 'src/features/members/admin-actions.ts', named: "A person's password", reason: 'a generated password ends the person’s reset links and sessions everywhere; the staff check the person’s places first' },
  { file: 'src/features/articles/publishing.ts', named: 'Scheduled jobs', reason: 'publishing due articles scans every community' },
  { file: 'src/features/articles/copy-scan/stored.ts', named: 'Scheduled jobs', reason: 'refreshing pending copy scans of every community' },
  { file: 'src/features/notifications/delivery.ts', named: 'A notification queued without its community', reason: 'a delivery job from before the community was in its data' },
  { file: 'src/features/notifications/digest.ts', named: 'Scheduled jobs', reason: 'the email digest scans due members of every community' },
  { file: 'src/features/payments/renewals/renewals.ts', named: 'Scheduled jobs', reason: 'renewals scan due subscriptions of every community' },
  { file: 'src/features/payments/renewals/dunning.ts', named: 'Scheduled jobs', reason: 'dunning scans past-due subscriptions of every community' },
  { file: 'src/features/payments/stale-charges.ts', named: 'Scheduled jobs', reason: 'stale pending charges of every community' },
  { file: 'src/features/expert-panels/invite/invitations.ts', named: 'Scheduled jobs', reason: "expert panels' reminders scan every community" },
];

/** Every .ts/.tsx file under `dir`, relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** `file:line` of every `crossCommunity(` call in src/ (not its definition, not in a comment). */
function crossCommunityCalls(): { file: string; line: number; text: string }[] {
  const calls = [];
  for (const file of sourceFiles('src')) {
    if (file === 'src/db/tenancy.ts') continue;
    const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    for (const [i, text] of lines.entries()) {
      const code = text.replace(/\/\/.*$/, '');
      if (/^\s*(\*|\/\*)/.test(code)) continue;
      if (/\bcrossCommunity\s*\(/.test(code)) calls.push({ file, line: i + 1, text: text.trim() });
    }
  }
  return calls;
}

t.test('crossCommunity is called only by the named few (docs/architecture.md)', async (t) => {
  const section = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8').split(/^## Queries that cross communities \(the named few\)$/m)[1]?.split(/^## /m)[0];
  t.ok(section, 'docs/architecture.md has the section "Queries that cross communities (the named few)"');
  const named = new Set([...(section ?? '').matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]));
  for (const entry of ALLOWED) t.ok(named.has(entry.named), `${entry.file}: "${entry.named}" is one of the named few`);

  const allowed = new Set(ALLOWED.map((e) => e.file));
  const calls = crossCommunityCalls();
  t.ok(calls.length > 0, 'the search finds the calls (the demo seed has one)');
  const outside = calls.filter((c) => !allowed.has(c.file));
  t.same(
    outside.map((c) => `${c.file}:${c.line}: ${c.text}`),
    [],
    'no crossCommunity call outside the allow-list: name the query in docs/architecture.md and ALLOWED, or scope it with the tenancy helpers',
  );
});

t.test('the tenancy helpers scope every read and write to the tenant', async (t) => {
  const { db, drop } = await freshDatabase();
  t.teardown(drop);
  const a = await createCommunity(db, { code: 'tenant-a' });
  const b = await createCommunity(db, { code: 'tenant-b' });

  await insertInCommunity(db, 'forum_topics', a, [{ name: 'A one' }, { name: 'A two' }]).execute();
  // The tenant's id wins over a community_id the values might carry.
  await insertInCommunity(db, 'forum_topics', b, { name: 'B one', community_id: a.id } as never).execute();

  const names = async (community: { id: number }) =>
    (await selectInCommunity(db, 'forum_topics', community).select('name').orderBy('name').execute()).map((r) => r.name);
  t.same(await names(a), ['A one', 'A two'], 'insertInCommunity and selectInCommunity: A sees its own rows');
  t.same(await names(b), ['B one'], "B sees only its own, even when the values named A's id");

  const aliased = await selectInCommunityAs(db, 'forum_topics', 't', b).select('t.name').execute();
  t.same(aliased.map((r) => r.name), ['B one'], 'selectInCommunityAs scopes by the alias');

  const updated = await updateInCommunity(db, 'forum_topics', a).set({ position: 7 }).executeTakeFirst();
  t.equal(Number(updated.numUpdatedRows), 2, "updateInCommunity changes A's two rows");
  const raw = db as unknown as Kysely<Database>;
  const rows = await raw.selectFrom('forum_topics').select(['community_id', 'position']).where('community_id', 'in', [a.id, b.id]).execute();
  t.same(
    rows.filter((r) => r.position === 7).map((r) => r.community_id),
    [a.id, a.id],
    "and not B's",
  );

  const deleted = await deleteInCommunity(db, 'forum_topics', b).executeTakeFirst();
  t.equal(Number(deleted.numDeletedRows), 1, "deleteInCommunity removes B's one row");
  t.same(await names(a), ['A one', 'A two'], "A's rows stay");
  t.same(await names(b), [], "B's are gone");
});
