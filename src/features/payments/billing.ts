import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { LineItem, StatementKind } from '#src/db/types.ts';

/**
 * Billing (issue 13, spec section 2 "Settings screens", section 3 "Statement"): a member's statements,
 * newest first, a page at a time (keyset on purchased_at, id), and one statement in full for its PDF.
 * A member reads only their own statements in the community they are in; anything else is NotFound.
 */

export const STATEMENTS_PAGE_SIZE = 20;
export const STATEMENTS_MAX_PAGE = 100;

export type StatementSummary = {
  id: number;
  name: string;
  kind: StatementKind;
  purchasedAt: Date;
  amountCents: number;
  currency: string;
  /** Where the next page starts when this is the last row shown. */
  cursor: string;
};

export type StatementPage = { statements: StatementSummary[]; nextCursor: string | null };

export type StatementDetail = StatementSummary & {
  items: LineItem[];
  paymentMethod: string;
  community: { name: string; code: string };
  member: { name: string; email: string };
};

/** A cursor is the last row's time and id, opaque to clients. */
export function encodeCursor(purchasedAt: Date, id: number): string {
  return Buffer.from(`${purchasedAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

/** The time and id of a cursor, or null for anything that is not one of ours (no 5xx on hostile input). */
export function decodeCursor(cursor: unknown): { purchasedAt: Date; id: number } | null {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const [iso, idText] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!iso || !idText || !/^\d{1,10}$/.test(idText) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(iso)) return null;
  const purchasedAt = new Date(iso);
  const id = Number(idText);
  if (Number.isNaN(purchasedAt.getTime()) || id < 1 || id > 2_147_483_647) return null;
  return { purchasedAt, id };
}

const toSummary = (r: { id: number; name: string; kind: StatementKind; purchased_at: Date; amount_cents: number; currency: string }): StatementSummary => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  purchasedAt: r.purchased_at,
  amountCents: r.amount_cents,
  currency: r.currency,
  cursor: encodeCursor(r.purchased_at, r.id),
});

/**
 * One page of the member's statements, newest first. A malformed `after` is a client's mistake (900);
 * `first` is clamped to 1..100.
 */
export async function listStatements(db: Db, community: Tenant, userId: number, options: { first?: number; after?: string | null } = {}): Promise<StatementPage> {
  const first = Math.min(Math.max(Math.trunc(options.first ?? STATEMENTS_PAGE_SIZE) || STATEMENTS_PAGE_SIZE, 1), STATEMENTS_MAX_PAGE);
  let query = selectInCommunity(db, 'statements', community)
    .select(['id', 'name', 'kind', 'purchased_at', 'amount_cents', 'currency'])
    .where('user_id', '=', userId);
  if (options.after !== undefined && options.after !== null && options.after !== '') {
    const after = decodeCursor(options.after);
    if (!after) throw new AppError(900);
    query = query.where(sql<boolean>`(purchased_at, id) < (${after.purchasedAt}, ${after.id})`);
  }
  const rows = await query.orderBy('purchased_at', 'desc').orderBy('id', 'desc').limit(first + 1).execute();
  const statements = rows.slice(0, first).map(toSummary);
  return { statements, nextCursor: rows.length > first ? statements[statements.length - 1]!.cursor : null };
}

/** One of the member's own statements in this community, with what its PDF shows; NotFound otherwise. */
export async function findStatement(db: Db, community: Tenant, userId: number, id: number): Promise<StatementDetail> {
  const row = await selectInCommunity(db, 'statements', community)
    .innerJoin('users', 'users.id', 'statements.user_id')
    .innerJoin('communities', 'communities.id', 'statements.community_id')
    .select([
      'statements.id',
      'statements.name',
      'statements.kind',
      'statements.purchased_at',
      'statements.amount_cents',
      'statements.currency',
      'statements.items',
      'statements.payment_method',
      'users.first_name',
      'users.last_name',
      'users.email',
      'communities.name as community_name',
      'communities.code as community_code',
    ])
    .where('statements.user_id', '=', userId)
    .where('statements.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return {
    ...toSummary(row),
    items: Array.isArray(row.items) ? row.items : [],
    paymentMethod: row.payment_method,
    community: { name: row.community_name, code: row.community_code },
    member: { name: `${row.first_name} ${row.last_name}`.trim(), email: row.email },
  };
}

/** The download's file name: letters, digits and dashes only, so the header needs no quoting rules. */
export function statementFileName(s: Pick<StatementDetail, 'id' | 'purchasedAt' | 'community'>): string {
  const code = s.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'community';
  return `statement-${code}-${s.id}-${s.purchasedAt.toISOString().slice(0, 10)}.pdf`;
}

/** A statement's PDF on the API (cookie or bearer token), under the path prefix: GraphQL's statementUrl. */
export const statementPath = (basePath: string, id: number) => `${basePath}/rest/statements/${id}.pdf`;
