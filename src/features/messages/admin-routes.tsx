import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { withDone } from '#src/lib/admin/act.ts';
import { bankPickerStep, withBankLink, type BankPickerState } from '#src/features/content-bank/index.ts';
import { MessageDetail, MessageNew, MessagesAdmin } from '#src/features/messages/views/admin/MessagesAdmin.tsx';
import { audienceOptions } from './audience.ts';
import { blankMessageForm, cancelMessage, countMessageAudience, createMessage, getStaffMessage, listStaffMessages, scheduleMessage, scheduleOf, sendMessage, updateMessage } from './compose.ts';
import { ensureStaff, messageIdOf, messagesDeps, messagesViewer } from './deps.ts';
import type { StaffMessageForm } from './types.ts';

const DONE = ['saved', 'sending', 'scheduled', 'cancelled'] as const;
type Done = (typeof DONE)[number];

const MessageBody = z.object({
  subject: field(10_000),
  body: field(200_000),
  audienceKind: field(40),
  groupId: field(40),
  tier: field(1000),
  founding: field(10),
  industry: field(1000),
  location: field(1000),
  standing: field(1000),
  emails: field(200_000),
  scheduledAt: field(100),
  intent: z.enum(['count', 'save', 'send', 'schedule']).optional().default('save'),
  // The content bank's picker (views/kit/bank-picker.tsx): its search, its button, an item picked.
  bankQ: field(1000),
  bankSearch: field(10),
  bankPick: field(40),
});
const ListQuery = z.object({ after: z.string().regex(/^\d{1,10}$/).optional(), done: z.string().max(40).optional() });
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) }).passthrough();
const IdParams = z.object({ id: z.string().max(40) });

/**
 * The staff's messages (ADMIN only): /admin/messages (the list with figures), /admin/messages/new and
 * /admin/messages/{id} (the form: "Count audience" re-renders it with the count, then save, send now
 * or schedule), and the cancel POST. Plain forms with CSRF, no script needed; a refusal re-renders the
 * form with each message beside its field and everything typed kept.
 */
export default async function messagesAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    const viewer = messagesViewer(request);
    ensureStaff(viewer);
    return { deps: messagesDeps(request), viewer };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`messagesAdmin.done.${done}`) : undefined;
  };
  const idOf = (request: FastifyRequest) => messageIdOf(paramsOf(IdParams, request, () => new AppError('Messages.NotFound')).id);
  const formOfBody = ({ intent: _i, bankQ: _q, bankSearch: _s, bankPick: _p, ...rest }: z.infer<typeof MessageBody>): StaffMessageForm => rest;
  const errorsOf = (e: AppError): Record<string, string> | null => {
    if (e.fields && Object.keys(e.fields).length) return Object.fromEntries(Object.entries(e.fields).map(([f, v]) => [f, t(v.key, v.values)]));
    if (e.code === 'Messages.BadMove' || e.code === 'Messages.Busy') return { form: t(e.key, e.values) };
    return null;
  };

  app.get('/admin/messages', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const q = queryOf(ListQuery, request);
    const after = q.after ? Number(q.after) : null;
    const { rows, next } = await listStaffMessages(deps, viewer, { after });
    return reply.page({ title: t('messagesAdmin.title'), body: <MessagesAdmin rows={rows} next={next} after={after} notice={noticeOf(request)} /> });
  });

  const newPage = async (request: FastifyRequest, reply: FastifyReply, values: StaffMessageForm, errors: Record<string, string> = {}, status?: number, count?: number, picker?: BankPickerState) => {
    const { deps } = call(request);
    const options = await audienceOptions(deps.db, deps.community);
    return reply.page({ title: t('messagesAdmin.newTitle'), status, body: <MessageNew values={values} errors={errors} options={options} count={count} picker={picker} /> });
  };

  const detailPage = async (request: FastifyRequest, reply: FastifyReply, id: number, typed?: { values: StaffMessageForm; errors: Record<string, string>; count?: number; picker?: BankPickerState }, status?: number) => {
    const { deps, viewer } = call(request);
    const [message, options] = await Promise.all([getStaffMessage(deps, viewer, id), audienceOptions(deps.db, deps.community)]);
    return reply.page({
      title: message.subject,
      status,
      body: <MessageDetail message={message} values={typed?.values} errors={typed?.errors ?? {}} options={options} count={typed?.count} picker={typed?.picker} notice={typed ? undefined : noticeOf(request)} />,
    });
  };

  /** The form's one POST: count (the form again with the count), save, send now, or schedule. */
  const submit = async (request: FastifyRequest, reply: FastifyReply, id: number | null) => {
    const body = formOf(MessageBody, request);
    const values = formOfBody(body);
    const again = (errors: Record<string, string>, status: number, count?: number, picker?: BankPickerState, typed = values) =>
      id === null ? newPage(request, reply, typed, errors, status, count, picker) : detailPage(request, reply, id, { values: typed, errors, count, picker }, status);
    const { deps, viewer } = call(request);
    // The content bank's picker: a search, or an item picked (its title and address added to the body).
    const picking = await bankPickerStep(deps, viewer, body);
    if (picking) return again({}, 200, undefined, picking.picker, picking.picked ? { ...values, body: withBankLink(values.body, picking.picked) } : values);
    try {
      if (body.intent === 'count') return await again({}, 200, await countMessageAudience(deps, viewer, values));
      // A schedule's time is checked before anything is saved.
      if (body.intent === 'schedule') scheduleOf(values.scheduledAt, deps.clock.now());
      const saved = id === null ? await createMessage(deps, viewer, values) : await updateMessage(deps, viewer, id, values);
      let done: Done = 'saved';
      if (body.intent === 'send') {
        await sendMessage(deps, viewer, saved);
        done = 'sending';
      } else if (body.intent === 'schedule') {
        await scheduleMessage(deps, viewer, saved, values.scheduledAt);
        done = 'scheduled';
      }
      return await reply.redirectTo(withDone(`/admin/messages/${saved}`, done));
    } catch (e) {
      const errors = isAppError(e) ? errorsOf(e) : null;
      if (!errors || !isAppError(e)) throw e;
      return again(errors, e.status);
    }
  };

  app.get('/admin/messages/new', admin, async (request, reply) => newPage(request, reply, blankMessageForm()));
  app.post('/admin/messages', admin, async (request, reply) => submit(request, reply, null));
  app.get('/admin/messages/:id', admin, async (request, reply) => detailPage(request, reply, idOf(request)));
  app.post('/admin/messages/:id', admin, async (request, reply) => submit(request, reply, idOf(request)));

  app.post('/admin/messages/:id/cancel', admin, async (request, reply) => {
    const id = idOf(request);
    const { deps, viewer } = call(request);
    try {
      await cancelMessage(deps, viewer, id);
    } catch (e) {
      if (isAppError(e) && (e.code === 'Messages.BadMove' || e.code === 'Messages.Busy')) return detailPage(request, reply, id, undefined, e.status);
      throw e;
    }
    return reply.redirectTo(withDone(`/admin/messages/${id}`, 'cancelled'));
  });
}
