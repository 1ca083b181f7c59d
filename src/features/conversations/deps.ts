import type { FastifyRequest } from 'fastify';
import type { Clock } from '#src/core/clock.ts';
import type { Translate } from '#src/core/i18n.ts';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { signedInViewer, type Viewer } from '#src/lib/request-deps.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';

/** What every conversations service gets: the database, the clock, the community, translations, the notifier. */
export type ConversationsDeps = { db: Db; clock: Clock; community: Community; t: Translate; notifier: Notifier };

/** The signed-in member acting (staff have no other powers here: conversations are private). */
export type ConversationsViewer = Pick<Viewer, 'userId'>;

export function conversationsDeps(request: FastifyRequest): ConversationsDeps {
  const app = request.server;
  return { db: app.db, clock: app.clock, community: request.community, t: app.t, notifier: app.notifications };
}

export const conversationsViewer = (request: FastifyRequest): ConversationsViewer => ({ userId: signedInViewer(request).userId });

/** The same for a GraphQL resolver (cookie with CSRF, or bearer): signed in, else NotAuthenticated. */
export function graphqlDeps(ctx: GraphQLContext): { deps: ConversationsDeps; viewer: ConversationsViewer } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return { deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications }, viewer: { userId: ctx.guardian.userId! } };
}

/** A conversations write's transaction: tried again when it loses to another write, then 'Conversations.Busy' (409). */
export function conversationsTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Conversations.Busy'), fn);
}
