import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, isAppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { toCsv } from '#src/lib/csv.ts';
import { field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { ItemPage, LibraryPage } from '#src/features/content-bank/views/LibraryPages.tsx';
import { AssetsPage, CollectionPage, CollectionsPage, TagsPage } from '#src/features/content-bank/views/OrganisePages.tsx';
import { deleteAsset, listAssets, PDF_MAX_BYTES, UPLOAD_MAX_BYTES, uploadAsset } from './assets.ts';
import { addToCollection, createCollection, deleteCollection, getCollection, listCollections, moveInCollection, removeFromCollection, renameCollection } from './collections.ts';
import { bankDeps, bankIdOf, bankViewer, ensureStaff } from './deps.ts';
import { absoluteUrl, collectionCsv, planCollectionZip, streamCollectionZip } from './export.ts';
import { bankKeyOf, getBankItem } from './items.ts';
import { filterOptions } from './options.ts';
import { parseBankQuery, searchBank, searchFormOf } from './search.ts';
import { addTagToItem, createTag, deleteTag, listTags, untagItem } from './tags.ts';
import type { BankKey } from './types.ts';

const DONE = ['tagged', 'untagged', 'tagCreated', 'tagDeleted', 'collected', 'uncollected', 'collectionCreated', 'collectionSaved', 'collectionDeleted', 'moved', 'uploaded', 'assetDeleted'] as const;
type Done = (typeof DONE)[number];

const SearchQuery = z.object({ q: field(2000), kind: field(100), author: field(100), tag: field(100), from: field(100), to: field(100), after: field(1000), done: z.enum(DONE).optional().catch(undefined) });
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) }).passthrough();
const AfterQuery = z.object({ after: z.string().regex(/^\d{1,10}$/).optional().catch(undefined), done: z.string().max(40).optional() });
const ItemParams = z.object({ kind: z.string().max(20), id: z.string().max(40) });
const ItemTagParams = ItemParams.extend({ tagId: z.string().max(40) });
const IdParams = z.object({ id: z.string().max(40) });
const CollectionItemParams = z.object({ id: z.string().max(40), kind: z.string().max(20), itemId: z.string().max(40) });
const NameBody = z.object({ name: field(10_000) });
const CollectionBody = z.object({ name: field(10_000), description: field(100_000) });
const TagBody = z.object({ tagId: field(40), newTag: field(10_000) });
const CollectBody = z.object({ collectionId: field(40) });
const MoveBody = z.object({ direction: z.enum(['up', 'down']) });
const BackBody = z.object({ back: z.enum(['item', 'collection']).optional().catch(undefined) });
const UploadForm = z.object({ title: z.string().max(10_000).optional().catch(undefined), file: z.instanceof(Buffer).optional().catch(undefined) }).passthrough();

/** How many results the search's CSV carries at most. */
const CSV_MAX = 1000;

/**
 * The content bank for staff (ADMIN only): /admin/content-bank (search and filters, keyset pages, the
 * results' CSV), an item's page (its tags, collections and uses; an asset's file), tags, collections
 * (order, exports as CSV and as a zip of HTML pages), assets (upload, also as REST for other clients).
 * Plain forms with CSRF, each calling the same services as GraphQL; a refusal re-renders its page with
 * the message beside the field and what was typed.
 */
