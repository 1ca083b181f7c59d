import type { RawDb } from '#src/db/index.ts';

/**
 * The articles' demo (README "Articles", "Home"): Amara Okafor's byline, the agreements her published
 * article would have left (the product agreement, then the submission and approval agreements), and
 * a second article of hers on its way: submitted, waiting for the editors (her home page's "article
 * on its way", the editors' board's first article to review). Last, every member who has an article
 * has accepted the publishing terms, as the product itself makes sure (no article is created before
 * the product agreement): no demo author meets the "Before you write" gate again. Runs inside
 * seedDemo's transaction, after the payments demo (which writes the published, amplified article).
 */

const DAY = 86_400_000;

const IN_REVIEW_TITLE = 'Plan in Ranges, Not Numbers: What Forecasting Taught Our Board';

const IN_REVIEW_PARAGRAPHS = [
  'For years our board pack opened with a single number: next year’s revenue, to the dollar. Everyone in the room knew it was wrong the moment it was printed. We argued about whether it was too high or too low, and nobody asked the question that mattered: how wrong could it be, and what would we do if it was?',
  'At Lumen Analytics we build forecasts for retailers, so the irony was not lost on me. We tell our customers to plan with ranges. Our own plan was a point. Last spring we changed that, and the board meeting changed with it.',
  'The new plan has three lines instead of one: a low case we are confident we will beat, a base case we expect, and a high case we would be pleased but not shocked to reach. Each line comes with the two or three assumptions that drive it, written in plain words. Hiring, spending and cash are then planned against the low case, with a short list of decisions we will take if we reach the base case by the end of the second quarter.',
  'The first effect was on the conversation. Directors stopped debating the number and started debating the assumptions, which is where their experience is worth the most. One of them had lived through a customer concentration scare at her previous company and pushed us, rightly, to model what happens if our two largest accounts renew late.',
  'The second effect was on the team. Managers no longer had to defend a target they did not believe in. They could say which case they were tracking and why. When the numbers came in below the base case in April, nobody was surprised and nobody panicked; we had already agreed what we would slow down.',
  'There are costs. A range is harder to communicate than a number, and some investors want a single figure to hold you to. We give them the base case, and we show them the low case with the same confidence. In my experience they trust the plan more, not less, when they can see where it bends.',
  'If you want to try it, start small. Take your next quarter, write down the three cases and the assumptions behind each, and decide in advance which commitments you will make only when the base case is in sight. Share it with your board before the meeting, and ask them to argue with the assumptions, not the totals.',
  'A forecast is not a promise. It is a way to agree, before the year surprises you, on what you will do when it does. Planning in ranges made our board meetings shorter, our decisions faster, and our team a great deal calmer.',
];

