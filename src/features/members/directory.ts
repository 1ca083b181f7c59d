import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { companySizeRange, listedMembersOf, SNAPSHOT_COLUMNS, toSnapshot, type SnapshotRow } from './queries.ts';
import { COMPANY_SIZES, type CompanySize, type MemberSnapshot } from './types.ts';

/**
 * The member directory (issue 11): every active member of one community, alphabetical by last name or
 * ranked by a search, narrowed by filters, in keyset pages; and the Discover suggestions. Every query
 * starts from listedMembersOf (tenant-scoped, active membership and active user, past onboarding: an
 * invitee who has not paid is not listed), and each page is one
 * SQL statement whatever the size of the community.
 */

export type DirectoryDeps = { db: Db; community: Tenant; clock: Clock };

export const PAGE_SIZE = 24;
/** The longest search or filter value taken (a longer one is refused with a message, not cut). */
export const QUERY_MAX = 200;
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

export type DirectoryFilters = {
  location: string | null;
  industry: string | null;
  size: CompanySize | null;
  founding: boolean;
  /** A last-name initial, A to Z (browse). */
  letter: string | null;
};

export type DirectoryQuery = DirectoryFilters & {
  q: string;
  after: string | null;
  before: string | null;
  first: number;
};

export type DirectoryPage = {
  members: (MemberSnapshot & { cursor: string })[];
  /** The cursor to pass as `after` for the next page; null on the last page. */
  next: string | null;
  /** The cursor to pass as `before` for the previous page; null on the first page. */
  previous: string | null;
  /** Whether the order is a search's ranking (else alphabetical by last name). */
  ranked: boolean;
};

/** The raw inputs of a page or a GraphQL call: strings as typed, anything else ignored. */
export type DirectoryInput = Partial<Record<'q' | 'location' | 'industry' | 'size' | 'founding' | 'letter' | 'after' | 'before', unknown>> & { first?: unknown };

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Parses a directory query. Text with control characters, or longer than QUERY_MAX, is refused
 * (catalogue 150 or BadRequest.Validation, naming the field); an unknown size or letter, or a cursor
 * that is not one of ours, is refused too, so a shared address never silently shows something else.
 */
export function parseDirectoryQuery(input: DirectoryInput): DirectoryQuery {
  const q = text(input.q);
  const location = text(input.location);
  const industry = text(input.industry);
  ensureText({ q, location, industry });
  const tooLong = Object.entries({ q, location, industry }).filter(([, v]) => v.length > QUERY_MAX);
  if (tooLong.length) {
    throw new AppError('BadRequest.Validation', { fields: Object.fromEntries(tooLong.map(([k]) => [k, { code: 'BadRequest.Validation' as const, key: 'directory.errors.tooLong' }])) });
  }
  const sizeText = text(input.size);
  if (sizeText && !(COMPANY_SIZES as readonly string[]).includes(sizeText)) throw new AppError('BadRequest.Validation', { fields: { size: { code: 'BadRequest.Validation' as const, key: 'directory.errors.size' } } });
  const letterText = text(input.letter).toUpperCase();
  if (letterText && !LETTERS.includes(letterText)) throw new AppError('BadRequest.Validation', { fields: { letter: { code: 'BadRequest.Validation' as const, key: 'directory.errors.letter' } } });
  const foundingText = text(input.founding);
  const founding = input.founding === true || foundingText === 'true' || foundingText === 'on' || foundingText === '1';
  const after = text(input.after) || null;
  const before = after ? null : text(input.before) || null;
  const cursor = after ?? before;
  if (cursor !== null && !decodeCursor(cursor)) throw new AppError('BadRequest.Validation', { fields: { after: { code: 'BadRequest.Validation' as const, key: 'directory.errors.cursor' } } });
  let first = PAGE_SIZE;
  if (typeof input.first === 'number' && Number.isInteger(input.first)) first = Math.min(Math.max(input.first, 1), 100);
  return {
    q,
    location: location || null,
    industry: industry || null,
    size: (sizeText as CompanySize) || null,
    founding,
    letter: letterText || null,
    after,
    before,
    first,
  };
}

