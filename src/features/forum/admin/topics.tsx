import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { field, formOf, idParams, paramsOf } from '#src/lib/form.ts';
import { ForumTopics } from '#src/features/forum/views/admin.tsx';
import { forumDeps, forumViewer } from '../deps.ts';
import { createTopic, listTopicsForStaff, moveTopic, renameTopic, setTopicArchived } from '../topics-admin.ts';
import { staffOn, type ForumStaffKit, type StaffForm } from './kit.tsx';

/** A topic's name as typed (the service checks it, beside the field). */
const NameForm = z.object({ name: field() });
const MoveForm = z.object({ direction: z.enum(['up', 'down']) });
const ArchiveForm = z.object({ archived: staffOn });

/** Staff's topics: create, rename, move, archive. */
export function forumTopicsPages(app: FastifyInstance, { admin, noticeOf, page, act }: ForumStaffKit) {
  // ---- Topics ----

  const topicsPage = (request: FastifyRequest, reply: FastifyReply, form?: StaffForm, status?: number) =>
    page(request, reply, 'topics', async () => <ForumTopics topics={await listTopicsForStaff(forumDeps(request), forumViewer(request), { includeArchived: true })} notice={form ? undefined : noticeOf(request)} form={form} />, status);

  app.get('/admin/forum/topics', admin, async (request, reply) => topicsPage(request, reply));

  /** A topic action's way back: the topics list at the topic; refused, the list again with the form. */
  const topicAgain = (request: FastifyRequest, reply: FastifyReply, id: number, values: Record<string, string> = {}) => ({
    path: `/admin/forum/topics#topic-${id}`,
    key: `topic-${id}`,
    values,
    render: (form: StaffForm, status: number) => topicsPage(request, reply, form, status),
  });

  app.post('/admin/forum/topics', admin, async (request, reply) => {
    const { name } = formOf(NameForm, request);
    return act(
      request,
      reply,
      async () => {
        await createTopic(forumDeps(request), forumViewer(request), name);
        return 'topicCreated';
      },
      { path: '/admin/forum/topics', key: 'topic-new', values: { name }, render: (form, status) => topicsPage(request, reply, form, status) },
    );
  });

  app.post('/admin/forum/topics/:id/rename', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const { name } = formOf(NameForm, request);
    return act(
      request,
      reply,
      async () => {
        await renameTopic(forumDeps(request), forumViewer(request), id, name);
        return 'topicRenamed';
      },
      topicAgain(request, reply, id, { name }),
    );
  });

  app.post('/admin/forum/topics/:id/move', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const { direction } = formOf(MoveForm, request);
    return act(
      request,
      reply,
      async () => {
        await moveTopic(forumDeps(request), forumViewer(request), id, direction);
        return 'topicMoved';
      },
      topicAgain(request, reply, id),
    );
  });

  app.post('/admin/forum/topics/:id/archive', admin, async (request, reply) => {
    const { id } = paramsOf(idParams, request);
    const { archived } = formOf(ArchiveForm, request);
    return act(
      request,
      reply,
      async () => {
        await setTopicArchived(forumDeps(request), forumViewer(request), id, archived);
        return archived ? 'topicArchived' : 'topicUnarchived';
      },
      topicAgain(request, reply, id),
    );
  });
}
