import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { toCsv } from '#src/lib/csv.ts';
import { checkbox, field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { bankPickerStep, withBankLink, type BankPickerState } from '#src/features/content-bank/index.ts';
import { AnnouncementEdit, AnnouncementNew, AnnouncementsAdmin } from '#src/features/feeds/views/admin/AnnouncementsAdmin.tsx';
import { FeaturedAdmin } from '#src/features/feeds/views/admin/FeaturedAdmin.tsx';
import { audienceGroups, blankAnnouncementForm, changeAnnouncement, createAnnouncement, deleteAnnouncement, getAnnouncement, listAnnouncements, stateOfArgument, updateAnnouncement } from './announcements.ts';
import { ensureStaff, feedIdOf, feedsDeps, feedsViewer } from './deps.ts';
import { changeFeatured, featuredStateOf, featureEvent, featureItem, listFeatured, searchFeaturable } from './featured.ts';
import { IMAGE_MAX_BYTES, removeAnnouncementImage, saveAnnouncementImage } from './images.ts';
import { readFeedLog } from './log.ts';
import { ITEM_KINDS, type AnnouncementForm, type EventForm } from './types.ts';

const DONE = ['created', 'saved', 'published', 'unpublished', 'pinned', 'unpinned', 'deleted', 'imageSaved', 'imageRemoved', 'featured', 'unfeatured'] as const;
type Done = (typeof DONE)[number];

const AnnouncementBody = z.object({
  title: field(10_000),
  body: field(100_000),
  imageAlt: field(10_000),
  linkUrl: field(10_000),
  linkLabel: field(10_000),
  audience: field(40),
  groupId: field(40),
  pinned: checkbox,
  startsAt: field(100),
  endsAt: field(100),
  intent: z.enum(['save', 'publish']).optional().catch('save'),
  // The content bank's picker (views/kit/bank-picker.tsx): its search, its button, an item picked, where it goes.
  bankQ: field(1000),
  bankSearch: field(10),
  bankPick: field(40),
  bankTarget: z.enum(['body', 'link']).catch('body'),
});
type AnnouncementPicker = BankPickerState & { target: 'body' | 'link' };
const FeatureBody = z.object({ kind: field(40), q: field(1000), itemId: field(40), pinned: checkbox, endsAt: field(100) });
const EventBody = z.object({ title: field(10_000), url: field(10_000), date: field(100), place: field(10_000), pinned: checkbox, endsAt: field(100) });
const ListQuery = z.object({ state: z.string().max(40).optional(), after: z.string().regex(/^\d{1,10}$/).optional(), done: z.string().max(40).optional() });
const FeaturedQuery = ListQuery.extend({ kind: z.string().max(40).optional(), q: z.string().max(1000).optional() });
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) }).passthrough();
const IdParams = z.object({ id: z.string().max(40) });
const ImageForm = z.object({ image: z.instanceof(Buffer).optional().catch(undefined) }).passthrough();
const AnnouncementChange = z.object({ change: z.enum(['publish', 'unpublish', 'pin', 'unpin', 'delete', 'removeImage']) });
const FeaturedChange = z.object({ change: z.enum(['pin', 'unpin', 'unfeature']) });
const CHANGED = { publish: 'published', unpublish: 'unpublished', pin: 'pinned', unpin: 'unpinned', removeImage: 'imageRemoved' } as const satisfies Record<string, Done>;

const flat = (values: Record<string, string | boolean>): Record<string, string> => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 'on' : '') : v]));

/**
 * The staff's feeds (ADMIN only), two tabs of /admin/feeds (views/admin/feeds-tabs.tsx; the third,
 * syndication, is another area's): the announcements (/admin/feeds: the list by state, the CSV, the
 * latest changes; /admin/feeds/announcements/new and /{id}: the form, its log, the image upload, and
 * one POST for its one-button changes: publish, unpublish, pin, unpin, delete, remove the image) and
 * the featured items (/admin/feeds/featured: the list by state, the search to feature an item, the
 * event link form, and one POST for pin, unpin and unfeature). Plain form POSTs (CSRF by the security
 * plugin), each calling the same services as GraphQL, then a 303 back with a notice; a refused one
 * re-renders its page with the message beside the field and what was typed.
 */