/**
 * A page position: alphabetical [sort_name, membership id]; in a search's full-text tier
 * ["f", class, sort_name, membership id] (class 3 a name match, 2 a company match, 1 any other);
 * in its trigram tier ["r", 1, score, membership id] (score a numeric with 6 decimals, kept as text
 * so that it compares exactly). ["r", 2, …], the full-text position of an earlier version, is still
 * read: such a search starts again from the top.
 */
type AlphaKey = { kind: 'a'; sortName: string; id: number };
type RankKey = { kind: 'r'; tier: number; score: string; id: number };
type TextKey = { kind: 'f'; cls: FtsClass; sortName: string; id: number };
type Key = AlphaKey | RankKey | TextKey;
type FtsClass = 1 | 2 | 3;

export function encodeCursor(key: Key): string {
  const parts = key.kind === 'a' ? ['a', key.sortName, key.id] : key.kind === 'f' ? ['f', key.cls, key.sortName, key.id] : ['r', key.tier, key.score, key.id];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647;

export function decodeCursor(cursor: string): Key | null {
  if (cursor.length > 1200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts)) return null;
  if (parts[0] === 'a' && parts.length === 3 && typeof parts[1] === 'string' && parts[1].length <= 600 && !parts[1].includes('\u0000') && isId(parts[2])) {
    return { kind: 'a', sortName: parts[1], id: parts[2] };
  }
  if (parts[0] === 'f' && parts.length === 4 && (parts[1] === 1 || parts[1] === 2 || parts[1] === 3) && typeof parts[2] === 'string' && parts[2].length <= 600 && !parts[2].includes('\u0000') && isId(parts[3])) {
    return { kind: 'f', cls: parts[1], sortName: parts[2], id: parts[3] };
  }
  if (parts[0] === 'r' && parts.length === 4 && (parts[1] === 1 || parts[1] === 2) && typeof parts[2] === 'string' && /^\d{1,6}(\.\d{1,6})?$/.test(parts[2]) && isId(parts[3])) {
    return { kind: 'r', tier: parts[1], score: parts[2], id: parts[3] };
  }
  return null;
}

type Members = ReturnType<typeof listedMembersOf>;

function applyFilters(q: Members, f: DirectoryFilters): Members {
  let out = q;
  if (f.location) out = out.where('memberships.location_name', '=', f.location);
  if (f.industry) out = out.where('memberships.industry', '=', f.industry);
  if (f.size) {
    const [lo, hi] = companySizeRange(f.size);
    out = out.where('memberships.company_employee_count', '>=', lo);
    if (hi !== null) out = out.where('memberships.company_employee_count', '<=', hi);
  }
  if (f.founding) out = out.where('memberships.is_founding', '=', true);
  if (f.letter) {
    // sort_name is lower(last first): a range on it uses the directory index.
    const lo = f.letter.toLowerCase();
    out = out.where('memberships.sort_name', '>=', lo).where('memberships.sort_name', '<', String.fromCharCode(lo.charCodeAt(0) + 1));
  }
  return out;
}

type Row = SnapshotRow & { mid: number; sort_name: string };
type RankedRow = SnapshotRow & { mid: number; tier: number; score: string; cls: FtsClass | null; sort_name: string };

function pageOf<R extends SnapshotRow>(rows: R[], query: DirectoryQuery, keyOf: (r: R) => Key, ranked: boolean): DirectoryPage {
  const backwards = query.before !== null;
  const more = rows.length > query.first;
  const slice = rows.slice(0, query.first);
  if (backwards) slice.reverse();
  const members = slice.map((r) => ({ ...toSnapshot(r), cursor: encodeCursor(keyOf(r)) }));
  const firstCursor = members[0]?.cursor ?? null;
  const lastCursor = members.at(-1)?.cursor ?? null;
  return {
    members,
    next: backwards ? lastCursor : more ? lastCursor : null,
    previous: backwards ? (more ? firstCursor : null) : query.after !== null ? firstCursor : null,
    ranked,
  };
}

