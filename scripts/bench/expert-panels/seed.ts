// The expert-panels bench's communities, seeded with generate_series (see ../expert-panels.ts).
import { insertBenchCommunity } from '../server.ts';
import { PANEL_MEMBERS, PER_BATCH, PUBLISHED_QUESTIONS } from './shared.ts';
import { seedBenchMembers, sqlArray } from '../lib.ts';

const WORDS =
  'pricing margin retention churn onboarding referral pipeline hiring culture remote team budget forecast runway investor board advisor customer segment positioning brand launch partner channel vendor contract negotiation cash flow invoice payroll benefits equity founder operator growth experiment metric dashboard quarter roadmap feature support service quality process playbook handbook mentor network conference community newsletter content podcast webinar sponsor outreach discount bundle upsell renewal subscription annual monthly tier premium value trust review feedback survey interview story lesson mistake win risk compliance insurance legal audit office lease supplier inventory logistics'.split(
    ' ',
  );
export const words = (seed: string, count: number, salt: number) =>
  `array_to_string(array(select (${sqlArray(WORDS)})[1 + ((${seed}) * ${salt} + i * ${salt + 6}) % ${WORDS.length}] from generate_series(1, ${count}) i), ' ')`;

/** The members of a bench community: `m{g}@{code}.bench.invalid`, joined long ago. */
export const seedMembers = (db: import('#src/db/index.ts').RawDb, cid: number, code: string, count: number) => seedBenchMembers(db, cid, code, count);

/** A page community: one panel of PANEL_MEMBERS, `questions` open questions in sent batches, an answer row per question and member. */
export async function seedPageCommunity(db: import('#src/db/index.ts').RawDb, code: string, questions: number): Promise<{ cid: number; openQuestion: number }> {
  const { sql } = await import('kysely');
  const cid = await insertBenchCommunity(db, code, `Panels ${questions}`);
  await seedMembers(db, cid, code, PANEL_MEMBERS);
  const panel = await sql<{ id: number }>`insert into ep_panels (community_id, name, topic, min_words, max_words)
    values (${cid}, 'Growth', 'Pricing, retention and the first hires', 50, 300) returning id`.execute(db);
  const pid = panel.rows[0]!.id;
  await sql.raw(`insert into ep_panel_members (panel_id, user_id, community_id) select ${pid}, u.id, ${cid} from users u where u.email like '%@${code}.bench.invalid'`).execute(db);
  const batches = Math.ceil(questions / PER_BATCH);
  // Batches sent an hour apart, the newest last; deadlines from 30 days on.
  await sql
    .raw(
      `insert into ep_batches (community_id, panel_id, title, deadline_at, status, sent_at, created_at)
       select ${cid}, ${pid}, 'Batch ' || g || ': ' || initcap(${words('g', 3, 5)}), now() + interval '30 days' + g * interval '1 hour', 'sent',
              now() - (${batches} - g + 1) * interval '1 hour', now() - (${batches} - g + 2) * interval '1 hour'
       from generate_series(1, ${batches}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ep_questions (community_id, batch_id, panel_id, title, brief_html, guidelines_html, position, created_at)
       select ${cid}, b.id, ${pid}, initcap(${words('b.id * 10 + k', 9, 7)}) || '?',
              '<p>' || initcap(${words('b.id * 10 + k', 45, 11)}) || '.</p><p>' || initcap(${words('b.id * 10 + k', 30, 13)}) || '.</p>',
              '<ul><li>Give one concrete example from your own business.</li><li>Keep to one idea; numbers help.</li><li>No promotion or links to your site.</li></ul>',
              k, b.created_at
       from ep_batches b, generate_series(1, ${PER_BATCH}) k
       where b.community_id = ${cid}`,
    )
    .execute(db);
  // Every question to every panel member, in every state: 12 of 20 open, 1 can't answer, 1 ignored,
  // 3 in review, 2 accepted, 1 declined; the answered ones about 120 words.
  await sql
    .raw(
      `insert into ep_answers (community_id, question_id, user_id, status, body_html, body_text, word_count, submitted_at, decided_at, decision_note, sent_at, invited_at, status_at)
       select ${cid}, q.id, u.id, s.status,
              case when s.answered then '<p>' || initcap(t.p1) || '.</p><p>' || initcap(t.p2) || '.</p>' else '' end,
              case when s.answered then initcap(t.p1) || E'.\\n\\n' || initcap(t.p2) || '.' else '' end,
              case when s.answered then 120 else 0 end,
              case when s.answered then b.sent_at + interval '20 minutes' end,
              case when s.status in ('accepted', 'declined') then b.sent_at + interval '40 minutes' end,
              case when s.status = 'declined' then 'Thank you: we chose answers with a worked example this time.' end,
              b.sent_at, b.sent_at, b.sent_at
       from ep_questions q join ep_batches b on b.id = q.batch_id, users u,
            lateral (select case when h < 12 then 'open' when h = 12 then 'cant_answer' when h = 13 then 'ignored' when h < 17 then 'submitted' when h < 19 then 'accepted' else 'declined' end as status,
                            h >= 14 as answered
                     from (select (q.id * 7 + u.id * 3) % 20 as h) x) s,
            lateral (select ${words('q.id + u.id', 60, 17)} as p1, ${words('q.id * 3 + u.id', 60, 19)} as p2) t
       where q.community_id = ${cid} and u.email like '%@${code}.bench.invalid'`,
    )
    .execute(db);
  // Roundups: the accepted answers of the first questions, published.
  await sql
    .raw(
      `insert into ep_roundups (community_id, question_id, title, intro_html, status, slug, published_at, created_at, updated_at)
       select ${cid}, q.id, 'Roundup: ' || q.title, '<p>What our panel said.</p>', 'FINAL', 'roundup-' || q.id, now() - interval '10 minutes', now() - interval '30 minutes', now() - interval '10 minutes'
       from ep_questions q
       where q.community_id = ${cid} and q.id in (select id from ep_questions where community_id = ${cid} order by id limit ${PUBLISHED_QUESTIONS})`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ep_roundup_answers (roundup_id, answer_id, community_id, position)
       select r.id, a.id, ${cid}, row_number() over (partition by r.id order by a.id)
       from ep_roundups r join ep_answers a on a.question_id = r.question_id and a.community_id = ${cid} and a.status = 'accepted'
       where r.community_id = ${cid}`,
    )
    .execute(db);
  const open = await sql<{ question_id: number }>`select a.question_id from ep_answers a join users u on u.id = a.user_id
    where a.community_id = ${cid} and u.email = ${`m1@${code}.bench.invalid`} and a.status = 'open' order by a.sent_at desc, a.id desc limit 1`.execute(db);
  return { cid, openQuestion: open.rows[0]!.question_id };
}