export async function seedArticles(trx: RawDb, ctx: { byCode: Record<string, number>; now?: Date }): Promise<void> {
  const now = ctx.now ?? new Date();
  const at = (days: number) => new Date(now.getTime() - days * DAY);
  const summit = ctx.byCode.summit;

  if (summit !== undefined) {
    const amara = await trx
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select('users.id')
      .where('users.username', '=', 'amara.okafor')
      .where('memberships.community_id', '=', summit)
      .executeTakeFirst();
    if (amara) {
      const published = await trx
        .selectFrom('articles')
        .select(['id', 'created_at', 'published_date', 'current_revision_id'])
        .where('community_id', '=', summit)
        .where('author_id', '=', amara.id)
        .orderBy('id')
        .execute();
      const firstWritten = published.reduce((min, a) => Math.min(min, new Date(a.created_at).getTime()), at(30).getTime());
      await trx
        .insertInto('article_agreements')
        .values({ community_id: summit, user_id: amara.id, kind: 'PRODUCT', article_id: null, created_at: new Date(firstWritten - DAY) })
        .execute();
      await trx
        .insertInto('article_user_settings')
        .values({ community_id: summit, user_id: amara.id, byline: 'Amara Okafor is the CEO of Lumen Analytics, which turns operational data into plain-language forecasts for mid-sized retailers.', updated_at: new Date(firstWritten - DAY) })
        .execute();
      // What her published article went through: submitted, then approved by her before publishing.
      for (const a of published) {
        const written = new Date(a.created_at).getTime();
        const live = a.published_date ? new Date(a.published_date).getTime() : written + 20 * DAY;
        await trx
          .insertInto('article_agreements')
          .values([
            { community_id: summit, user_id: amara.id, kind: 'SUBMISSION', article_id: a.id, created_at: new Date(written + 2 * DAY) },
            { community_id: summit, user_id: amara.id, kind: 'APPROVAL', article_id: a.id, created_at: new Date(Math.max(written + 3 * DAY, live - 8 * DAY)) },
          ])
          .execute();
      }

      // The article on its way: written last week, submitted two days ago, not yet picked up by an editor.
      const written = at(6);
      const submitted = at(2);
      const content = IN_REVIEW_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('');
      const words = IN_REVIEW_PARAGRAPHS.join(' ').split(/\s+/).length;
      const article = await trx
        .insertInto('articles')
        .values({ community_id: summit, author_id: amara.id, status: 'SUBMITTED_FOR_REVIEW', status_updated_at: submitted, created_at: written, updated_at: submitted })
        .returning('id')
        .executeTakeFirstOrThrow();
      const revisions = await trx
        .insertInto('article_revisions')
        .values([
          { community_id: summit, article_id: article.id, author_id: amara.id, title: 'Plan in ranges', content: IN_REVIEW_PARAGRAPHS.slice(0, 3).map((p) => `<p>${p}</p>`).join(''), word_count: IN_REVIEW_PARAGRAPHS.slice(0, 3).join(' ').split(/\s+/).length, created_at: written, updated_at: written },
          { community_id: summit, article_id: article.id, author_id: amara.id, title: IN_REVIEW_TITLE, content, word_count: words, created_at: submitted, updated_at: submitted },
        ])
        .returning('id')
        .execute();
      await trx.updateTable('articles').set({ current_revision_id: revisions[1]!.id }).where('id', '=', article.id).execute();
      await trx
        .insertInto('article_agreements')
        .values({ community_id: summit, user_id: amara.id, kind: 'SUBMISSION', article_id: article.id, created_at: submitted })
        .execute();
      await trx
        .insertInto('article_status_events')
        .values({ community_id: summit, article_id: article.id, from_status: 'DRAFT', to_status: 'SUBMITTED_FOR_REVIEW', actor_id: amara.id, revision_id: revisions[1]!.id, note: null, created_at: submitted })
        .execute();
    }
  }

  // Every author has accepted the publishing terms (before their first article), in every community.
  const authors = await trx
    .selectFrom('articles')
    .select(['community_id', 'author_id', (eb) => eb.fn.min('created_at').as('first')])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('article_agreements')
            .select('article_agreements.id')
            .whereRef('article_agreements.community_id', '=', 'articles.community_id')
            .whereRef('article_agreements.user_id', '=', 'articles.author_id')
            .where('article_agreements.kind', '=', 'PRODUCT'),
        ),
      ),
    )
    .groupBy(['community_id', 'author_id'])
    .execute();
  if (authors.length > 0) {
    await trx
      .insertInto('article_agreements')
      .values(authors.map((a) => ({ community_id: a.community_id, user_id: a.author_id, kind: 'PRODUCT' as const, article_id: null, created_at: new Date(new Date(a.first as Date | string).getTime() - DAY) })))
      .execute();
  }
}

/** The spec's blackout window, and this year's (an admin adds one each year), in every demo community. */
export async function seedBlackoutWindows(trx: RawDb, communityIds: readonly number[]): Promise<void> {
  await trx
    .insertInto('blackout_windows')
    .values(
      communityIds.flatMap((id) => [
        { community_id: id, starts_on: '2024-12-23', ends_before: '2025-01-02' },
        { community_id: id, starts_on: '2026-12-23', ends_before: '2027-01-02' },
      ]),
    )
    .execute();
}