/** One page of the directory: a search's ranking when `q` is given, else alphabetical by last name. */
export async function listDirectory(deps: DirectoryDeps, query: DirectoryQuery): Promise<DirectoryPage> {
  return query.q ? searchPage(deps, query) : alphabeticalPage(deps, query);
}

async function alphabeticalPage({ db, community }: DirectoryDeps, query: DirectoryQuery): Promise<DirectoryPage> {
  const key = decodeCursor(query.after ?? query.before ?? '');
  const backwards = query.before !== null;
  let q = applyFilters(listedMembersOf(db, community), query).select([...SNAPSHOT_COLUMNS, 'memberships.id as mid', 'memberships.sort_name']);
  // A ranked cursor on an alphabetical list (the search was cleared): start again from the top.
  if (key?.kind === 'a') {
    q = q.where((eb) => eb(eb.refTuple('memberships.sort_name', 'memberships.id'), backwards ? '<' : '>', eb.tuple(key.sortName, key.id)));
  }
  const dir = backwards ? 'desc' : 'asc';
  const rows = (await q
    .orderBy('memberships.sort_name', dir)
    .orderBy('memberships.id', dir)
    .limit(query.first + 1)
    .execute()) as Row[];
  return pageOf(rows, key?.kind === 'a' ? query : { ...query, after: null, before: null }, (r) => ({ kind: 'a', sortName: r.sort_name, id: r.mid }), false);
}

/**
 * A search: full-text matches (the weighted tsvector: name A, company B, title C, location and industry
 * D) first, then the members only a trigram similarity finds (a typo, a word begun), by
 * word_similarity. The full-text matches come in three classes: a word of the search in the name,
 * else in the company, else anywhere else (title, location, industry), each class alphabetical by
 * last name, so that no statement scores every match (decision 0018). Each tier is one statement;
 * the trigram tier runs only when the page is not yet full of full-text matches, so a search whose
 * words are found costs one statement, and one that needs the typo tolerance two.
 */
async function searchPage(deps: DirectoryDeps, query: DirectoryQuery): Promise<DirectoryPage> {
  const key = decodeCursor(query.after ?? query.before ?? '');
  // A position in this search: a full-text one (tier 2) or a trigram one (tier 1).
  const at = key?.kind === 'f' ? { tier: 2 as const, key } : key?.kind === 'r' && key.tier === 1 ? { tier: 1 as const, key } : null;
  const backwards = at !== null && query.before !== null;
  const want = query.first + 1;
  // In the direction of reading: forwards full text then trigram; backwards trigram then full text.
  const order: (1 | 2)[] = backwards ? [1, 2] : [2, 1];
  const rows: RankedRow[] = [];
  for (const tier of order) {
    if (rows.length >= want) break;
    // A cursor in a tier skips the tiers before it (in the direction of reading).
    if (at && (backwards ? tier < at.tier : tier > at.tier)) continue;
    const limit = want - rows.length;
    if (tier === 2) rows.push(...(await textRows(deps, query, at?.key.kind === 'f' ? at.key : null, backwards, limit)));
    else rows.push(...(await trigramRows(deps, query, at?.key.kind === 'r' ? at.key : null, backwards, limit)));
  }
  return pageOf(
    rows,
    at ? query : { ...query, after: null, before: null },
    (r): Key => (r.tier === 2 ? { kind: 'f', cls: r.cls!, sortName: r.sort_name, id: r.mid } : { kind: 'r', tier: 1, score: normaliseScore(r.score), id: r.mid }),
    true,
  );
}

