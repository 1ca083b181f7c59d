import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { MemberTab } from './rules.ts';
import type { RoundupLink } from './types.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/**
 * The member side's shared reads (questions.ts, answers.ts, the invitation page): a member's answer
 * rows with their question, batch and panel, tenant-scoped on both the answer and the question; the
 * published roundup an answer is in as one JSON column; the tabs' conditions. Nothing here queries
 * inside a loop: a page of questions is one statement, its tab counts one more.
 */

/** The live address of a published roundup (an application path). */
export const roundupPath = (slug: string) => `/expert-panels/roundups/${encodeURIComponent(slug)}`;

/** The member's question page. */
export const questionPath = (questionId: number) => `/expert-panels/${questionId}`;

/** A member's answers (`a`) with their question (`q`), batch (`b`) and panel (`p`), in one community. */
export function memberAnswers(db: Db, community: Tenant, userId: number) {
  return selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('ep_questions as q', 'q.id', 'a.question_id')
    .innerJoin('ep_batches as b', 'b.id', 'q.batch_id')
    .innerJoin('ep_panels as p', 'p.id', 'q.panel_id')
    .where('q.community_id', '=', community.id)
    .where('a.user_id', '=', userId);
}

type RoundupJson = { title: string; slug: string };

/** The published (FINAL) roundup answer `a` is in, newest first, as JSON; read with `roundupFromJson`. */
export function roundupJsonColumn(community: Tenant) {
  return sql<RoundupJson | string | null>`(select json_build_object('title', r.title, 'slug', r.slug)
    from ep_roundup_answers ra join ep_roundups r on r.id = ra.roundup_id
    where ra.answer_id = a.id and ra.community_id = ${community.id} and r.community_id = ${community.id} and r.status = 'FINAL' and r.slug is not null
    order by r.published_at desc nulls last, r.id desc limit 1)`;
}

export function roundupFromJson(v: RoundupJson | string | null | undefined): RoundupLink | null {
  if (v == null) return null;
  const r = jsonValue<RoundupJson>(v);
  return r && typeof r.slug === 'string' ? { title: r.title, path: roundupPath(r.slug) } : null;
}

/** a.sent_at in UTC with microseconds, for the keyset cursor. */
export const sentKeyColumn = () => sql<string>`to_char(a.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The answer is in a published roundup. */
const publishedExists = (community: Tenant) =>
  sql<boolean>`exists (select 1 from ep_roundup_answers ra join ep_roundups r on r.id = ra.roundup_id
    where ra.answer_id = a.id and ra.community_id = ${community.id} and r.community_id = ${community.id} and r.status = 'FINAL')`;

/** Which of a member's answers a tab holds (rules.ts MEMBER_TABS). */
export function tabCondition(tab: MemberTab, community: Tenant) {
  switch (tab) {
    case 'open':
      // Not yet answered, on a question that still takes answers (marked can't answer or ignored included: they may still answer).
      return sql<boolean>`a.status in ('open', 'cant_answer', 'ignored') and q.closed_at is null`;
    case 'in-review':
      return sql<boolean>`a.status = 'submitted'`;
    case 'answered':
      return sql<boolean>`a.status in ('accepted', 'declined')`;
    case 'published':
      return sql<boolean>`a.status = 'accepted' and ${publishedExists(community)}`;
  }
}

/**
 * The number of a member's questions in every tab, in one statement: their answers and the questions'
 * closed mark only (a question's batch and panel always exist, so counting needs no more joins).
 */
export async function tabCounts(db: Db, community: Tenant, userId: number): Promise<Record<MemberTab, number>> {
  const row = await selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('ep_questions as q', 'q.id', 'a.question_id')
    .where('q.community_id', '=', community.id)
    .where('a.user_id', '=', userId)
    .select([
      sql<string>`count(*) filter (where ${tabCondition('open', community)})`.as('open'),
      sql<string>`count(*) filter (where ${tabCondition('in-review', community)})`.as('in_review'),
      sql<string>`count(*) filter (where ${tabCondition('answered', community)})`.as('answered'),
      sql<string>`count(*) filter (where ${tabCondition('published', community)})`.as('published'),
    ])
    .executeTakeFirst();
  return { open: Number(row?.open ?? 0), 'in-review': Number(row?.in_review ?? 0), answered: Number(row?.answered ?? 0), published: Number(row?.published ?? 0) };
}
