import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { checkbox, field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { SyndicationAdmin, SyndicationFeedPage } from '#src/features/syndication/views/admin/SyndicationAdmin.tsx';
import { syndicationDeps, syndicationViewer } from './deps.ts';
import { blankFeedForm } from './feed-input.ts';
import { createFeed, deleteFeed, feedChoices, feedIdOf, feedsLog, getFeed, listFeeds, setFeedEnabled, updateFeed } from './staff.ts';
import type { FeedForm } from './types.ts';

const DONE = ['created', 'saved', 'enabled', 'disabled', 'deleted'] as const;
type Done = (typeof DONE)[number];
const BASE = '/admin/feeds/syndication';

/** A ticked box sends its value; several ticked, the field comes as a list (at most a few). */
const ticked = z
  .union([z.string().max(40), z.array(z.string().max(40)).max(10)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
/** Ticked tags or collections (ids; the service refuses more than it takes, beside the field). */
const tickedIds = z
  .union([z.string().max(40), z.array(z.string().max(40)).max(100)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const FeedBody = z.object({ title: field(10_000), slug: field(1000), description: field(100_000), limit: field(100), types: ticked, tags: tickedIds, collections: tickedIds, enabled: checkbox });
const DeleteBody = z.object({ confirm: checkbox });
const IdParams = z.object({ id: z.string().max(40) });
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) }).passthrough();

type Body = z.infer<typeof FeedBody>;
const formOfBody = (b: Body): FeedForm => ({ title: b.title, slug: b.slug, description: b.description, limit: b.limit, types: b.types, tags: b.tags, collections: b.collections, enabled: b.enabled });
/** What was typed, as a refused form's page shows it again. */
const typed = (f: FeedForm): Record<string, string> => ({
  title: f.title,
  slug: f.slug,
  description: f.description,
  limit: f.limit,
  types: f.types.join(','),
  tags: (f.tags ?? []).join(','),
  collections: (f.collections ?? []).join(','),
  enabled: f.enabled ? 'on' : '',
});

/**
 * The staff's syndication feeds (ADMIN only), the Syndication tab of /admin/feeds:
 * /admin/feeds/syndication (every feed with its three addresses, a new feed's form, the log) and
 * /admin/feeds/syndication/{id} (its form, addresses, the items it carries now, enable or disable,
 * delete, its log). Plain form POSTs (CSRF by the security plugin) calling the same services as
 * GraphQL, then a 303 back with a notice; a refused one re-renders its page with the message beside
 * the field and what was typed.
 */
export default async function syndicationAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['Syndication.Busy']);
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: syndicationDeps(request), viewer: syndicationViewer(request) };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`syndication.admin.done.${done}`) : undefined;
  };
  const idOf = (request: FastifyRequest) => feedIdOf(paramsOf(IdParams, request, () => new AppError('Syndication.NotFound')).id);

  const listPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const [feeds, log, choices] = await Promise.all([listFeeds(deps, viewer), feedsLog(deps, viewer), feedChoices(deps, viewer)]);
    return reply.page({ title: t('syndication.admin.title'), status, body: <SyndicationAdmin feeds={feeds} log={log} choices={choices} blank={typed(blankFeedForm())} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  const feedPage = async (request: FastifyRequest, reply: FastifyReply, id: number, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const [feed, choices] = await Promise.all([getFeed(deps, viewer, id), feedChoices(deps, viewer)]);
    return reply.page({ title: t('syndication.admin.feedTitle', { title: feed.title }), status, body: <SyndicationFeedPage feed={feed} choices={choices} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get(BASE, admin, async (request, reply) => listPage(request, reply));

  app.post(BASE, admin, async (request, reply) => {
    const form = formOfBody(formOf(FeedBody, request));
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createFeed(deps, viewer, form);
      return { done: 'created', path: `${BASE}/${id}` };
    }, { key: 'feed', values: typed(form), render: (f, status) => listPage(request, reply, f, status) });
  });

  app.get(`${BASE}/:id`, admin, async (request, reply) => feedPage(request, reply, idOf(request)));

  app.post(`${BASE}/:id`, admin, async (request, reply) => {
    const id = idOf(request);
    const form = formOfBody(formOf(FeedBody, request));
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await updateFeed(deps, viewer, id, form);
      return { done: 'saved', path: `${BASE}/${id}` };
    }, { key: 'feed', values: typed(form), render: (f, status) => feedPage(request, reply, id, f, status) });
  });

  for (const [verb, on] of [['enable', true], ['disable', false]] as const) {
    app.post(`${BASE}/:id/${verb}`, admin, async (request, reply) => {
      const id = idOf(request);
      return act(request, reply, async () => {
        const { deps, viewer } = call(request);
        await setFeedEnabled(deps, viewer, id, on);
        return { done: on ? 'enabled' : 'disabled', path: `${BASE}/${id}` };
      }, { key: 'state', values: {}, render: (f, status) => feedPage(request, reply, id, f, status) });
    });
  }

  app.post(`${BASE}/:id/delete`, admin, async (request, reply) => {
    const id = idOf(request);
    const { confirm } = formOf(DeleteBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      if (!confirm) throw new AppError('Syndication.Invalid', { fields: { confirm: { code: 'Syndication.Invalid', key: 'syndication.errors.confirmDelete' } } });
      await deleteFeed(deps, viewer, id);
      return { done: 'deleted', path: BASE };
    }, { key: 'delete', values: {}, render: (f, status) => feedPage(request, reply, id, f, status) });
  });
}