/**
 * The members of the community a tier may show, on `memberships` alone: active and past onboarding, their user active
 * (read per row through the users primary key, a subquery, so that the planner never reads the whole
 * `users` table to hash-join it), the filters. A tier picks its page from these and joins only the
 * page's rows to their users (pageRows), so its cost follows its matches, never the community's size.
 */
function candidates({ db, community }: DirectoryDeps, query: DirectoryQuery) {
  const q = selectInCommunity(db, 'memberships', community)
    .where('memberships.is_active', '=', true)
    .where('memberships.gate', '=', 'app')
    .where(sql<SqlBool>`(select users.is_active from users where users.id = memberships.user_id)`);
  return applyFilters(q as unknown as Members, query) as unknown as typeof q;
}

type PageKeyRow = { mid: number; score: string; cls: FtsClass | null; sort_name: string };

/** The snapshots of a tier's page (membership ids and their keys, as the derived table `p`), in order. */
async function pageRows(
  { db, community }: DirectoryDeps,
  page: SelectQueryBuilder<any, any, PageKeyRow>,
  order: [`p.${keyof PageKeyRow}`, 'asc' | 'desc'][],
  limit: number | null,
  tier: 1 | 2,
): Promise<RankedRow[]> {
  let q = db
    .selectFrom(page.as('p'))
    .innerJoin('memberships', 'memberships.id', 'p.mid')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .where('memberships.community_id', '=', community.id)
    .select([...SNAPSHOT_COLUMNS, 'p.mid', 'p.score', 'p.cls', 'p.sort_name']);
  for (const [column, dir] of order) q = q.orderBy(column, dir);
  if (limit !== null) q = q.limit(limit);
  const rows = (await q.execute()) as (SnapshotRow & PageKeyRow)[];
  return rows.map((r) => ({ ...r, tier, score: String(r.score) }));
}

/**
 * The full-text tier: `search_vector @@ websearch_to_tsquery('simple', q)` (its GIN index), in three
 * classes, each one branch of a UNION ALL taking at most a page, alphabetical by (sort_name, id):
 * 3 when a word of the search is in the name (`ts_filter(search_vector, '{a}')`, its own GIN index:
 * a small set), 2 when one is in the company (`'{b}'`, likewise), 1 otherwise. A branch of many
 * matches walks the directory index (community, sort_name, id) and stops after a page; one of few
 * reads them from its GIN index and sorts them. No match is scored.
 */
async function textRows(deps: DirectoryDeps, query: DirectoryQuery, from: TextKey | null, backwards: boolean, limit: number): Promise<RankedRow[]> {
  const q = query.q.toLowerCase();
  const tsq = sql`websearch_to_tsquery('simple', ${q})`;
  // Any word of the search (its & made |): which field a match is in decides its class.
  const anyWord = sql`replace(websearch_to_tsquery('simple', ${q})::text, ' & ', ' | ')::tsquery`;
  const inName = sql<SqlBool>`ts_filter(memberships.search_vector, '{a}') @@ ${anyWord}`;
  const inCompany = sql<SqlBool>`ts_filter(memberships.search_vector, '{b}') @@ ${anyWord}`;
  const dir = backwards ? 'desc' : 'asc';
  // In the direction of reading: forwards 3, 2, 1; backwards 1, 2, 3; a cursor skips the classes before its own.
  const classes = ([3, 2, 1] as FtsClass[]).filter((c) => !from || (backwards ? c >= from.cls : c <= from.cls));
  const branches = classes.map((cls) => {
    let b = candidates(deps, query).where(sql<SqlBool>`memberships.search_vector @@ ${tsq}`);
    if (cls === 3) b = b.where(inName);
    else if (cls === 2) b = b.where(sql<SqlBool>`not (${inName})`).where(inCompany);
    else b = b.where(sql<SqlBool>`not (${inName})`).where(sql<SqlBool>`not (${inCompany})`);
    if (from && from.cls === cls) {
      b = b.where((eb) => eb(eb.refTuple('memberships.sort_name', 'memberships.id'), backwards ? '<' : '>', eb.tuple(from.sortName, from.id)));
    }
    const page = b
      .select(['memberships.id as mid', 'memberships.sort_name', sql<string>`'0'::text`.as('score'), sql<FtsClass>`${sql.lit(cls)}::int`.as('cls')])
      .orderBy('memberships.sort_name', dir)
      .orderBy('memberships.id', dir)
      .limit(limit);
    return deps.db.selectFrom(page.as(`c${cls}`)).selectAll();
  });
  let all = branches[0]!;
  for (const b of branches.slice(1)) all = all.unionAll(b);
  const clsDir = backwards ? 'asc' : 'desc';
  return pageRows(deps, all, [['p.cls', clsDir], ['p.sort_name', dir], ['p.mid', dir]], limit, 2);
}

