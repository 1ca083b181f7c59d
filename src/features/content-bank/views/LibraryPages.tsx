import type { BankCollectionRow, BankFilterOptions, BankItemDetail, BankSearchForm, BankSearchPage, BankTagRef } from '#src/features/content-bank/index.ts';
import { formatDate } from '#shared/format.ts';
import { ActionForm, AdminTable, AdminTabFrame, dateTime, Pager } from '#views/admin/tab-frame.tsx';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { BankTabs, ItemTitle, kilobytes, Select, useOpenHref } from './parts.tsx';

const KINDS = ['article', 'roundup', 'answer', 'image', 'pdf'] as const;

/** The search's query string (without the cursor), to keep in the pager's and the CSV's links. */
export function searchParams(form: BankSearchForm): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v) p.set(k, v);
  return p.toString();
}

function TagList({ tags }: { tags: BankTagRef[] }) {
  if (tags.length === 0) return null;
  return <span className="bank-tags">{tags.map((t) => t.name).join(', ')}</span>;
}

/** /admin/content-bank: the search form, the matching items (keyset pages), and their CSV. */
export function LibraryPage({ form, errors, page, options, after, notice }: { form: BankSearchForm; errors: Record<string, string>; page: BankSearchPage | null; options: BankFilterOptions; after: string | null; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const s = (k: string) => t(`contentBank.search.${k}`);
  const params = searchParams(form);
  return (
    <AdminTabFrame className="bank-admin" heading={t('contentBank.heading')} tabs={<BankTabs current="library" />} notice={notice}>
      <form method="get" action={href('/admin/content-bank')} role="search" aria-label={s('label')} className="bank-search" noValidate>
        <Field id="bank-q" name="q" type="search" label={s('q')} hint={s('qHint')} defaultValue={form.q} error={errors.q} maxLength={200} />
        <div className="filters">
          <Select id="bank-kind" name="kind" label={s('kind')} value={form.kind} error={errors.kind} placeholder={s('anyKind')} options={KINDS.map((k) => ({ value: k, label: t(`contentBank.kind.${k}`) }))} />
          <Select id="bank-author" name="author" label={s('author')} value={form.author} error={errors.author} placeholder={s('anyAuthor')} options={options.authors.map((a) => ({ value: String(a.id), label: a.name }))} />
          <Select id="bank-tag" name="tag" label={s('tag')} value={form.tag} error={errors.tag} placeholder={s('anyTag')} options={options.tags.map((tag) => ({ value: String(tag.id), label: tag.name }))} />
          <Field id="bank-from" name="from" type="date" label={s('from')} defaultValue={form.from} error={errors.from} />
          <Field id="bank-to" name="to" type="date" label={s('to')} defaultValue={form.to} error={errors.to} />
        </div>
        {errors.after ? <p className="field-error">{errors.after}</p> : null}
        <p className="actions">
          <button type="submit" className="button">
            {s('submit')}
          </button>{' '}
          {params ? <a href={href('/admin/content-bank')}>{s('clear')}</a> : null}
        </p>
      </form>
      {page ? (
        <>
          <p className="muted">{page.ranked ? s('ranked') : s('newest')}</p>
          <AdminTable prefix="contentBank" section="list" columns={['title', 'kind', 'author', 'published', 'tags']} empty={page.rows.length === 0}>
            {page.rows.map((r) => (
              <tr key={`${r.kind}:${r.id}`}>
                <td>
                  <ItemTitle item={r} />
                </td>
                <td>{t(`contentBank.kind.${r.kind}`)}</td>
                <td>{r.authorName ?? ''}</td>
                <td>{formatDate(r.publishedAt)}</td>
                <td>
                  <TagList tags={r.tags} />
                </td>
              </tr>
            ))}
          </AdminTable>
          <Pager base="/admin/content-bank" after={after} next={page.next} nextLabel={s('more')} firstLabel={s('first')} params={params} />
          {page.rows.length ? (
            <p>
              <a href={href(`/admin/content-bank/export.csv${params ? `?${params}` : ''}`)} download>
                {s('csv')}
              </a>
            </p>
          ) : null}
        </>
      ) : null}
    </AdminTabFrame>
  );
}

/** /admin/content-bank/items/{kind}/{id}: the item, its tags, its collections, where it was used; an asset's file. */
export function ItemPage({ item, tags, collections, errors, values, notice }: { item: BankItemDetail; tags: BankTagRef[]; collections: BankCollectionRow[]; errors: Record<string, string>; values: Record<string, string>; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const open = useOpenHref();
  const i = (k: string, v?: Record<string, unknown>) => t(`contentBank.item.${k}`, v);
  const base = `/admin/content-bank/items/${item.kind}/${item.id}`;
  const onItem = new Set(item.tags.map((tag) => tag.id));
  const addable = tags.filter((tag) => !onItem.has(tag.id));
  const inCollections = new Set(item.collections.map((c) => c.id));
  const collectable = collections.filter((c) => !inCollections.has(c.id));
  return (
    <AdminTabFrame className="bank-admin bank-item" heading={item.title} tabs={<BankTabs current={null} />} notice={notice} error={errors.form}>
      <p>
        <a href={href('/admin/content-bank')}>{i('back')}</a>
      </p>
      <section aria-labelledby="bank-item-facts">
        <h2 id="bank-item-facts">{i('facts')}</h2>
        <dl className="bank-facts">
          <dt>{i('kind')}</dt>
          <dd>{t(`contentBank.kind.${item.kind}`)}</dd>
          <dt>{i('author')}</dt>
          <dd>{item.authorName ?? i('nobody')}</dd>
          <dt>{i('published')}</dt>
          <dd>{formatDate(item.publishedAt)}</dd>
          <dt>{i('address')}</dt>
          <dd>
            {item.url ? (
              <a href={open(item.url)} className="live-address">
                {item.url}
              </a>
            ) : (
              i('noAddress')
            )}
          </dd>
          <dt>{i('staffPage')}</dt>
          <dd>
            <a href={href(item.staffPath)}>{i('open')}</a>
          </dd>
        </dl>
        {item.summary ? <p className="bank-summary">{item.summary}</p> : null}
        {item.asset ? (
          <>
            {item.kind === 'image' ? (
              <figure className="bank-preview">
                <img src={href(item.asset.fileUrl)} alt={item.title} width={item.asset.width ?? undefined} height={item.asset.height ?? undefined} />
                <figcaption className="muted">{i('preview')}</figcaption>
              </figure>
            ) : null}
            <p>
              <a href={href(item.asset.fileUrl)} download={item.asset.filename}>
                {i('download', { filename: item.asset.filename, size: t('contentBank.assets.size', { kb: kilobytes(item.asset.byteSize) }) })}
              </a>
            </p>
          </>
        ) : null}
      </section>

      <section aria-labelledby="bank-item-tags">
        <h2 id="bank-item-tags">{i('tags.heading')}</h2>
        {item.tags.length === 0 ? <p>{i('tags.none')}</p> : null}
        {item.tags.length ? (
          <ul className="plain bank-chips">
            {item.tags.map((tag) => (
              <li key={tag.id}>
                <span>{tag.name}</span> <ActionForm action={`${base}/tags/${tag.id}/remove`} label="×" ariaLabel={i('tags.remove', { name: tag.name })} secondary />
              </li>
            ))}
          </ul>
        ) : null}
        <form method="post" action={href(`${base}/tags`)} className="bank-inline-form" noValidate>
          <CsrfField />
          <h3>{i('tags.add')}</h3>
          {addable.length ? <Select id="bank-item-tag" name="tagId" label={i('tags.existing')} value={values.tagId ?? ''} error={errors.tagId} placeholder={i('tags.choose')} options={addable.map((tag) => ({ value: String(tag.id), label: tag.name }))} /> : null}
          <Field id="bank-item-new-tag" name="newTag" label={i('tags.new')} hint={i('tags.newHint')} defaultValue={values.newTag ?? ''} error={errors.name ?? errors.newTag} maxLength={60} />
          <button type="submit" className="button">
            {i('tags.submit')}
          </button>
        </form>
      </section>

      <section aria-labelledby="bank-item-collections">
        <h2 id="bank-item-collections">{i('collections.heading')}</h2>
        {errors.collection ? <p className="field-error">{errors.collection}</p> : null}
        {item.collections.length === 0 ? <p>{i('collections.none')}</p> : null}
        {item.collections.length ? (
          <ul className="plain bank-chips">
            {item.collections.map((c) => (
              <li key={c.id}>
                <a href={href(`/admin/content-bank/collections/${c.id}`)}>{c.name}</a>{' '}
                <ActionForm action={`/admin/content-bank/collections/${c.id}/items/${item.kind}/${item.id}/remove`} label="×" ariaLabel={i('collections.remove', { name: c.name })} fields={{ back: 'item' }} secondary />
              </li>
            ))}
          </ul>
        ) : null}
        {collections.length === 0 ? (
          <p>{i('collections.noCollections')}</p>
        ) : collectable.length ? (
          <form method="post" action={href(`${base}/collections`)} className="bank-inline-form" noValidate>
            <CsrfField />
            <Select id="bank-item-collection" name="collectionId" label={i('collections.collection')} value={values.collectionId ?? ''} error={errors.collectionId} placeholder={i('collections.choose')} options={collectable.map((c) => ({ value: String(c.id), label: c.name }))} />
            <button type="submit" className="button">
              {i('collections.submit')}
            </button>
          </form>
        ) : null}
      </section>

      <section aria-labelledby="bank-item-usage">
        <h2 id="bank-item-usage">{i('usage.heading')}</h2>
        <AdminTable prefix="contentBank.item" section="usage" columns={['when', 'what', 'where']} empty={item.usage.length === 0}>
          {item.usage.map((u, n) => (
            <tr key={n}>
              <td>{dateTime(u.at)}</td>
              <td>{['sent', 'featured', 'syndicated'].includes(u.what) ? i(`usage.what.${u.what}`) : i('usage.what.other', { what: u.what })}</td>
              <td>{u.path ? <a href={href(u.path)}>{u.label || u.path}</a> : u.label}</td>
            </tr>
          ))}
        </AdminTable>
      </section>

      {item.asset ? (
        <section aria-labelledby="bank-item-delete">
          <h2 id="bank-item-delete">{i('deleteAsset')}</h2>
          <p>{i('deleteAssetHint')}</p>
          <ActionForm action={`/admin/content-bank/assets/${item.id}/delete`} label={i('deleteAsset')} secondary />
        </section>
      ) : null}
    </AdminTabFrame>
  );
}
