import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { toCsv } from '#src/lib/csv.ts';
import { field, formOf, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { GroupEdit, GroupNew, GroupsAdmin } from '#src/features/groups/views/admin/GroupsAdmin.tsx';
import { groupsDeps, groupsViewer } from './deps.ts';
import { IMAGE_MAX_BYTES, saveGroupImage } from './images.ts';
import { addPeople, blankGroupForm, createGroup, getStaffGroup, groupIdOf, listStaffGroups, peopleForExport, removePerson, searchMembers, updateGroup } from './staff.ts';
import type { GroupForm } from './types.ts';

const DONE = ['created', 'saved', 'added', 'removed', 'imageSaved'] as const;
type Done = (typeof DONE)[number];

const GroupBody = z.object({ name: field(1000), slug: field(1000), about: field(100_000), visibility: field(40) });
const PeopleBody = z.object({ emails: field(100_000), userId: optionalId, role: z.enum(['chair', 'member']).catch('member') });
const IdParams = z.object({ id: z.string().max(40) });
const PersonParams = z.object({ id: z.string().max(40), userId: z.string().max(40) });
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined), q: z.string().max(200).optional().catch(undefined) }).passthrough();
const ImageForm = z.object({ image: z.instanceof(Buffer).optional().catch(undefined) }).passthrough();

/**
 * The staff's groups (ADMIN only): /admin/groups (every group), /admin/groups/new, /admin/groups/{id}
 * (its form, image, people with the add search and pasted addresses, the CSV, the log). Plain form
 * POSTs (CSRF by the security plugin), each calling the same services as GraphQL, then a 303 back with
 * a notice; a refused one re-renders its page with the message beside the field and what was typed.
 */
export default async function groupsAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['Groups.Busy']);
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: groupsDeps(request), viewer: groupsViewer(request) };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`groupsAdmin.done.${done}`) : undefined;
  };
  const idOf = (request: FastifyRequest) => groupIdOf(paramsOf(IdParams, request, () => new AppError('Groups.NotFound')).id);

  await acceptUploads(app, { maxBytes: IMAGE_MAX_BYTES, fields: 4, fieldSize: 1024 });

  app.get('/admin/groups', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const rows = await listStaffGroups(deps, viewer);
    return reply.page({ title: t('groupsAdmin.title'), body: <GroupsAdmin rows={rows} notice={noticeOf(request)} /> });
  });

  const newPage = async (reply: FastifyReply, values: GroupForm, errors: Record<string, string> = {}, status?: number) =>
    reply.page({ title: t('groupsAdmin.newTitle'), status, body: <GroupNew values={values} errors={errors} /> });

  app.get('/admin/groups/new', admin, async (request, reply) => {
    call(request);
    return newPage(reply, blankGroupForm());
  });

  app.post('/admin/groups', admin, async (request, reply) => {
    const body = formOf(GroupBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createGroup(deps, viewer, body);
      return { done: 'created', path: `/admin/groups/${id}` };
    }, { key: 'group', values: body, render: (form, status) => newPage(reply, body, form.errors, status) });
  });

  const editPage = async (request: FastifyRequest, reply: FastifyReply, id: number, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const { q } = queryOf(NoticeQuery, request);
    const [group, found] = await Promise.all([getStaffGroup(deps, viewer, id), q ? searchMembers(deps, viewer, q) : Promise.resolve(null)]);
    return reply.page({ title: t('groupsAdmin.editTitle', { name: group.name }), status, body: <GroupEdit group={group} form={form} notice={form ? undefined : noticeOf(request)} search={q ?? ''} found={found} /> });
  };

  app.get('/admin/groups/:id', admin, async (request, reply) => editPage(request, reply, idOf(request)));

  app.post('/admin/groups/:id', admin, async (request, reply) => {
    const id = idOf(request);
    const body = formOf(GroupBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await updateGroup(deps, viewer, id, body);
      return { done: 'saved', path: `/admin/groups/${id}` };
    }, { key: 'group', values: body, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.post('/admin/groups/:id/people', admin, async (request, reply) => {
    const id = idOf(request);
    const body = formOf(PeopleBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await addPeople(deps, viewer, id, { emails: body.emails, userIds: body.userId ? [body.userId] : [], role: body.role });
      return { done: 'added', path: `/admin/groups/${id}#people` };
    }, { key: 'people', values: { emails: body.emails, role: body.role }, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.post('/admin/groups/:id/people/:userId/remove', admin, async (request, reply) => {
    const p = paramsOf(PersonParams, request, () => new AppError('Groups.NotFound'));
    const id = groupIdOf(p.id);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await removePerson(deps, viewer, id, p.userId);
      return { done: 'removed', path: `/admin/groups/${id}#people` };
    }, { key: 'people', values: {}, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.post('/admin/groups/:id/image', { config: { ...admin.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const id = idOf(request);
    const refuse = (k: string, status: number) => editPage(request, reply, id, { key: 'image', values: {}, errors: { image: t(`groupsAdmin.errors.${k}`, { max: IMAGE_MAX_BYTES / 1024 / 1024 }) } }, status);
    if (uploadTooLarge(request)) return refuse('imageTooLarge', 413);
    if (!request.isMultipart()) return refuse('imageMissing', 400);
    const { image } = ImageForm.parse(request.body ?? {});
    if (!image || image.length === 0) return refuse('imageMissing', 400);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await saveGroupImage(deps, viewer, id, image);
      return { done: 'imageSaved', path: `/admin/groups/${id}` };
    }, { key: 'image', values: {}, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.get('/admin/groups/:id/people.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const { group, rows } = await peopleForExport(deps, viewer, idOf(request));
    const csv = toCsv(
      ['name', 'email', 'company', 'role', 'active', 'added'].map((c) => t(`groupsAdmin.csv.${c}`)),
      rows.map((r) => [r.name, r.email, r.companyName, t(`groupsAdmin.role.${r.role}`), r.active ? t('groupsAdmin.csv.yes') : t('groupsAdmin.csv.no'), r.addedAt]),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="group-${group.slug}-people.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