export default async function contentBankAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['ContentBank.Busy', 'ContentBank.Taken']);
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    const viewer = bankViewer(request);
    ensureStaff(viewer);
    return { deps: bankDeps(request), viewer };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`contentBank.done.${done}`) : undefined;
  };
  const notFound = () => new AppError('ContentBank.NotFound');
  const keyOf = (request: FastifyRequest): BankKey => {
    const p = paramsOf(ItemParams, request, notFound);
    return bankKeyOf(p.kind, p.id);
  };
  const idOf = (request: FastifyRequest) => bankIdOf(paramsOf(IdParams, request, notFound).id);
  const itemPath = (key: BankKey) => `/admin/content-bank/items/${key.kind}/${key.id}`;
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));

  // Uploads: one file (at most the larger limit: each kind's own is checked once it is sniffed) and a title.
  await acceptUploads(app, { maxBytes: UPLOAD_MAX_BYTES, fields: 4, fieldSize: 4096 });

  // ---- the library ----

  app.get('/admin/content-bank', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const raw = queryOf(SearchQuery, request);
    const form = searchFormOf(raw);
    const options = await filterOptions(deps.db, deps.community, deps.clock);
    const render = (page: Awaited<ReturnType<typeof searchBank>> | null, errors: Record<string, string>, status?: number) =>
      reply.page({ title: t('contentBank.title'), status, body: <LibraryPage form={form} errors={errors} page={page} options={options} after={raw.after || null} notice={raw.done ? t(`contentBank.done.${raw.done}`) : undefined} /> });
    let query;
    try {
      query = parseBankQuery(raw);
    } catch (e) {
      if (isAppError(e) && e.code === 'ContentBank.Invalid') return render(null, fieldsOf(e), e.status);
      throw e;
    }
    return render(await searchBank(deps, viewer, query), {});
  });

  app.get('/admin/content-bank/export.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const query = { ...parseBankQuery({ ...queryOf(SearchQuery, request), after: '' }), first: CSV_MAX };
    const page = await searchBank(deps, viewer, query);
    const csv = toCsv(
      ['kind', 'title', 'author', 'published', 'url', 'staffUrl', 'tags'].map((k) => t(`contentBank.csv.${k}`)),
      page.rows.map((r) => [t(`contentBank.kind.${r.kind}`), r.title, r.authorName ?? '', r.publishedAt.toISOString().slice(0, 10), absoluteUrl(r.url, deps.publicUrl), `${deps.publicUrl}${r.staffPath}`, r.tags.map((tag) => tag.name).join('; ')]),
    );
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="content-bank.csv"').header('cache-control', 'no-store').send(csv);
  });

  // ---- an item ----

  const itemPage = async (request: FastifyRequest, reply: FastifyReply, key: BankKey, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const [item, options, collections] = await Promise.all([getBankItem(deps, viewer, key), filterOptions(deps.db, deps.community, deps.clock), listCollections(deps, viewer)]);
    return reply.page({
      title: item.title,
      status,
      body: <ItemPage item={item} tags={options.tags} collections={collections} errors={form?.errors ?? {}} values={form?.values ?? {}} notice={form ? undefined : noticeOf(request)} />,
    });
  };

  app.get('/admin/content-bank/items/:kind/:id', admin, async (request, reply) => itemPage(request, reply, keyOf(request)));

  app.post('/admin/content-bank/items/:kind/:id/tags', admin, async (request, reply) => {
    const key = keyOf(request);
    const body = formOf(TagBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await addTagToItem(deps, viewer, key, body);
      return { done: 'tagged', path: `${itemPath(key)}#bank-item-tags` };
    }, { key: 'tags', values: body, render: (form, status) => itemPage(request, reply, key, form, status) });
  });

  app.post('/admin/content-bank/items/:kind/:id/tags/:tagId/remove', admin, async (request, reply) => {
    const p = paramsOf(ItemTagParams, request, notFound);
    const key = bankKeyOf(p.kind, p.id);
    const { deps, viewer } = call(request);
    await untagItem(deps, viewer, p.tagId, key);
    return reply.redirectTo(`${itemPath(key)}?done=untagged#bank-item-tags`);
  });

  app.post('/admin/content-bank/items/:kind/:id/collections', admin, async (request, reply) => {
    const key = keyOf(request);
    const body = formOf(CollectBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      if (!body.collectionId) throw new AppError('ContentBank.Invalid', { fields: { collectionId: { code: 'ContentBank.Invalid', key: 'contentBank.errors.collection' } } });
      await addToCollection(deps, viewer, body.collectionId, key);
      return { done: 'collected', path: `${itemPath(key)}#bank-item-collections` };
    }, { key: 'collections', values: body, render: (form, status) => itemPage(request, reply, key, form, status) });
  });

  // ---- tags ----

  const tagsPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const rows = await listTags(deps, viewer);
    return reply.page({ title: t('contentBank.tags.heading'), status, body: <TagsPage rows={rows} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get('/admin/content-bank/tags', admin, async (request, reply) => tagsPage(request, reply));

  app.post('/admin/content-bank/tags', admin, async (request, reply) => {
    const body = formOf(NameBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await createTag(deps, viewer, body.name);
      return { done: 'tagCreated', path: '/admin/content-bank/tags' };
    }, { key: 'tag', values: body, render: (form, status) => tagsPage(request, reply, form, status) });
  });

  app.post('/admin/content-bank/tags/:id/delete', admin, async (request, reply) => {
    const id = idOf(request);
    const { deps, viewer } = call(request);
    await deleteTag(deps, viewer, id);
    return reply.redirectTo('/admin/content-bank/tags?done=tagDeleted');
  });

  // ---- collections ----

  const collectionsPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const rows = await listCollections(deps, viewer);
    return reply.page({ title: t('contentBank.collections.heading'), status, body: <CollectionsPage rows={rows} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get('/admin/content-bank/collections', admin, async (request, reply) => collectionsPage(request, reply));

  app.post('/admin/content-bank/collections', admin, async (request, reply) => {
    const body = formOf(CollectionBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createCollection(deps, viewer, body);
      return { done: 'collectionCreated', path: `/admin/content-bank/collections/${id}` };
    }, { key: 'collection', values: body, render: (form, status) => collectionsPage(request, reply, form, status) });
  });

  const collectionPage = async (request: FastifyRequest, reply: FastifyReply, id: number, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const collection = await getCollection(deps, viewer, id);
    return reply.page({ title: collection.name, status, body: <CollectionPage collection={collection} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get('/admin/content-bank/collections/:id', admin, async (request, reply) => collectionPage(request, reply, idOf(request)));

  app.post('/admin/content-bank/collections/:id', admin, async (request, reply) => {
    const id = idOf(request);
    const body = formOf(CollectionBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await renameCollection(deps, viewer, id, body);
      return { done: 'collectionSaved', path: `/admin/content-bank/collections/${id}` };
    }, { key: 'collection', values: body, render: (form, status) => collectionPage(request, reply, id, form, status) });
  });

  app.post('/admin/content-bank/collections/:id/delete', admin, async (request, reply) => {
    const id = idOf(request);
    const { deps, viewer } = call(request);
    await deleteCollection(deps, viewer, id);
    return reply.redirectTo('/admin/content-bank/collections?done=collectionDeleted');
  });

  const collectionItemOf = (request: FastifyRequest) => {
    const p = paramsOf(CollectionItemParams, request, notFound);
    return { id: bankIdOf(p.id), key: bankKeyOf(p.kind, p.itemId) };
  };

  app.post('/admin/content-bank/collections/:id/items/:kind/:itemId/move', admin, async (request, reply) => {
    const { id, key } = collectionItemOf(request);
    const { direction } = formOf(MoveBody, request);
    const { deps, viewer } = call(request);
    await moveInCollection(deps, viewer, id, key, direction);
    return reply.redirectTo(`/admin/content-bank/collections/${id}?done=moved`);
  });

  app.post('/admin/content-bank/collections/:id/items/:kind/:itemId/remove', admin, async (request, reply) => {
    const { id, key } = collectionItemOf(request);
    const { back } = formOf(BackBody, request);
    const { deps, viewer } = call(request);
    await removeFromCollection(deps, viewer, id, key);
    return reply.redirectTo(back === 'item' ? `${itemPath(key)}?done=uncollected#bank-item-collections` : `/admin/content-bank/collections/${id}?done=uncollected`);
  });

  app.get('/admin/content-bank/collections/:id/export.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const { filename, csv } = await collectionCsv(deps, viewer, t, idOf(request));
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store').send(csv);
  });

  app.get('/admin/content-bank/collections/:id/export.zip', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    // Checked (and its items' texts gathered) before the first byte: a refusal is still a proper page.
    const plan = await planCollectionZip(deps, viewer, idOf(request));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${plan.filename}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(streamCollectionZip(deps, t, plan), { objectMode: false }));
  });

  // ---- assets ----

  const assetsPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const { after: a } = queryOf(AfterQuery, request);
    const after = a ? Number(a) : null;
    const { rows, next } = await listAssets(deps, viewer, after);
    return reply.page({ title: t('contentBank.assets.heading'), status, body: <AssetsPage rows={rows} next={next} after={after} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };

  app.get('/admin/content-bank/assets', admin, async (request, reply) => assetsPage(request, reply));

  /** The upload's parts as the multipart hook leaves them, or a refusal by field before any work. */
  const uploadOf = (request: FastifyRequest): { title: string; file: Buffer | undefined } | { errors: Record<string, string>; status: number; title: string } => {
    const body = request.isMultipart() ? UploadForm.parse(request.body ?? {}) : { title: undefined, file: undefined };
    const title = typeof body.title === 'string' ? body.title : '';
    if (uploadTooLarge(request)) return { errors: { file: t('contentBank.errors.fileTooLarge', { max: PDF_MAX_BYTES / 1024 / 1024 }) }, status: 413, title };
    if (!request.isMultipart() || !body.file || body.file.length === 0) return { errors: { file: t('contentBank.errors.fileMissing') }, status: 400, title };
    return { title, file: body.file };
  };

  app.post('/admin/content-bank/assets', { config: { ...admin.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const upload = uploadOf(request);
    if ('errors' in upload) return assetsPage(request, reply, { key: 'asset', values: { title: upload.title }, errors: upload.errors }, upload.status);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const { kind, id } = await uploadAsset(deps, viewer, { title: upload.title, bytes: upload.file });
      return { done: 'uploaded', path: `/admin/content-bank/items/${kind}/${id}` };
    }, { key: 'asset', values: { title: upload.title }, render: (form, status) => assetsPage(request, reply, form, status) });
  });

  /** The same upload for other clients (a bearer token, no CSRF): JSON in, JSON out. */
  app.post('/rest/admin/content-bank/assets', { config: { ...admin.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const upload = uploadOf(request);
    if ('errors' in upload) {
      const code = upload.status === 413 ? ('ContentBank.TooLarge' as const) : ('ContentBank.Invalid' as const);
      throw new AppError(code, { fields: { file: { code, key: upload.status === 413 ? 'contentBank.errors.fileTooLarge' : 'contentBank.errors.fileMissing', values: { max: PDF_MAX_BYTES / 1024 / 1024 } } } });
    }
    const { deps, viewer } = call(request);
    const { kind, id } = await uploadAsset(deps, viewer, { title: upload.title, bytes: upload.file });
    const item = await getBankItem(deps, viewer, { kind, id });
    return reply.status(201).send({ kind: kind.toUpperCase(), id: String(id), title: item.title, url: absoluteUrl(item.url, deps.publicUrl), contentType: item.asset?.contentType ?? null, byteSize: item.asset?.byteSize ?? null });
  });

  app.post('/admin/content-bank/assets/:id/delete', admin, async (request, reply) => {
    const id = idOf(request);
    const { deps, viewer } = call(request);
    await deleteAsset(deps, viewer, id);
    return reply.redirectTo('/admin/content-bank/assets?done=assetDeleted');
  });
}
