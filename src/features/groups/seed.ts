import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import type { GroupVisibility } from '#src/db/types.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';

/**
 * The demo's groups: in Summit one of each visibility (a public peer group with a lively discussion,
 * a private CFO circle, one in preview, one disabled), each with chairs; in Harbor one public group.
 * People are the members area's demo members, found by address (absent ones are skipped).
 */

type DemoGroup = { code: string; name: string; slug: string; about: string; visibility: GroupVisibility; chairs: string[]; members: string[]; posts?: { by: string; title: string; body: string; replies: [string, string][] }[] };

const S = (n: string) => `${n}@summit-demo.example.com`;
const GROUPS: DemoGroup[] = [
  {
    code: 'summit',
    name: 'Founders Peer Group',
    slug: 'founders-peer-group',
    about: 'A monthly circle of founders comparing notes on hiring, fundraising and keeping their teams well.\n\n- Meets the first Tuesday of each month\n- What is said here stays here',
    visibility: 'public',
    chairs: [S('amara.okafor')],
    members: [S('daniel.reyes'), S('ethan.nakamura'), S('hannah.feldman'), S('isabel.duarte'), S('jonah.whitaker')],
    posts: [
      {
        by: S('daniel.reyes'),
        title: 'How are you planning headcount for next year?',
        body: 'We are torn between hiring ahead of the round or waiting. What did you do last year, and would you do it again?',
        replies: [
          [S('amara.okafor'), 'We hired two senior people ahead of the round and it paid off: the round went faster because the plan was credible.'],
          [S('ethan.nakamura'), 'We waited, and regretted it. Onboarding took a quarter we did not have.'],
          [S('hannah.feldman'), 'Middle path: contractors first, then convert the ones who fit.'],
        ],
      },
      { by: S('isabel.duarte'), title: 'Board meeting cadence', body: 'Quarterly or every six weeks? Our investors are asking for more.', replies: [[S('jonah.whitaker'), 'Six weeks in the first year after a round, then quarterly.']] },
    ],
  },
  {
    code: 'summit',
    name: 'CFO Circle',
    slug: 'cfo-circle',
    about: 'Finance leaders only: budgets, audits and the numbers behind the numbers.',
    visibility: 'private',
    chairs: [S('daniel.reyes')],
    members: [S('kwame.mensah'), S('leila.haddad'), S('marcus.lindqvist')],
    posts: [{ by: S('kwame.mensah'), title: 'Audit season checklist', body: 'Sharing the checklist we use with our auditors. What would you add?', replies: [[S('daniel.reyes'), 'Revenue recognition memos, early.']] }],
  },
  { code: 'summit', name: 'Climate Founders', slug: 'climate-founders', about: 'Being set up: founders building climate companies.', visibility: 'preview', chairs: [S('mei.chen')], members: [] },
  { code: 'summit', name: 'Legacy Mentors', slug: 'legacy-mentors', about: 'An earlier mentoring group, paused.', visibility: 'disabled', chairs: [S('owen.gallagher')], members: [S('amara.okafor')] },
  { code: 'harbor', name: 'Harbor Operators', slug: 'harbor-operators', about: 'Operators of Harbor comparing playbooks.', visibility: 'public', chairs: ['aisha.bello@harbor-demo.example.com'], members: ['grace.kim@harbor-demo.example.com', 'liam.osullivan@harbor-demo.example.com'] },
];

export async function seedGroups(trx: RawDb, demo: DemoContext): Promise<void> {
  for (const g of GROUPS) {
    const communityId = demo.byCode[g.code];
    if (!communityId) continue;
    const emails = [...g.chairs, ...g.members, ...(g.posts ?? []).flatMap((p) => [p.by, ...p.replies.map((r) => r[0])])];
    const users = await trx.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
    const idOf = new Map(users.map((u) => [u.email, u.id]));
    const { id: groupId } = await trx
      .insertInto('groups')
      .values({ community_id: communityId, name: g.name, slug: g.slug, about_text: g.about, about_html: cleanRichText(textToHtml(g.about)), visibility: g.visibility, created_by: demo.adminId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const people = [...g.chairs.map((e) => [e, 'chair'] as const), ...g.members.map((e) => [e, 'member'] as const)].filter(([e]) => idOf.has(e));
    if (people.length) await trx.insertInto('group_members').values(people.map(([e, role]) => ({ community_id: communityId, group_id: groupId, user_id: idOf.get(e)!, role, added_by: demo.adminId }))).execute();
    await trx.insertInto('group_actions').values({ community_id: communityId, group_id: groupId, actor_id: demo.adminId, action: 'created', detail: `${g.name} (${g.visibility})` }).execute();
    let minutes = 60 * 24 * 5;
    for (const p of g.posts ?? []) {
      const author = idOf.get(p.by);
      if (!author) continue;
      const at = (m: number) => new Date(Date.now() - m * 60_000);
      const { id: postId } = await trx
        .insertInto('forum_posts')
        .values({ community_id: communityId, group_id: groupId, author_id: author, title: p.title, body_html: cleanRichText(textToHtml(p.body)), body_text: p.body, status: 'published', created_at: at(minutes), last_activity_at: at(minutes - p.replies.length * 60) })
        .returning('id')
        .executeTakeFirstOrThrow();
      let n = 0;
      for (const [by, body] of p.replies) {
        const replier = idOf.get(by);
        if (!replier) continue;
        n++;
        await trx.insertInto('forum_replies').values({ community_id: communityId, post_id: postId, author_id: replier, body_html: cleanRichText(textToHtml(body)), body_text: body, status: 'published', created_at: at(minutes - n * 60) }).execute();
      }
      await trx.updateTable('forum_posts').set({ reply_count: n }).where('id', '=', postId).execute();
      // As the forum's services do: whoever writes or replies follows the post.
      const followers = [...new Set([author, ...p.replies.map(([by]) => idOf.get(by)).filter((u): u is number => u !== undefined)])];
      await trx.insertInto('forum_follows').values(followers.map((user_id) => ({ community_id: communityId, post_id: postId, user_id }))).execute();
      minutes -= 60 * 24;
    }
  }
}
