import type { RawDb } from '#src/db/index.ts';
import type { Insertable } from 'kysely';
import type { Database } from '#src/db/types.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { REACTIONS } from './rules.ts';
import { MENTION_REPLY, SEED_POSTS, SEED_REPLIES, SEED_TOPICS, type SeedPost } from './seed-content.ts';

/**
 * Summit's demo forum (issue 14, "Demo data"): topics (one archived), about forty posts over the past
 * four months by many members, with replies (one thread long enough to page), likes, reactions and
 * follows; one pinned post, one locked, one approved after waiting, two waiting for approval (by the
 * newest member, and Amara's newest, for her home page's open items), one reported by two members
 * (two open reports), and one reply that mentions Amara. Harbor's forum
 * stays off. Written as the services would have written it, counts included (reply_count and
 * like_count equal the rows), in one insert per table: the test suite seeds the demo many times.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Member = { id: number; username: string; joinedAt: number };
type Row<T extends keyof Database> = Insertable<Database[T]>;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A post's body as the editor stores it: paragraphs, a list, a link, the question in bold. */
function postHtml(p: SeedPost): string {
  const parts = [`<p>${escapeHtml(p.lead)}</p>`];
  if (p.points?.length) parts.push(`<ul>${p.points.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>`);
  if (p.link) parts.push(`<p>More in <a href="${escapeHtml(p.link.href)}">${escapeHtml(p.link.text)}</a>.</p>`);
  parts.push(p.close.endsWith('?') ? `<p><strong>${escapeHtml(p.close)}</strong></p>` : `<p>${escapeHtml(p.close)}</p>`);
  return parts.join('');
}

/** A mention as the forum service stores it: a link to the member's profile, the text kept. */
function withMention(text: string, username: string, userId: number): string {
  return `<p>${escapeHtml(text).replace(`@${username}`, `<a href="/profile/${userId}">@${username}</a>`)}</p>`;
}

const SPECIAL_REPLIES: Record<string, { author: string; text: string; index: number }> = {
  'How are you planning for 2027? Share your process': { author: 'priya.raman', text: MENTION_REPLY, index: 3 },
  'Exclusive for Summit members: 40% off our pantry gift boxes': {
    author: 'daniel.reyes',
    text: 'A reminder from the moderators: offers to members belong in the member benefits programme, not in the forum. Isaac, the concierge can help you list this there.',
    index: 0,
  },
};

