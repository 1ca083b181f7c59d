import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { field, paramsOf, queryOf } from '#src/lib/form.ts';
import { InboxPage, MessagePage } from '#src/features/messages/views/InboxPage.tsx';
import { messagesDeps, messagesViewer } from './deps.ts';
import { listInbox, readInboxMessage } from './inbox.ts';

const ListQuery = z.object({ after: field(200) });
const IdParams = z.object({ id: z.string().max(40) });

/**
 * The member's messages from the team: `/messages` ("From the team", keyset pages) and
 * `/messages/team/{id}` (one message; opening it marks it read). Plain pages: no script.
 */
export default async function messagesRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  app.get('/messages', member, async (request, reply) => {
    const { after } = queryOf(ListQuery, request);
    const page = await listInbox(messagesDeps(request), messagesViewer(request), { after: after || null });
    return reply.page({ title: t('messages.inbox.title'), body: <InboxPage page={page} after={after || null} /> });
  });

  app.get('/messages/team/:id', member, async (request, reply) => {
    const { id } = paramsOf(IdParams, request, () => new AppError('Messages.NotFound'));
    const deps = messagesDeps(request);
    const viewer = messagesViewer(request);
    const { unread, ...message } = await readInboxMessage(deps, viewer, id);
    return reply.page({ title: message.subject, body: <MessagePage message={message} unread={unread} /> });
  });
}
