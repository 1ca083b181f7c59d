import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import { activeMembersOf, SNAPSHOT_COLUMNS, toSnapshot } from '#src/features/members/index.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import type { ForumDeps } from './deps.ts';
import { MENTIONS_MAX } from './rules.ts';
import { readsGroup } from './scope.ts';

/**
 * @mentions: `@username` in a post or reply names an active member of the community (users.username,
 * compared without case). The stored HTML links each to the member's profile, and each mentioned
 * member (at most MENTIONS_MAX per text, the author never) is notified once the text is published.
 */

/** `@` not preceded by a word character (so e-mail addresses are not mentions); a username ends on a letter, digit or `_`. */
const MENTION = /(^|[^\w@./-])@([A-Za-z0-9_](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9_])?)/g;

/** The distinct usernames a text mentions (lowercase, in order of appearance), at most MENTIONS_MAX. */
export function mentionTokens(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    seen.add(m[2]!.toLowerCase());
    if (seen.size >= MENTIONS_MAX) break;
  }
  return [...seen];
}

/** The mentioned members, by lowercase username (one query). */
export async function resolveMentions(db: Db, community: Tenant, text: string, groupId: number | null = null): Promise<Map<string, MemberSnapshot>> {
  const names = mentionTokens(text);
  const out = new Map<string, MemberSnapshot>();
  if (names.length === 0) return out;
  let q = activeMembersOf(db, community)
    .select([...SNAPSHOT_COLUMNS, sql<string>`lower(users.username)`.as('handle')])
    .where(sql<string>`lower(users.username)`, 'in', names);
  // In a group's discussion only those of the group's people who may read it are mentioned (linked,
  // told), by the groups area's rule (a preview group's chairs; nobody in a disabled one): nobody else hears of it.
  if (groupId != null) q = q.where(readsGroup(community, groupId, 'users.id'));
  const rows = await q.execute();
  for (const r of rows) out.set(r.handle, toSnapshot(r));
  return out;
}

/** The members a text mentions (the contract's `mentionsIn`). */
export async function mentionsIn(deps: Pick<ForumDeps, 'db' | 'community'>, text: string): Promise<MemberSnapshot[]> {
  return [...(await resolveMentions(deps.db, deps.community, text)).values()];
}

/**
 * Turns the resolved mentions of sanitised HTML into profile links (`/profile/{id}`), in text only:
 * never inside a tag or an existing link. Unknown usernames stay plain text.
 */
export function linkMentions(html: string, members: Map<string, MemberSnapshot>): string {
  if (members.size === 0) return html;
  let inLink = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        if (/^<a[\s>]/i.test(part)) inLink++;
        else if (/^<\/a\s*>/i.test(part)) inLink = Math.max(0, inLink - 1);
        return part;
      }
      if (inLink > 0) return part;
      return part.replace(MENTION, (whole, before: string, name: string) => {
        const m = members.get(name.toLowerCase());
        return m ? `${before}<a href="/profile/${m.id}">@${name}</a>` : whole;
      });
    })
    .join('');
}

/**
 * Notifies the members a published text mentions (kind 'forum'), except the author and anyone in
 * `skip` (e.g. followers who already hear of the reply). Inside the event's transaction.
 */
export async function notifyMentions(
  trx: Db,
  deps: ForumDeps,
  input: { authorId: number; authorName: string; title: string; url: string; text: string; skip?: ReadonlySet<number>; groupId?: number | null },
): Promise<number[]> {
  const members = await resolveMentions(trx, deps.community, input.text, input.groupId ?? null);
  const notified: number[] = [];
  const createdAt = deps.clock.now();
  for (const m of members.values()) {
    if (m.id === input.authorId || input.skip?.has(m.id)) continue;
    await deps.notifier.notify(trx, {
      communityId: deps.community.id,
      userId: m.id,
      kind: 'forum',
      url: input.url,
      message: deps.t('forum.notify.mentioned', { name: input.authorName, title: input.title }),
      createdAt,
    });
    notified.push(m.id);
  }
  return notified;
}

/**
 * Stored mention links are application paths (`/profile/{id}`); under a path prefix (BASE_PATH) a view
 * shows the HTML through this, so that the links lead inside the prefix.
 */
export function mentionLinksUnder(html: string, basePath: string): string {
  return basePath ? html.replace(/<a href="\/profile\//g, `<a href="${basePath}/profile/`) : html;
}

/**
 * After an edit of a published text: notifies the members the new text mentions and the old one did
 * not (each once; the author never). Inside the edit's transaction.
 */
export async function notifyNewMentions(trx: Db, deps: ForumDeps, input: { authorId: number; title: string; url: string; before: string; after: string; groupId?: number | null }): Promise<number[]> {
  const before = await resolveMentions(trx, deps.community, input.before, input.groupId ?? null);
  const author = await trx.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', input.authorId).executeTakeFirst();
  return notifyMentions(trx, deps, {
    authorId: input.authorId,
    authorName: author ? `${author.first_name} ${author.last_name}`.trim() : '',
    title: input.title,
    url: input.url,
    text: input.after,
    skip: new Set([...before.values()].map((m) => m.id)),
    groupId: input.groupId ?? null,
  });
}
