import type { SelectQueryBuilder, UpdateQueryBuilder, DeleteQueryBuilder, UpdateResult, DeleteResult } from 'kysely';
import type { Db } from './index.ts';
import type { Database } from './types.ts';

/** Tables whose rows belong to one community. Every read and write of them goes through these helpers. */
export type TenantTable = { [T in keyof Database]: Database[T] extends { community_id: number } ? T : never }[keyof Database];

export type CommunityRef = { id: number };

/** `select ... from <table> where <table>.community_id = <community>`. */
export function selectInCommunity<T extends TenantTable>(db: Db, table: T, community: CommunityRef): SelectQueryBuilder<Database, T, {}> {
  const qb = db.selectFrom(table) as unknown as SelectQueryBuilder<any, any, {}>;
  return qb.where(`${table}.community_id`, '=', community.id as any) as unknown as SelectQueryBuilder<Database, T, {}>;
}

export function updateInCommunity<T extends TenantTable>(db: Db, table: T, community: CommunityRef): UpdateQueryBuilder<Database, T, T, UpdateResult> {
  const qb = db.updateTable(table) as unknown as UpdateQueryBuilder<any, any, any, UpdateResult>;
  return qb.where(`${table}.community_id`, '=', community.id as any) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
}

export function deleteInCommunity<T extends TenantTable>(db: Db, table: T, community: CommunityRef): DeleteQueryBuilder<Database, T, DeleteResult> {
  const qb = db.deleteFrom(table) as unknown as DeleteQueryBuilder<any, any, DeleteResult>;
  return qb.where(`${table}.community_id`, '=', community.id as any) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;
}
