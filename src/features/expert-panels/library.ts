import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { LibraryFacts } from '#src/lib/library.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { livePathOf } from './roundups/read.ts';

/**
 * The expert panels' work in the community's library (the content bank): published (FINAL) roundups
 * and accepted answers, of the ids asked about, one statement each; an id that is neither is left out.
 */

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const nameOf = (first: string | null, last: string | null) => (first ? `${first} ${last ?? ''}`.trim() : '');

/**
 * Published roundups: their title, introduction, question and answers (each with its expert's name,
 * in the roundup's order), who made them, when and where they live.
 */
export async function publishedRoundupsForLibrary(db: Db, community: Tenant, ids: readonly number[]): Promise<LibraryFacts[]> {
  if (ids.length === 0) return [];
  const rows = await selectInCommunityAs(db, 'ep_roundups', 'r', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'r.question_id').onRef('q.community_id', '=', 'r.community_id'))
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select([
      'r.id',
      'r.title',
      'r.intro_html',
      'r.slug',
      'r.published_at',
      'r.updated_at',
      'r.created_by',
      'q.title as question_title',
      'u.first_name',
      'u.last_name',
      sql<{ name: string; html: string }[] | string | null>`(select json_agg(json_build_object('name', trim(coalesce(au.first_name, '') || ' ' || coalesce(au.last_name, '')), 'html', a.body_html) order by ra.position)
        from ep_roundup_answers ra join ep_answers a on a.id = ra.answer_id and a.community_id = ra.community_id left join users au on au.id = a.user_id
        where ra.community_id = r.community_id and ra.roundup_id = r.id)`.as('answers'),
    ])
    .where('r.id', 'in', [...ids])
    .where('r.status', '=', 'FINAL')
    .execute();
  return rows.map((r) => {
    const answers = r.answers == null ? [] : typeof r.answers === 'string' ? (JSON.parse(r.answers) as { name: string; html: string }[]) : r.answers;
    const html = `${r.intro_html}${answers.map((a) => `<h2>${escapeHtml(a.name)}</h2>${a.html}`).join('')}`;
    return {
      id: r.id,
      title: r.title.trim() || `#${r.id}`,
      text: `${r.question_title} ${plainText(html)}`.trim(),
      html,
      authorId: r.created_by,
      authorName: nameOf(r.first_name, r.last_name),
      publishedAt: new Date(r.published_at ?? r.updated_at),
      url: r.slug ? livePathOf(r.slug) : null,
      staffPath: `/admin/expert-panels/roundups/${r.id}`,
    };
  });
}

/**
 * Accepted answers: titled by their question, written by their expert, dated by the decision; they
 * open in the first published roundup that holds them (at the answer), else nowhere for a reader.
 */
export async function acceptedAnswersForLibrary(db: Db, community: Tenant, ids: readonly number[]): Promise<LibraryFacts[]> {
  if (ids.length === 0) return [];
  const rows = await selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.user_id',
      'a.body_text',
      'a.body_html',
      'a.decided_at',
      'a.status_at',
      'q.title as question_title',
      'u.first_name',
      'u.last_name',
      sql<string | null>`(select r.slug from ep_roundup_answers ra join ep_roundups r on r.id = ra.roundup_id and r.community_id = ra.community_id
        where ra.community_id = a.community_id and ra.answer_id = a.id and r.status = 'FINAL' and r.slug is not null order by r.published_at, r.id limit 1)`.as('roundup_slug'),
    ])
    .where('a.id', 'in', [...ids])
    .where('a.status', '=', 'accepted')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.question_title.trim() || `#${r.id}`,
    text: r.body_text,
    html: r.body_html,
    authorId: r.user_id,
    authorName: nameOf(r.first_name, r.last_name),
    publishedAt: new Date(r.decided_at ?? r.status_at),
    url: r.roundup_slug ? `${livePathOf(r.roundup_slug)}#answer-${r.id}` : null,
    staffPath: `/admin/expert-panels/answers/${r.id}`,
  }));
}