/**
 * The trigram tier: the members only `q <% search_text` finds (its GIN index), by word_similarity
 * then membership id.
 */
async function trigramRows(deps: DirectoryDeps, query: DirectoryQuery, from: RankKey | null, backwards: boolean, limit: number): Promise<RankedRow[]> {
  const q = query.q.toLowerCase();
  const fts = sql<SqlBool>`memberships.search_vector @@ websearch_to_tsquery('simple', ${q})`;
  const score = sql<string>`round(word_similarity(${q}, memberships.search_text)::numeric, 6)`;
  const matches = candidates(deps, query).where(sql<SqlBool>`${q} <% memberships.search_text`).where(sql<SqlBool>`not (${fts})`);
  let page = deps.db
    .selectFrom(matches.select(['memberships.id as mid', 'memberships.sort_name', score.as('score'), sql<null>`null::int`.as('cls')]).as('r'))
    .selectAll();
  if (from) {
    const [s, i] = [from.score, from.id];
    page = backwards
      ? page.where(sql<SqlBool>`(r.score > ${s}::numeric or (r.score = ${s}::numeric and r.mid < ${i}))`)
      : page.where(sql<SqlBool>`(r.score < ${s}::numeric or (r.score = ${s}::numeric and r.mid > ${i}))`);
  }
  const [down, up] = backwards ? (['asc', 'desc'] as const) : (['desc', 'asc'] as const);
  page = page.orderBy('r.score', down).orderBy('r.mid', up).limit(limit);
  return pageRows(deps, page, [['p.score', down], ['p.mid', up]], null, 1);
}

/** A numeric as the database printed it ("0.607927", "1.000000"), as the cursor keeps it. */
const normaliseScore = (s: string) => (/^\d{1,6}(\.\d{1,6})?$/.test(s) ? s : Number(s).toFixed(6));

/** The values the filters offer: the community's locations and industries, and the size buckets. */
export type FilterOptions = { locations: string[]; industries: string[]; sizes: readonly CompanySize[] };

/**
 * The option lists change only when a profile changes, yet every directory page shows them: they are
 * read with one statement at most once a minute per community and process (a new location shows up
 * within the minute on every node).
 */
const OPTIONS_TTL_MS = 60_000;
const optionsCache = new Map<string, { at: number; value: Promise<FilterOptions>; db: Db }>();

export function filterOptions({ db, community, clock }: DirectoryDeps): Promise<FilterOptions> {
  const cacheKey = `${community.id}`;
  const now = clock.now().getTime();
  const hit = optionsCache.get(cacheKey);
  if (hit && hit.db === db && now - hit.at < OPTIONS_TTL_MS && now >= hit.at) return hit.value;
  const value = sql<{ locations: string[] | null; industries: string[] | null }>`
    select
      array(select distinct m.location_name from memberships m join users u on u.id = m.user_id
            where m.community_id = ${community.id} and m.is_active and m.gate = 'app' and u.is_active and m.location_name is not null and m.location_name <> ''
            order by 1) as locations,
      array(select distinct m.industry from memberships m join users u on u.id = m.user_id
            where m.community_id = ${community.id} and m.is_active and m.gate = 'app' and u.is_active and m.industry is not null and m.industry <> ''
            order by 1) as industries`
    .execute(db)
    .then(({ rows }) => ({ locations: rows[0]?.locations ?? [], industries: rows[0]?.industries ?? [], sizes: COMPANY_SIZES }));
  value.catch(() => optionsCache.delete(cacheKey));
  optionsCache.set(cacheKey, { at: now, value, db });
  return value;
}