export async function seedForum(trx: RawDb, ctx: { byCode: Record<string, number>; adminId: number; now?: Date }): Promise<void> {
  const summit = ctx.byCode.summit;
  if (summit === undefined) return;
  const now = (ctx.now ?? new Date()).getTime();

  const rows = await trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.username', 'memberships.joined_at', 'memberships.is_active', 'memberships.gate'])
    .where('memberships.community_id', '=', summit)
    .execute();
  const byName = new Map<string, Member>();
  const members: Member[] = [];
  for (const r of rows) {
    const m = { id: r.id, username: r.username ?? '', joinedAt: new Date(r.joined_at).getTime() };
    byName.set(m.username, m);
    // Who replies, likes and reacts: active members past onboarding, not staff.
    if (r.is_active && r.gate === 'app' && r.id !== ctx.adminId) members.push(m);
  }
  members.sort((a, b) => a.id - b.id);
  const user = (username: string) => {
    const m = username === 'admin' ? { id: ctx.adminId, username, joinedAt: 0 } : byName.get(username);
    if (!m) throw new Error(`The forum seed needs the demo member ${username}`);
    return m;
  };

  const topics = await trx
    .insertInto('forum_topics')
    .values(SEED_TOPICS.map((tp, i) => ({ community_id: summit, name: tp.name, position: i, archived_at: tp.archived ? new Date(now - 100 * DAY) : null, created_at: new Date(now - 125 * DAY) })))
    .returning(['id', 'name'])
    .execute();
  const topicId = new Map(topics.map((tp) => [tp.name, tp.id]));

  // Plan every post and its replies in memory first, so that the counts are known before the inserts.
  type PlannedReply = { postIndex: number; authorId: number; html: string; text: string; at: number };
  const replies: PlannedReply[] = [];
  const planned = SEED_POSTS.map((p, postIndex) => {
    const author = user(p.author);
    // Never before the author joined (the newest members joined days ago).
    const createdAt = Math.max(now - p.daysAgo * DAY - (postIndex % 7) * HOUR, author.joinedAt + DAY);
    const pool = members.filter((m) => m.joinedAt < createdAt && m.id !== author.id);
    const span = Math.min(10 * DAY, now - createdAt - HOUR);
    const special = SPECIAL_REPLIES[p.title];
    let last = createdAt;
    for (let i = 0; i < p.replies; i++) {
      const at = createdAt + Math.round(((i + 1) * span) / (p.replies + 1));
      let replier = pool[(postIndex * 7 + i * 11) % pool.length]!;
      let text = SEED_REPLIES[(postIndex * 3 + i) % SEED_REPLIES.length]!;
      let html = `<p>${escapeHtml(text)}</p>`;
      if (special && special.index === i) {
        replier = user(special.author);
        text = special.text;
        const amara = user('amara.okafor');
        html = text.includes('@amara.okafor') ? withMention(text, 'amara.okafor', amara.id) : `<p>${escapeHtml(text)}</p>`;
      }
      replies.push({ postIndex, authorId: replier.id, html, text: plainText(html).trim(), at });
      last = at;
    }
    const likers = Array.from({ length: Math.min(p.likes, pool.length) }, (_, k) => pool[(postIndex * 5 + k * 3) % pool.length]!);
    return { post: p, author, createdAt, lastActivity: last, likers: [...new Map(likers.map((m) => [m.id, m])).values()], pool };
  });

  const adminAt = (i: number, hours: number) => new Date(planned[i]!.createdAt + hours * HOUR);
  const index = (state: SeedPost['state']) => SEED_POSTS.findIndex((p) => p.state === state);
  const [pinned, locked, approved, reported] = (['pinned', 'locked', 'approved', 'reported'] as const).map(index) as [number, number, number, number];

  const posts = await trx
    .insertInto('forum_posts')
    .values(
      planned.map((x, i): Row<'forum_posts'> => {
        const html = postHtml(x.post);
        return {
          community_id: summit,
          author_id: x.author.id,
          title: x.post.title,
          body_html: html,
          body_text: plainText(html).replace(/\s+/g, ' ').trim(),
          status: x.post.state === 'pending' ? 'pending' : 'published',
          reply_count: x.post.replies,
          like_count: x.likers.length,
          report_count: x.post.state === 'reported' ? 2 : 0,
          last_activity_at: new Date(x.lastActivity),
          pinned_at: i === pinned ? adminAt(i, 1) : null,
          locked_at: i === locked ? new Date(x.lastActivity + DAY) : null,
          moderated_by: i === approved ? ctx.adminId : null,
          moderated_at: i === approved ? adminAt(i, 3) : null,
          created_at: new Date(x.createdAt),
        };
      }),
    )
    .returning(['id', 'title'])
    .execute();
  const postId = (i: number) => {
    const row = posts[i]!;
    if (row.title !== SEED_POSTS[i]!.title) throw new Error('The forum seed lost the order of its posts');
    return row.id;
  };

  await trx
    .insertInto('forum_post_topics')
    .values(SEED_POSTS.flatMap((p, i) => p.topics.map((name) => ({ post_id: postId(i), topic_id: topicId.get(name)!, community_id: summit }))))
    .execute();

  // A reply's likes follow a fixed pattern: most replies get a few, some none.
  const REPLY_LIKES = [0, 1, 0, 2, 3, 0, 1, 4];
  const replyLikers = (k: number, r: PlannedReply) => {
    const pool = planned[r.postIndex]!.pool.filter((m) => m.id !== r.authorId);
    const n = Math.min(REPLY_LIKES[(k + r.postIndex) % REPLY_LIKES.length]!, pool.length);
    return [...new Set(Array.from({ length: n }, (_, j) => pool[(k * 13 + j * 7) % pool.length]!.id))];
  };
  const replyRows = replies.length
    ? await trx
        .insertInto('forum_replies')
        .values(
          replies.map((r, k) => ({
            community_id: summit,
            post_id: postId(r.postIndex),
            author_id: r.authorId,
            body_html: r.html,
            body_text: r.text,
            like_count: replyLikers(k, r).length,
            created_at: new Date(r.at),
          })),
        )
        .returning(['id', 'post_id', 'author_id'])
        .execute()
    : [];

  const likes: Row<'forum_likes'>[] = [];
  const reactions: Row<'forum_reactions'>[] = [];
  const follows = new Map<string, Row<'forum_follows'>>();
  const follow = (postIndex: number, userId: number, at: number) => {
    const id = postId(postIndex);
    if (!follows.has(`${id}:${userId}`)) follows.set(`${id}:${userId}`, { community_id: summit, post_id: id, user_id: userId, created_at: new Date(at) });
  };
  planned.forEach((x, i) => {
    const id = postId(i);
    follow(i, x.author.id, x.createdAt);
    x.likers.forEach((m, k) => {
      const at = new Date(Math.min(x.createdAt + (k + 1) * 2 * HOUR, now - HOUR));
      likes.push({ community_id: summit, target_kind: 'post', target_id: id, user_id: m.id, created_at: at });
      // About a third of those who like a post also react to it.
      if (k % 3 === 0) reactions.push({ community_id: summit, target_kind: 'post', target_id: id, user_id: m.id, reaction: REACTIONS[(i + k) % REACTIONS.length]!, created_at: at });
    });
  });
  replyRows.forEach((row, k) => {
    const r = replies[k]!;
    if (row.author_id !== r.authorId || row.post_id !== postId(r.postIndex)) throw new Error('The forum seed lost the order of its replies');
    follow(r.postIndex, r.authorId, r.at); // a replier follows the thread
    const at = new Date(Math.min(r.at + HOUR, now - 60_000));
    replyLikers(k, r).forEach((userId, j) => {
      likes.push({ community_id: summit, target_kind: 'reply', target_id: row.id, user_id: userId, created_at: at });
      if (j === 0 && k % 3 === 0) reactions.push({ community_id: summit, target_kind: 'reply', target_id: row.id, user_id: userId, reaction: REACTIONS[k % REACTIONS.length]!, created_at: at });
    });
  });
  // Amara follows a couple of threads she has not written in.
  const amara = user('amara.okafor');
  for (const title of ['Thirteen-week cash forecast template (and how we use it)', 'Where are you actually using AI in operations?']) {
    const i = SEED_POSTS.findIndex((p) => p.title === title);
    if (i >= 0) follow(i, amara.id, planned[i]!.createdAt + DAY);
  }

  // Read tracking (decision 0065): whoever replied in a thread read it up to their last reply, its
  // author at least its start; Amara read the older threads to the end, the
  // week's up to two replies before the last, and has not opened the posts of the last ten days she
  // neither replied to nor follows: her list and her home page show "New" beside those and "2 new"
  // beside threads read to the end.
  const reads = new Map<string, Row<'forum_reads'>>();
  const markRead = (postIndex: number, userId: number, lastReplyId: number, at: number) => {
    const key = `${postIndex}:${userId}`;
    const had = reads.get(key);
    if (!had || (had.last_reply_id ?? 0) < lastReplyId) reads.set(key, { community_id: summit, post_id: postId(postIndex), user_id: userId, last_reply_id: lastReplyId, read_at: new Date(at) });
  };
  const threadOf = planned.map(() => [] as number[]);
  replyRows.forEach((row, k) => {
    const r = replies[k]!;
    threadOf[r.postIndex]!.push(row.id);
    markRead(r.postIndex, r.authorId, row.id, r.at);
  });
  planned.forEach((x, i) => {
    if (x.post.state === 'pending') return;
    markRead(i, x.author.id, 0, x.createdAt);
    if (x.author.id === amara.id) return;
    const thread = threadOf[i]!.sort((a, b) => a - b);
    if (x.createdAt > now - 10 * DAY && !follows.has(`${postId(i)}:${amara.id}`)) return; // the newest: not opened yet (a reply of hers marked it above)
    const upTo = x.lastActivity > now - 7 * DAY && thread.length >= 3 ? thread[thread.length - 3]! : (thread.at(-1) ?? 0);
    markRead(i, amara.id, upTo, Math.min(x.lastActivity, now - HOUR));
  });

  if (likes.length) await trx.insertInto('forum_likes').values(likes).execute();
  if (reactions.length) await trx.insertInto('forum_reactions').values(reactions).execute();
  await trx.insertInto('forum_follows').values([...follows.values()]).execute();
  if (reads.size) await trx.insertInto('forum_reads').values([...reads.values()]).execute();

  // Two members reported the promotional post: it is still published (the queue takes it at three).
  const reportedId = postId(reported);
  const reportedAt = planned[reported]!.createdAt;
  await trx
    .insertInto('forum_reports')
    .values([
      { community_id: summit, target_kind: 'post', target_id: reportedId, post_id: reportedId, reporter_id: user('hannah.feldman').id, reason: 'spam', description: 'A discount code for the author\u2019s own shop; the guidelines say no selling.', created_at: new Date(reportedAt + 5 * HOUR) },
      { community_id: summit, target_kind: 'post', target_id: reportedId, post_id: reportedId, reporter_id: user('william.tran').id, reason: 'off_topic', description: '', created_at: new Date(reportedAt + 9 * HOUR) },
    ])
    .execute();

  const archivedTopic = SEED_TOPICS.findIndex((tp) => tp.archived);
  await trx
    .insertInto('forum_actions')
    .values([
      { community_id: summit, actor_id: ctx.adminId, action: 'pin', target_kind: 'post', target_id: postId(pinned), note: null, created_at: adminAt(pinned, 1) },
      { community_id: summit, actor_id: ctx.adminId, action: 'approve', target_kind: 'post', target_id: postId(approved), note: null, created_at: adminAt(approved, 3) },
      {
        community_id: summit,
        actor_id: ctx.adminId,
        action: 'lock',
        target_kind: 'post',
        target_id: postId(locked),
        note: 'The conversation continues at the family-business roundtable in January.',
        created_at: new Date(planned[locked]!.lastActivity + DAY),
      },
      ...(archivedTopic >= 0
        ? [{ community_id: summit, actor_id: ctx.adminId, action: 'topic_archive', target_kind: 'topic', target_id: topicId.get(SEED_TOPICS[archivedTopic]!.name)!, note: null, created_at: new Date(now - 100 * DAY) }]
        : []),
    ])
    .execute();
}
