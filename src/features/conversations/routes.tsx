import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { field, formOf, id, paramsOf, queryOf } from '#src/lib/form.ts';
import { ConversationsList } from '#src/features/conversations/views/ConversationsList.tsx';
import { ConversationThreadPage } from '#src/features/conversations/views/ConversationThread.tsx';
import { conversationWith, getThread, listConversations, sendMessage, setBlocked, type SendTarget } from './conversations.ts';
import { conversationsDeps, conversationsViewer } from './deps.ts';
import { notFound } from './queries.ts';
import { BODY_MAX } from './rules.ts';
import type { ConversationThread } from './types.ts';

const ListQuery = z.object({ after: field(200) });
const ThreadQuery = z.object({ before: field(200) });
const ThreadParams = z.object({ id });
const WithParams = z.object({ userId: id });
/** The message as typed: capped only against absurd payloads (the service says what is too long). */
const SendForm = z.object({ body: field(64 * 1024) });

/** What a form shows again: C0 controls but the tab and line breaks dropped (refused anyway), the rest as typed. */
const shown = (v: string) => v.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * The Conversations tab of a member's messages (issue 28): `/messages/conversations` (the list),
 * `/messages/conversations/{id}` (a thread, its reply form and block button), and
 * `/messages/conversations/with/{userId}` (from a profile: the conversation with a member one was
 * introduced to, or an empty one whose first message starts it). Plain forms, POST then redirect:
 * everything works without JavaScript.
 */
export default async function conversationsRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  app.get('/messages/conversations', member, async (request, reply) => {
    const query = queryOf(ListQuery, request);
    const page = await listConversations(conversationsDeps(request), conversationsViewer(request), { after: query.after });
    return reply.page({ title: t('conversations.list.title'), body: <ConversationsList page={page} /> });
  });

  const threadPage = (reply: FastifyReply, thread: ConversationThread, action: string, form: { body?: string; error?: string; status?: number } = {}) =>
    reply.page({
      title: t('conversations.thread.title', { name: thread.other.name }),
      status: form.status,
      body: <ConversationThreadPage thread={thread} action={action} form={{ body: form.body ?? '', error: form.error, max: BODY_MAX }} />,
    });

  /** A send: then back to the thread, at the new message; refused, the page again with the message beside the field and nothing typed lost. */
  async function send(request: FastifyRequest, reply: FastifyReply, target: SendTarget, action: string) {
    const { body } = formOf(SendForm, request);
    const deps = conversationsDeps(request);
    const viewer = conversationsViewer(request);
    try {
      const sent = await sendMessage(deps, viewer, target, body);
      return reply.redirectTo(`/messages/conversations/${sent.conversationId}#m${sent.messageId}`);
    } catch (e) {
      const field = isAppError(e) ? e.fields?.body : undefined;
      if (!isAppError(e) || !field) throw e;
      const thread =
        'conversationId' in target
          ? await getThread(deps, viewer, target.conversationId)
          : await conversationWith(deps, viewer, target.userId).then((w) => (w.id === null ? w.thread : getThread(deps, viewer, w.id)));
      return threadPage(reply, thread, action, { body: shown(body), error: t(field.key, field.values), status: e.status });
    }
  }

  app.get('/messages/conversations/with/:userId', member, async (request, reply) => {
    const { userId } = paramsOf(WithParams, request, notFound);
    const found = await conversationWith(conversationsDeps(request), conversationsViewer(request), userId);
    if (found.id !== null) return reply.redirectTo(`/messages/conversations/${found.id}#reply`);
    return threadPage(reply, found.thread, `/messages/conversations/with/${userId}`);
  });

  app.post('/messages/conversations/with/:userId', member, async (request, reply) => {
    const { userId } = paramsOf(WithParams, request, notFound);
    return send(request, reply, { userId }, `/messages/conversations/with/${userId}`);
  });

  app.get('/messages/conversations/:id', member, async (request, reply) => {
    const id = paramsOf(ThreadParams, request, notFound).id;
    const { before } = queryOf(ThreadQuery, request);
    const thread = await getThread(conversationsDeps(request), conversationsViewer(request), id, { before });
    return threadPage(reply, thread, `/messages/conversations/${id}`);
  });

  app.post('/messages/conversations/:id', member, async (request, reply) => {
    const id = paramsOf(ThreadParams, request, notFound).id;
    return send(request, reply, { conversationId: id }, `/messages/conversations/${id}`);
  });

  for (const [action, blocked] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    app.post(`/messages/conversations/:id/${action}`, member, async (request, reply) => {
      const id = paramsOf(ThreadParams, request, notFound).id;
      await setBlocked(conversationsDeps(request), conversationsViewer(request), id, blocked);
      return reply.redirectTo(`/messages/conversations/${id}`);
    });
  }
}