/** Forget the cached option lists (a profile changed on this node; tests). */
export function forgetFilterOptions(community?: Tenant) {
  if (community) optionsCache.delete(`${community.id}`);
  else optionsCache.clear();
}

export type SuggestionReason = 'industry' | 'city' | 'new';
export type Suggestion = { member: MemberSnapshot; reason: SuggestionReason; /** The industry or the city named by the reason. */ detail: string | null };

/** How many suggestions of each reason Discover shows. */
export const SUGGESTIONS_PER_REASON = 8;
/** A member who joined within this many days is new. */
export const NEW_MEMBER_DAYS = 90;

/**
 * Members to meet: those in the member's industry, then in the member's city, then the newest, each
 * once (with its first reason), never oneself nor anyone the member has asked to meet or been asked
 * by (any introduction request between the two, whatever its state). One statement.
 */
export async function listSuggestions({ db, community, clock }: DirectoryDeps, userId: number): Promise<Suggestion[]> {
  const since = new Date(clock.now().getTime() - NEW_MEMBER_DAYS * 86_400_000);
  const me = selectInCommunity(db, 'memberships', community).select(['industry', 'location_name']).where('user_id', '=', userId);
  const reasoned = listedMembersOf(db, community)
    .leftJoin(me.as('me'), (join) => join.onTrue())
    .where('users.id', '<>', userId)
    .where(
      sql<SqlBool>`not exists (select 1 from introduction_requests ir where ir.community_id = ${community.id}
        and ((ir.requester_id = ${userId} and ir.target_id = users.id) or (ir.target_id = ${userId} and ir.requester_id = users.id)))`,
    )
    .select([
      ...SNAPSHOT_COLUMNS,
      'memberships.location_familiar_name',
      'memberships.joined_at',
      'memberships.id as mid',
      sql<SuggestionReason | null>`case
        when memberships.industry is not null and memberships.industry = me.industry then 'industry'
        when memberships.location_name is not null and memberships.location_name = me.location_name then 'city'
        when memberships.joined_at >= ${since} then 'new'
      end`.as('reason'),
    ]);
  const ranked = db
    .selectFrom(reasoned.as('s'))
    .selectAll()
    .select(sql<number>`row_number() over (partition by s.reason order by s.joined_at desc, s.mid)`.as('n'))
    .where('s.reason', 'is not', null);
  const rows = await db
    .selectFrom(ranked.as('x'))
    .selectAll()
    .where('x.n', '<=', SUGGESTIONS_PER_REASON)
    .orderBy(sql`case x.reason when 'industry' then 1 when 'city' then 2 else 3 end`)
    .orderBy('x.n')
    .execute();
  return rows.map((r) => {
    const reason = r.reason as SuggestionReason;
    const row = r as unknown as SnapshotRow & { location_familiar_name: string | null };
    return {
      member: toSnapshot(row),
      reason,
      detail: reason === 'industry' ? row.industry : reason === 'city' ? (row.location_familiar_name ?? row.location_name) : null,
    };
  });
}

/** `user(id)`: a member of this community others may see, or null (another community's, deactivated). */
export async function findVisibleMember({ db, community }: DirectoryDeps, userId: number): Promise<MemberSnapshot | null> {
  const row = await listedMembersOf(db, community).select(SNAPSHOT_COLUMNS).where('users.id', '=', userId).executeTakeFirst();
  return row ? toSnapshot(row) : null;
}

