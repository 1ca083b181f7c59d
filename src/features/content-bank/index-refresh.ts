import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { publishedArticlesForLibrary } from '#src/features/articles/index.ts';
import { acceptedAnswersForLibrary, publishedRoundupsForLibrary } from '#src/features/expert-panels/index.ts';
import type { LibraryFacts } from '#src/lib/library.ts';
import { bankTransaction } from './deps.ts';
import type { BankKind } from './types.ts';

/**
 * Keeping the library's search index (`bank_entries`) current (decision 0061). The other areas' items
 * are marked in `bank_dirty` by triggers, in the very transaction that publishes, changes or
 * unpublishes them (migration 0036); before it answers, the bank reads its community's marks (one
 * indexed statement, none found on a quiet day), asks each area's face for the facts of the marked
 * ids, and writes or drops their entries. The marks are consumed under a per-community advisory lock,
 * so two nodes never write an older picture over a newer one. Assets are the bank's own: their entries
 * are written with them.
 */

/** How many marks one transaction consumes. */
const BATCH = 500;
/** The most text of an item the tsvector reads (an article is at most about 1,000 words). */
const TEXT_MAX = 20_000;
const SUMMARY_MAX = 240;

type Source = (db: Db, community: Tenant, ids: readonly number[]) => Promise<LibraryFacts[]>;
const SOURCES: Partial<Record<BankKind, Source>> = {
  article: publishedArticlesForLibrary,
  roundup: publishedRoundupsForLibrary,
  answer: acceptedAnswersForLibrary,
};

/** The facts of other areas' items of one kind (an asset kind: none, they are the bank's own). */
export function libraryFactsOf(db: Db, community: Tenant, kind: BankKind, ids: readonly number[]): Promise<LibraryFacts[]> {
  const source = SOURCES[kind];
  return source ? source(db, community, ids) : Promise.resolve([]);
}

/** The first words of a text, cut at a word, with an ellipsis when cut. */
export function summaryOf(text: string, max = SUMMARY_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/** An entry's row: what a search shows, and the two tiers' search columns (title A, author B, text C). */
export function entryValues(kind: BankKind, f: LibraryFacts, now: Date) {
  const text = f.text.slice(0, TEXT_MAX);
  return {
    kind,
    item_id: f.id,
    title: f.title,
    summary: summaryOf(f.text),
    author_id: f.authorId,
    author_name: f.authorName,
    published_at: f.publishedAt,
    url: f.url,
    staff_path: f.staffPath,
    search_text: `${f.title} ${f.authorName}`.toLowerCase().trim(),
    // An expression, not a value: the insert helper's row type takes values only.
    search_vector: sql<string>`setweight(to_tsvector('simple', ${f.title}), 'A') || setweight(to_tsvector('simple', ${f.authorName}), 'B') || setweight(to_tsvector('simple', ${text}), 'C')` as unknown as string,
    indexed_at: now,
  };
}

/** Writes (or rewrites) entries of one community. */
export async function writeEntries(trx: Db, community: Tenant, rows: ReturnType<typeof entryValues>[]): Promise<void> {
  if (rows.length === 0) return;
  await insertInCommunity(trx, 'bank_entries', community, rows)
    .onConflict((oc) =>
      oc.columns(['community_id', 'kind', 'item_id']).doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        summary: eb.ref('excluded.summary'),
        author_id: eb.ref('excluded.author_id'),
        author_name: eb.ref('excluded.author_name'),
        published_at: eb.ref('excluded.published_at'),
        url: eb.ref('excluded.url'),
        staff_path: eb.ref('excluded.staff_path'),
        search_text: eb.ref('excluded.search_text'),
        search_vector: eb.ref('excluded.search_vector'),
        indexed_at: eb.ref('excluded.indexed_at'),
      })),
    )
    .execute();
}

/**
 * Brings the community's index up to date: consumes its marks, BATCH at a time, until none is left.
 * Returns how many marks it consumed. A read that finds none costs one indexed statement.
 */
export async function refreshBankIndex(db: Db, community: Tenant, now: () => Date): Promise<number> {
  let consumed = 0;
  // Bounded: a community whose items change faster than it is read is caught up by the next read.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const waiting = await selectInCommunity(db, 'bank_dirty', community).select('id').orderBy('id').limit(1).executeTakeFirst();
    if (!waiting) return consumed;
    consumed += await bankTransaction(db, (trx) => consumeMarks(trx, community, now()));
  }
  return consumed;
}

const MAX_ROUNDS = 200;

/**
 * One batch of a community's marks, in the caller's transaction: the facts of the marked items from
 * their areas, their entries written, the entries of those no longer in the library dropped.
 */
export async function consumeMarks(trx: Db, community: Tenant, at: Date): Promise<number> {
  // One community's marks are consumed by one transaction at a time (any node).
  await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${community.id})`.execute(trx);
  const marks = await sql<{ kind: BankKind; item_id: number }>`
    delete from bank_dirty where community_id = ${community.id}
    and id in (select id from bank_dirty where community_id = ${community.id} order by id limit ${BATCH})
    returning kind, item_id`.execute(trx);
  const byKind = new Map<BankKind, Set<number>>();
  for (const m of marks.rows) {
    const set = byKind.get(m.kind) ?? new Set<number>();
    set.add(m.item_id);
    byKind.set(m.kind, set);
  }
  for (const [kind, set] of byKind) {
    const source = SOURCES[kind];
    if (!source) continue;
    const ids = [...set];
    const facts = await source(trx, community, ids);
    await writeEntries(trx, community, facts.map((f) => entryValues(kind, f, at)));
    const kept = new Set(facts.map((f) => f.id));
    const gone = ids.filter((id) => !kept.has(id));
    if (gone.length) await deleteInCommunity(trx, 'bank_entries', community).where('kind', '=', kind).where('item_id', 'in', gone).execute();
  }
  return marks.rows.length;
}

/** The advisory lock space of the index's refresh (any constant of ours; the community is the second key). */
const LOCK_SPACE = 29_0061;
