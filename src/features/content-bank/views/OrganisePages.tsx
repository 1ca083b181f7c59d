import type { BankAssetRow, BankCollectionDetail, BankCollectionRow, BankTagRow } from '#src/features/content-bank/index.ts';
import { formatDate } from '#shared/format.ts';
import { ActionForm, AdminTable, AdminTabFrame, dateTime, Pager } from '#views/admin/tab-frame.tsx';
import { CsrfField, Field, TextArea } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { BankTabs, itemHref, kilobytes } from './parts.tsx';

/** A refused form of these pages: which one, what was typed, the messages. */
export type BankForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

const typed = (form: BankForm | undefined, key: string) => (form?.key === key ? form : { key, values: {} as Record<string, string>, errors: {} as Record<string, string> });

/** /admin/content-bank/tags: create a tag; every tag with its items counted, a link to them, delete. */
export function TagsPage({ rows, form, notice }: { rows: BankTagRow[]; form?: BankForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const f = typed(form, 'tag');
  return (
    <AdminTabFrame className="bank-admin" heading={t('contentBank.tags.heading')} tabs={<BankTabs current="tags" />} notice={notice} error={f.errors.form}>
      <form method="post" action={href('/admin/content-bank/tags')} className="bank-inline-form" noValidate>
        <CsrfField />
        <h2>{t('contentBank.tags.create')}</h2>
        <Field id="bank-tag-name" name="name" label={t('contentBank.tags.name')} defaultValue={f.values.name ?? ''} error={f.errors.name} maxLength={60} />
        <button type="submit" className="button">
          {t('contentBank.tags.submit')}
        </button>
      </form>
      <AdminTable prefix="contentBank.tags" section="list" columns={['name', 'items', 'created', 'actions']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/content-bank?tag=${r.id}`)}>{r.name}</a>
            </td>
            <td>{r.itemCount}</td>
            <td>{formatDate(r.createdAt)}</td>
            <td>
              <ActionForm action={`/admin/content-bank/tags/${r.id}/delete`} label={t('contentBank.tags.delete', { name: r.name })} secondary />
            </td>
          </tr>
        ))}
      </AdminTable>
    </AdminTabFrame>
  );
}

function CollectionFields({ prefix, values, errors }: { prefix: string; values: Record<string, string>; errors: Record<string, string> }) {
  const { t } = usePage();
  return (
    <>
      <Field id={`${prefix}-name`} name="name" label={t('contentBank.collections.name')} defaultValue={values.name ?? ''} error={errors.name} maxLength={120} />
      <TextArea id={`${prefix}-description`} name="description" label={t('contentBank.collections.description')} hint={t('contentBank.collections.descriptionHint')} value={values.description ?? ''} error={errors.description} rows={3} />
    </>
  );
}

/** /admin/content-bank/collections: make one; every collection with its items counted. */
export function CollectionsPage({ rows, form, notice }: { rows: BankCollectionRow[]; form?: BankForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const f = typed(form, 'collection');
  return (
    <AdminTabFrame className="bank-admin" heading={t('contentBank.collections.heading')} tabs={<BankTabs current="collections" />} notice={notice} error={f.errors.form}>
      <AdminTable prefix="contentBank.collections" section="list" columns={['name', 'items', 'updated']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(`/admin/content-bank/collections/${r.id}`)}>{r.name}</a>
              {r.description ? <span className="bank-summary muted">{r.description}</span> : null}
            </td>
            <td>{r.itemCount}</td>
            <td>{dateTime(r.updatedAt)}</td>
          </tr>
        ))}
      </AdminTable>
      <form method="post" action={href('/admin/content-bank/collections')} noValidate>
        <CsrfField />
        <h2>{t('contentBank.collections.create')}</h2>
        <CollectionFields prefix="bank-collection-new" values={f.values} errors={f.errors} />
        <button type="submit" className="button">
          {t('contentBank.collections.submit')}
        </button>
      </form>
    </AdminTabFrame>
  );
}

/** /admin/content-bank/collections/{id}: its items in order (up, down, remove), its exports, its name, delete. */
export function CollectionPage({ collection, form, notice }: { collection: BankCollectionDetail; form?: BankForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const c = (k: string, v?: Record<string, unknown>) => t(`contentBank.collection.${k}`, v);
  const f = typed(form, 'collection');
  const values = form?.key === 'collection' ? f.values : { name: collection.name, description: collection.description };
  const base = `/admin/content-bank/collections/${collection.id}`;
  const last = collection.entries.length - 1;
  return (
    <AdminTabFrame className="bank-admin" heading={collection.name} tabs={<BankTabs current="collections" />} notice={notice} error={form?.errors.form}>
      <p>
        <a href={href('/admin/content-bank/collections')}>{c('back')}</a>
      </p>
      {collection.description ? <p>{collection.description}</p> : null}
      <AdminTable prefix="contentBank.collection" section="items" columns={['position', 'title', 'kind', 'actions']} empty={collection.entries.length === 0}>
        {collection.entries.map((e, n) => {
          const title = e.item?.title ?? c('gone');
          return (
            <tr key={`${e.kind}:${e.id}`}>
              <td>{n + 1}</td>
              <td>{e.item ? <a href={href(itemHref(e.kind, e.id))}>{e.item.title}</a> : <span className="muted">{c('gone')}</span>}</td>
              <td>{t(`contentBank.kind.${e.kind}`)}</td>
              <td className="bank-order">
                {n > 0 ? <ActionForm action={`${base}/items/${e.kind}/${e.id}/move`} label={c('up')} ariaLabel={c('upItem', { title })} fields={{ direction: 'up' }} secondary /> : null}
                {n < last ? <ActionForm action={`${base}/items/${e.kind}/${e.id}/move`} label={c('down')} ariaLabel={c('downItem', { title })} fields={{ direction: 'down' }} secondary /> : null}
                <ActionForm action={`${base}/items/${e.kind}/${e.id}/remove`} label={c('remove')} ariaLabel={c('removeItem', { title })} secondary />
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <p className="muted">{c('addHint')}</p>
      <section aria-labelledby="bank-collection-export">
        <h2 id="bank-collection-export">{c('export')}</h2>
        <ul className="board-links">
          <li>
            <a href={href(`${base}/export.csv`)} download>
              {c('exportCsv')}
            </a>
          </li>
          <li>
            <a href={href(`${base}/export.zip`)} download>
              {c('exportZip')}
            </a>
          </li>
        </ul>
      </section>
      <section aria-labelledby="bank-collection-edit">
        <h2 id="bank-collection-edit">{c('edit')}</h2>
        <form method="post" action={href(base)} noValidate>
          <CsrfField />
          <CollectionFields prefix="bank-collection" values={values} errors={f.errors} />
          <button type="submit" className="button">
            {c('save')}
          </button>
        </form>
      </section>
      <section aria-labelledby="bank-collection-delete">
        <h2 id="bank-collection-delete">{c('delete')}</h2>
        <p>{c('deleteHint')}</p>
        <ActionForm action={`${base}/delete`} label={c('delete')} secondary />
      </section>
    </AdminTabFrame>
  );
}

/** /admin/content-bank/assets: the upload form (multipart) and the community's assets, newest first. */
export function AssetsPage({ rows, next, after, form, notice }: { rows: BankAssetRow[]; next: number | null; after: number | null; form?: BankForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const a = (k: string) => t(`contentBank.assets.${k}`);
  const f = typed(form, 'asset');
  return (
    <AdminTabFrame className="bank-admin" heading={a('heading')} tabs={<BankTabs current="assets" />} notice={notice} error={f.errors.form}>
      <form method="post" action={href('/admin/content-bank/assets')} encType="multipart/form-data" noValidate>
        <CsrfField />
        <h2>{a('upload')}</h2>
        <Field id="bank-asset-title" name="title" label={a('title')} defaultValue={f.values.title ?? ''} error={f.errors.title} maxLength={200} />
        <Field id="bank-asset-file" name="file" type="file" accept="image/jpeg,image/png,image/webp,application/pdf" label={a('file')} hint={a('fileHint')} error={f.errors.file} />
        <button type="submit" className="button">
          {a('submit')}
        </button>
      </form>
      <AdminTable prefix="contentBank.assets" section="list" columns={['title', 'kind', 'size', 'uploaded']} empty={rows.length === 0}>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={href(itemHref(r.kind, r.id))}>{r.title}</a> <span className="muted">{r.filename}</span>
            </td>
            <td>{t(`contentBank.kind.${r.kind}`)}</td>
            <td>{t('contentBank.assets.size', { kb: kilobytes(r.byteSize) })}</td>
            <td>{dateTime(r.createdAt)}</td>
          </tr>
        ))}
      </AdminTable>
      <Pager base="/admin/content-bank/assets" after={after ? String(after) : null} next={next ? String(next) : null} nextLabel={a('more')} firstLabel={a('first')} />
    </AdminTabFrame>
  );
}