export default async function feedsAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['Feeds.Busy', 'Feeds.AlreadyFeatured']);
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    const viewer = feedsViewer(request);
    ensureStaff(viewer);
    return { deps: feedsDeps(request), viewer };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`feedsAdmin.done.${done}`) : undefined;
  };
  const idOf = (request: FastifyRequest) => feedIdOf(paramsOf(IdParams, request, () => new AppError('Feeds.NotFound')).id);
  const formOfBody = ({ intent: _i, bankQ: _q, bankSearch: _s, bankPick: _p, bankTarget: _t, ...rest }: z.infer<typeof AnnouncementBody>): AnnouncementForm => rest;

  /**
   * The content bank's picker on the announcement form (as messages' and offers'): a search, or an
   * item picked (its title and address added to the body, or its address and title into the link's
   * fields, a label already typed kept). Null: another button was pressed.
   */
  const picking = async (request: FastifyRequest, body: z.infer<typeof AnnouncementBody>): Promise<{ values: AnnouncementForm; picker: AnnouncementPicker } | null> => {
    const { viewer } = call(request);
    const app = request.server;
    const step = await bankPickerStep({ db: app.db, clock: app.clock, community: request.community, publicUrl: `${app.config.publicUrl}${app.config.basePath}` }, viewer, body);
    if (!step) return null;
    const form = formOfBody(body);
    const picked = step.picked;
    const values = !picked ? form : body.bankTarget === 'link' && picked.link ? { ...form, linkUrl: picked.link, linkLabel: form.linkLabel.trim() ? form.linkLabel : picked.title.slice(0, 80) } : { ...form, body: withBankLink(form.body, picked) };
    return { values, picker: { ...step.picker, target: body.bankTarget } };
  };

  await acceptUploads(app, { maxBytes: IMAGE_MAX_BYTES, fields: 4, fieldSize: 1024 });

  // ---- Announcements ----

  app.get('/admin/feeds', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const q = queryOf(ListQuery, request);
    const state = stateOfArgument(q.state);
    const after = q.after ? Number(q.after) : null;
    const [{ rows, next }, log] = await Promise.all([listAnnouncements(deps, viewer, { state, after }), readFeedLog(deps.db, deps.community, { subject: 'announcement' })]);
    return reply.page({ title: t('feedsAdmin.title'), body: <AnnouncementsAdmin rows={rows} next={next} after={after} state={state} log={log} notice={noticeOf(request)} /> });
  });

  app.get('/admin/feeds/announcements.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const state = stateOfArgument(queryOf(ListQuery, request).state);
    const rows = [];
    let after: number | null = null;
    // Every page, up to a bound (a community's announcements are counted in hundreds).
    for (let i = 0; i < 100; i++) {
      const page = await listAnnouncements(deps, viewer, { state, after });
      rows.push(...page.rows);
      if (!page.next) break;
      after = page.next;
    }
    const csv = toCsv(
      ['title', 'state', 'audience', 'pinned', 'startsAt', 'endsAt', 'seen', 'updated'].map((c) => t(`feedsAdmin.csv.${c}`)),
      rows.map((r) => [r.title, t(`feedsAdmin.state.${r.state}`), r.audience === 'group' ? (r.groupName ?? t('feedsAdmin.groupGone')) : t('feedsAdmin.audience.everyone'), r.pinned ? t('feedsAdmin.csv.yes') : t('feedsAdmin.csv.no'), r.shownFrom, r.endsAt, r.seenCount, r.updatedAt]),
    );
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="announcements.csv"').header('cache-control', 'no-store').send(csv);
  });

  const newPage = async (request: FastifyRequest, reply: FastifyReply, values: AnnouncementForm, errors: Record<string, string> = {}, status?: number, picker?: AnnouncementPicker) => {
    const { deps } = call(request);
    const groups = await audienceGroups(deps);
    return reply.page({ title: t('feedsAdmin.newTitle'), status, body: <AnnouncementNew values={values} errors={errors} groups={groups} picker={picker} /> });
  };

  const editPage = async (request: FastifyRequest, reply: FastifyReply, id: number, form?: StaffActionForm, status?: number, picker?: AnnouncementPicker) => {
    const { deps, viewer } = call(request);
    const [announcement, groups] = await Promise.all([getAnnouncement(deps, viewer, id), audienceGroups(deps)]);
    return reply.page({ title: t('feedsAdmin.editTitle', { title: announcement.title }), status, body: <AnnouncementEdit announcement={announcement} groups={groups} form={form} picker={picker} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get('/admin/feeds/announcements/new', admin, async (request, reply) => newPage(request, reply, blankAnnouncementForm()));

  app.post('/admin/feeds/announcements', admin, async (request, reply) => {
    const body = formOf(AnnouncementBody, request);
    const picked = await picking(request, body);
    if (picked) return newPage(request, reply, picked.values, {}, 200, picked.picker);
    const values = formOfBody(body);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createAnnouncement(deps, viewer, values, { publish: body.intent === 'publish' });
      return { done: body.intent === 'publish' ? 'published' : 'created', path: `/admin/feeds/announcements/${id}` };
    }, { key: 'announcement', values: flat(values), render: (form, status) => newPage(request, reply, values, form.errors, status) });
  });

  app.get('/admin/feeds/announcements/:id', admin, async (request, reply) => editPage(request, reply, idOf(request)));

  app.post('/admin/feeds/announcements/:id', admin, async (request, reply) => {
    const id = idOf(request);
    const body = formOf(AnnouncementBody, request);
    const picked = await picking(request, body);
    if (picked) return editPage(request, reply, id, { key: 'announcement', values: flat(picked.values), errors: {} }, 200, picked.picker);
    const values = formOfBody(body);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await updateAnnouncement(deps, viewer, id, values, { publish: body.intent === 'publish' });
      return { done: body.intent === 'publish' ? 'published' : 'saved', path: `/admin/feeds/announcements/${id}` };
    }, { key: 'announcement', values: flat(values), render: (form, status) => editPage(request, reply, id, form, status) });
  });

  // The one-button changes of an announcement (publish, unpublish, pin, unpin, delete, remove the image): one route, the change named in the form.
  app.post('/admin/feeds/announcements/:id/change', admin, async (request, reply) => {
    const id = idOf(request);
    const { change } = formOf(AnnouncementChange, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      if (change === 'delete') {
        await deleteAnnouncement(deps, viewer, id);
        return { done: 'deleted', path: '/admin/feeds' };
      }
      if (change === 'removeImage') await removeAnnouncementImage(deps, viewer, id);
      else await changeAnnouncement(deps, viewer, id, change);
      return { done: CHANGED[change], path: `/admin/feeds/announcements/${id}` };
    }, { key: 'status', values: {}, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.post('/admin/feeds/announcements/:id/image', { config: { ...admin.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const id = idOf(request);
    const refuse = (k: string, status: number) => editPage(request, reply, id, { key: 'image', values: {}, errors: { image: t(`feedsAdmin.errors.${k}`, { max: IMAGE_MAX_BYTES / 1024 / 1024 }) } }, status);
    if (uploadTooLarge(request)) return refuse('imageTooLarge', 413);
    if (!request.isMultipart()) return refuse('imageMissing', 400);
    const { image } = ImageForm.parse(request.body ?? {});
    if (!image || image.length === 0) return refuse('imageMissing', 400);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await saveAnnouncementImage(deps, viewer, id, image);
      return { done: 'imageSaved', path: `/admin/feeds/announcements/${id}` };
    }, { key: 'image', values: {}, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  // ---- Featured items ----

  const featuredPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const q = queryOf(FeaturedQuery, request);
    const state = featuredStateOf(q.state);
    const after = q.after ? Number(q.after) : null;
    // The search: the query string's, or what a refused feature form carried.
    const kind = form?.key === 'feature' ? form.values.kind : q.kind;
    const words = form?.key === 'feature' ? form.values.q : q.q;
    const searching = kind !== undefined && (ITEM_KINDS as readonly string[]).includes(kind);
    const [{ rows, next }, found, log] = await Promise.all([
      listFeatured(deps, viewer, { state, after }),
      searching ? searchFeaturable(deps, viewer, kind, words ?? '') : Promise.resolve(null),
      readFeedLog(deps.db, deps.community, { subject: 'featured' }),
    ]);
    return reply.page({
      title: t('feedsAdmin.featured.title'),
      status,
      body: <FeaturedAdmin rows={rows} next={next} after={after} state={state} search={{ kind: searching ? kind! : '', q: words ?? '', found }} log={log} form={form} notice={form ? undefined : noticeOf(request)} forumEnabled={deps.community.forum_enabled} />,
    });
  };

  app.get('/admin/feeds/featured', admin, async (request, reply) => featuredPage(request, reply));

  app.post('/admin/feeds/featured', admin, async (request, reply) => {
    const body = formOf(FeatureBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      if (!body.itemId) throw new AppError('Feeds.Invalid', { fields: { itemId: { code: 'Feeds.Invalid', key: 'feedsAdmin.errors.itemRequired' } } });
      await featureItem(deps, viewer, { kind: body.kind, itemId: body.itemId, pinned: body.pinned, endsAt: body.endsAt });
      return { done: 'featured', path: '/admin/feeds/featured' };
    }, { key: 'feature', values: flat(body), render: (form, status) => featuredPage(request, reply, form, status) });
  });

  app.post('/admin/feeds/featured/event', admin, async (request, reply) => {
    const body = formOf(EventBody, request);
    const values: EventForm = body;
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await featureEvent(deps, viewer, values);
      return { done: 'featured', path: '/admin/feeds/featured' };
    }, { key: 'event', values: flat(values), render: (form, status) => featuredPage(request, reply, form, status) });
  });

  // The one-button changes of a featured item (pin, unpin, unfeature): one route, the change named in the form.
  app.post('/admin/feeds/featured/:id/change', admin, async (request, reply) => {
    const id = idOf(request);
    const { change } = formOf(FeaturedChange, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await changeFeatured(deps, viewer, id, change);
      return { done: change === 'unfeature' ? 'unfeatured' : change === 'pin' ? 'pinned' : 'unpinned', path: '/admin/feeds/featured' };
    }, { key: 'list', values: {}, render: (form, status) => featuredPage(request, reply, form, status) });
  });
}
