import type {
  DeleteQueryBuilder,
  DeleteResult,
  Insertable,
  InsertQueryBuilder,
  InsertResult,
  Kysely,
  SelectQueryBuilder,
  TableExpressionOrList,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';
import type { Database } from './types.ts';

/**
 * Tenancy: the one tenant value and the only ways to read or write a community's rows.
 *
 * - `Tenant` is the one tenant value: the community a request, a job or a seed acts in. It travels
 *   under the one name `community` from the request (`request.community`) to the query.
 * - `Db` (src/db/index.ts) is the database as every area sees it: its `selectFrom`, `updateTable`,
 *   `deleteFrom` and `insertInto` refuse a community's table at compile time. A community's rows
 *   are reached only through `selectInCommunity`, `updateInCommunity`, `deleteInCommunity` and
 *   `insertInCommunity` below, each of which takes the tenant. Joins and correlated subqueries
 *   (`eb.selectFrom(...).whereRef(...)`) follow their driving row, which the helper already scoped.
 * - `crossCommunity(db)` is the named way out, for the few queries that cross communities on purpose
 *   (docs/architecture.md lists them; test/db/cross-community.test.ts fails on a use outside that list,
 *   and test/db/tenancy-compile.ts proves the guard to the type check).
 */

/** Tables whose rows belong to one community (they have `community_id`). */
export type TenantTable = { [T in keyof Database]: Database[T] extends { community_id: unknown } ? T : never }[keyof Database];
/** Tables outside any community (communities, users, sign-in throttling, the sandbox's store). */
export type GlobalTable = Exclude<keyof Database & string, TenantTable>;

/** The one tenant value: the community a query runs in. A whole `Community` row is one too. */
export type Tenant = { readonly id: number };

type KyselyDb = Kysely<Database>;
type From = TableExpressionOrList<Database, never>;
type TableNames<TE> = TE extends readonly (infer U)[] ? TableNames<U> : TE extends `${infer N} as ${string}` ? N : TE;
/** `TE` when it names no community's table, else `never` (so the call does not compile). */
type OutsideCommunities<TE> = [Extract<TableNames<TE>, TenantTable>] extends [never] ? TE : never;

declare const raw: KyselyDb;

/** A transaction on the tenant-safe database: the same guard inside as outside. */
export type TenantSafeTransaction = {
  execute<T>(fn: (trx: TenantSafeDb) => Promise<T>): Promise<T>;
  setIsolationLevel(level: 'serializable' | 'repeatable read' | 'read committed' | 'read uncommitted'): TenantSafeTransaction;
};

/** Kysely with the four table verbs limited to tables outside any community. */
export type TenantSafeDb = Omit<KyselyDb, 'selectFrom' | 'updateTable' | 'deleteFrom' | 'insertInto' | 'mergeInto' | 'replaceInto' | 'transaction'> & {
  selectFrom<TE extends From>(from: OutsideCommunities<TE>): ReturnType<typeof raw.selectFrom<TE>>;
  updateTable<TE extends From>(table: OutsideCommunities<TE>): ReturnType<typeof raw.updateTable<TE>>;
  deleteFrom<TE extends From>(from: OutsideCommunities<TE>): ReturnType<typeof raw.deleteFrom<TE>>;
  insertInto<T extends GlobalTable>(table: T): InsertQueryBuilder<Database, T, InsertResult>;
  transaction(): TenantSafeTransaction;
};

/** The same database without the guard: only for the named cross-community queries. */
export function crossCommunity(db: TenantSafeDb): RawDb {
  return db as unknown as RawDb;
}

/**
 * The database without the tenancy guard: migrations, the demo seed, tests and the named
 * cross-community queries (`crossCommunity`). It is a `Db` too, so it may be handed to the application.
 */
export type RawDb = Omit<KyselyDb, 'transaction'> & Omit<TenantSafeDb, 'transaction'> & { transaction(): RawTransaction };
export type RawTransaction = {
  execute<T>(fn: (trx: RawDb) => Promise<T>): Promise<T>;
  setIsolationLevel(level: 'serializable' | 'repeatable read' | 'read committed' | 'read uncommitted'): RawTransaction;
};

/** The builders below are typed by their signatures; inside, the table is only known as a string. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Untyped = { selectFrom(t: string): any; updateTable(t: string): any; deleteFrom(t: string): any; insertInto(t: string): any };
function unguarded(db: TenantSafeDb): Untyped {
  return db as unknown as Untyped;
}

/** `select ... from <table> where <table>.community_id = <community>`. */
export function selectInCommunity<T extends TenantTable>(db: TenantSafeDb, table: T, community: Tenant): SelectQueryBuilder<Database, T, {}> {
  return unguarded(db).selectFrom(table).where(`${table}.community_id`, '=', community.id) as unknown as SelectQueryBuilder<Database, T, {}>;
}

/** `select ... from <table> as <alias> where <alias>.community_id = <community>`. */
export function selectInCommunityAs<T extends TenantTable, A extends string>(
  db: TenantSafeDb,
  table: T,
  alias: A,
  community: Tenant,
): SelectQueryBuilder<Database & { [K in A]: Database[T] }, A, {}> {
  return unguarded(db).selectFrom(`${table} as ${alias}`).where(`${alias}.community_id`, '=', community.id) as unknown as SelectQueryBuilder<
    Database & { [K in A]: Database[T] },
    A,
    {}
  >;
}

export function updateInCommunity<T extends TenantTable>(db: TenantSafeDb, table: T, community: Tenant): UpdateQueryBuilder<Database, T, T, UpdateResult> {
  return unguarded(db).updateTable(table).where(`${table}.community_id`, '=', community.id) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
}

export function deleteInCommunity<T extends TenantTable>(db: TenantSafeDb, table: T, community: Tenant): DeleteQueryBuilder<Database, T, DeleteResult> {
  return unguarded(db).deleteFrom(table).where(`${table}.community_id`, '=', community.id) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;
}

/** The values of a community's row, without its community (the helper sets that from the tenant). */
export type InCommunity<T extends TenantTable> = Omit<Insertable<Database[T]>, 'community_id'>;

/** `insert into <table> (community_id, ...) values (<community>, ...)`: one row or several. */
export function insertInCommunity<T extends TenantTable>(
  db: TenantSafeDb,
  table: T,
  community: Tenant,
  values: InCommunity<T> | readonly InCommunity<T>[],
): InsertQueryBuilder<Database, T, InsertResult> {
  const rows = (Array.isArray(values) ? values : [values]).map((row) => ({ ...row, community_id: community.id }));
  return unguarded(db).insertInto(table).values(rows) as unknown as InsertQueryBuilder<Database, T, InsertResult>;
}
