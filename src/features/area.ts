import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ErrorSpec } from '#src/core/errors.ts';
import type { RawDb } from '#src/db/index.ts';
import type { NotificationKindDef } from '#src/lib/notification-kinds.ts';
import type { JobDefinition } from '#src/lib/jobs/queue.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';

/**
 * What an area adds to the app: the one shape every area's registration (`src/features/<area>/register.ts`,
 * `export const area: Area`) gives, and the one list in src/features/areas.ts names. Other areas never
 * import a register.ts: they use the area's public face, `src/features/<area>/index.ts`. Types only,
 * so that an area and the list do not import each other.
 */
export type Area = {
  name: string;
  /** Route plugins, registered under the path prefix in this order. */
  routes: FastifyPluginAsync[];
  /** Its operations on the member schema (/graphql) and the staff schema (/graphqlAdmin). */
  graphql?: { member?: GraphQLPart[]; admin?: GraphQLPart[] };
  /** The area's durable jobs (src/lib/jobs/queue.ts): handlers, schedules, retries. */
  jobs?: (app: FastifyInstance) => JobDefinition[];
  /** Its part of the demo (npm run seed, and the first start on an empty database), in list order. */
  seed?: (trx: RawDb, demo: DemoContext) => Promise<void>;
  /** Its error codes (its errors.ts, which also adds them to core/errors.ts's AreaErrorCodes type). */
  errors?: Record<string, ErrorSpec>;
  /** The kinds of notification it sends (its notification-kinds.ts): the member's preference options. */
  notificationKinds?: readonly NotificationKindDef[];
};

/** What the demo seed has made before the areas' parts run: its communities, its admin, the members' password. */
export type DemoContext = {
  /** Each demo community's id by its code ('summit', 'harbor'). */
  byCode: Record<string, number>;
  /** The platform admin (admin@example.com). */
  adminId: number;
  /** The hash of the demo members' shared password. */
  passwordHash: string;
};
