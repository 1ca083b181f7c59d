import type { AdDraft, AdShape, AdSizes, StaffAd, StaffAdDay } from '#src/features/ads/types.ts';
import { assetUrl } from '#shared/asset-url.ts';
import { formatDate } from '#shared/format.ts';
import { MarketplaceTabs } from '#views/admin/marketplace-tabs.tsx';
import { AdminTabFrame, dateTime } from '#views/admin/tab-frame.tsx';
import { CsrfField, Field, FieldNotes, describedBy } from '#views/kit/form.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Cell, Table } from '#views/kit/table.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The staff's ads (issue 27): the marketplace's Ads tab lists the community's ads with their counts
 * and takes a new one; an ad's page changes it and shows its days. Plain forms (multipart, for the
 * art): they work without JavaScript, and a refused one comes back with what was typed.
 */

type FormProps = { draft: AdDraft; errors: Record<string, string>; sizes: AdSizes; maxMb: number };

const SHAPES: AdShape[] = ['MASTHEAD', 'MEDIUM_SQUARE'];
const percent = (clicks: number, impressions: number) => (impressions ? `${((100 * clicks) / impressions).toFixed(2)}%` : '–');

function AdPicture({ ad, small }: { ad: Pick<StaffAd, 'imageUrl' | 'shape'>; small?: boolean }) {
  const { basePath } = usePage();
  const href = useHref();
  const src = ad.imageUrl.startsWith('/') ? href(ad.imageUrl) : assetUrl(basePath, ad.imageUrl);
  const [w, h] = ad.shape === 'MASTHEAD' ? [700, 50] : [240, 240];
  const scale = small ? (ad.shape === 'MASTHEAD' ? 0.3 : 0.25) : 1;
  return <img className="ad-preview" src={src} alt="" width={Math.round(w * scale)} height={Math.round(h * scale)} loading="lazy" />;
}

/** The fields both forms share: link, words, schedule, active. */
function CommonFields({ draft, errors, idPrefix }: Omit<FormProps, 'sizes' | 'maxMb'> & { idPrefix: string }) {
  const { t } = usePage();
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <Field id={id('link')} name="link" type="url" label={t('ads.form.link')} hint={t('ads.form.linkHint')} error={errors.link} defaultValue={draft.link} required inputMode="url" autoComplete="off" />
      <Field id={id('altText')} name="altText" label={t('ads.form.altText')} hint={t('ads.form.altTextHint')} error={errors.altText} defaultValue={draft.altText} required maxLength={400} />
      <fieldset className="stack">
        <legend>{t('ads.form.schedule')}</legend>
        <p className="field-hint">{t('ads.form.scheduleHint')}</p>
        <Field id={id('startsAt')} name="startsAt" type="datetime-local" label={t('ads.form.startsAt')} error={errors.startsAt} defaultValue={draft.startsAt} />
        <Field id={id('endsAt')} name="endsAt" type="datetime-local" label={t('ads.form.endsAt')} error={errors.endsAt} defaultValue={draft.endsAt} />
      </fieldset>
      <div className="check">
        <input id={id('isActive')} name="isActive" type="checkbox" defaultChecked={draft.isActive} />
        <label htmlFor={id('isActive')}>{t('ads.form.isActive')}</label>
      </div>
    </>
  );
}

function ImageField({ idPrefix, error, hint, required }: { idPrefix: string; error?: string; hint: string; required?: boolean }) {
  const { t } = usePage();
  const id = `${idPrefix}-image`;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{t('ads.form.image')}</label>
      <input id={id} name="image" type="file" accept="image/png,image/jpeg,image/webp" required={required} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

function NewAdForm({ draft, errors, sizes, maxMb }: FormProps) {
  const { t } = usePage();
  const href = useHref();
  const sizeHint = t('ads.form.imageHint', { masthead: `${sizes.MASTHEAD.width}x${sizes.MASTHEAD.height}`, square: `${sizes.MEDIUM_SQUARE.width}x${sizes.MEDIUM_SQUARE.height}`, mb: maxMb });
  return (
    <form method="post" action={href('/admin/marketplace/ads')} encType="multipart/form-data" className="panel stack" aria-labelledby="new-ad-heading" noValidate>
      <h2 id="new-ad-heading">{t('ads.admin.new')}</h2>
      {Object.keys(errors).length ? (
        <p className="field-error" role="alert">
          {t('ads.form.fixBelow')}
        </p>
      ) : null}
      <CsrfField />
      <fieldset className={errors.shape ? 'stack field-invalid' : 'stack'} aria-describedby={errors.shape ? 'new-shape-error' : undefined}>
        <legend>{t('ads.form.shape')}</legend>
        {SHAPES.map((shape) => (
          <div className="check" key={shape}>
            <input id={`new-shape-${shape}`} name="shape" type="radio" value={shape} defaultChecked={draft.shape === shape} />
            <label htmlFor={`new-shape-${shape}`}>{t(`ads.shapes.${shape}`, { width: sizes[shape].width, height: sizes[shape].height })}</label>
          </div>
        ))}
        {errors.shape ? (
          <p className="field-error" id="new-shape-error">
            {errors.shape}
          </p>
        ) : null}
      </fieldset>
      <ImageField idPrefix="new" error={errors.image} hint={sizeHint} required />
      <CommonFields draft={draft} errors={errors} idPrefix="new" />
      <p>
        <button type="submit" className="button">
          {t('ads.admin.create')}
        </button>
      </p>
    </form>
  );
}

function StatusText({ ad }: { ad: StaffAd }) {
  const { t } = usePage();
  return <span className={`ad-status ad-status-${ad.status}`}>{t(`ads.status.${ad.status}`)}</span>;
}

function Schedule({ ad }: { ad: StaffAd }) {
  const { t } = usePage();
  if (!ad.startsAt && !ad.endsAt) return <>{t('ads.admin.always')}</>;
  return (
    <>
      {ad.startsAt ? t('ads.admin.from', { when: dateTime(ad.startsAt) }) : null}
      {ad.startsAt && ad.endsAt ? <br /> : null}
      {ad.endsAt ? t('ads.admin.until', { when: dateTime(ad.endsAt) }) : null}
    </>
  );
}

/** /admin/marketplace/ads: the list with counts, then the form for a new ad. */
export function AdsAdminPage({ ads, notice, ...form }: FormProps & { ads: StaffAd[]; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="marketplace-admin ads-admin" heading={t('ads.admin.heading')} tabs={<MarketplaceTabs current="ads" />} notice={notice}>
      <p className="lead">{t('ads.admin.intro')}</p>
      {ads.length === 0 ? (
        <EmptyState title={t('ads.admin.none')} />
      ) : (
        <Table
          label={t('ads.admin.tableLabel')}
          caption={t('ads.admin.tableLabel')}
          captionHidden
          columns={[
            { key: 'ad', label: t('ads.admin.col.ad') },
            { key: 'shape', label: t('ads.admin.col.shape') },
            { key: 'status', label: t('ads.admin.col.status') },
            { key: 'schedule', label: t('ads.admin.col.schedule') },
            { key: 'impressions', label: t('ads.admin.col.impressions'), numeric: true },
            { key: 'clicks', label: t('ads.admin.col.clicks'), numeric: true },
            { key: 'rate', label: t('ads.admin.col.rate'), numeric: true },
          ]}
        >
          {ads.map((ad) => (
            <tr key={ad.id} data-ad={ad.id}>
              <th scope="row">
                <AdPicture ad={ad} small />
                <br />
                <a href={href(`/admin/marketplace/ads/${ad.id}`)}>{ad.altText}</a>
              </th>
              <td>{t(`ads.shapeNames.${ad.shape}`)}</td>
              <td>
                <StatusText ad={ad} />
              </td>
              <td>
                <Schedule ad={ad} />
              </td>
              <td className="num" data-impressions={ad.impressions}>
                {ad.impressions.toLocaleString('en-US')}
              </td>
              <td className="num" data-clicks={ad.clicks}>
                {ad.clicks.toLocaleString('en-US')}
              </td>
              <Cell numeric>{percent(ad.clicks, ad.impressions)}</Cell>
            </tr>
          ))}
        </Table>
      )}
      <p className="field-hint">{t('ads.admin.countsNote')}</p>
      <NewAdForm {...form} />
    </AdminTabFrame>
  );
}

/** /admin/marketplace/ads/{id}: the ad, its form, and its days. */
export function AdEditPage({ ad, days, draft, errors, sizes, maxMb, notice }: FormProps & { ad: StaffAd; days: StaffAdDay[]; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  const size = sizes[ad.shape];
  return (
    <AdminTabFrame className="marketplace-admin ads-admin" heading={t('ads.edit.heading', { name: ad.altText })} tabs={<MarketplaceTabs current="ads" />} notice={notice}>
      <p>
        <a href={href('/admin/marketplace/ads')}>{t('ads.edit.back')}</a>
      </p>
      <div className="ad-preview-frame">
        <AdPicture ad={ad} />
      </div>
      <dl className="facts">
        <dt>{t('ads.admin.col.shape')}</dt>
        <dd>{t(`ads.shapes.${ad.shape}`, { width: size.width, height: size.height })}</dd>
        <dt>{t('ads.admin.col.status')}</dt>
        <dd>
          <StatusText ad={ad} />
        </dd>
        <dt>{t('ads.admin.col.impressions')}</dt>
        <dd data-impressions={ad.impressions}>{ad.impressions.toLocaleString('en-US')}</dd>
        <dt>{t('ads.admin.col.clicks')}</dt>
        <dd data-clicks={ad.clicks}>{ad.clicks.toLocaleString('en-US')}</dd>
        <dt>{t('ads.admin.col.rate')}</dt>
        <dd>{percent(ad.clicks, ad.impressions)}</dd>
      </dl>
      <form method="post" action={href(`/admin/marketplace/ads/${ad.id}`)} encType="multipart/form-data" className="panel stack" aria-labelledby="edit-ad-heading" noValidate>
        <h2 id="edit-ad-heading">{t('ads.edit.formHeading')}</h2>
        {Object.keys(errors).length ? (
          <p className="field-error" role="alert">
            {t('ads.form.fixBelow')}
          </p>
        ) : null}
        <CsrfField />
        <ImageField idPrefix="edit" error={errors.image} hint={t('ads.form.replaceHint', { size: `${size.width}x${size.height}`, mb: maxMb })} />
        <CommonFields draft={draft} errors={errors} idPrefix="edit" />
        <p>
          <button type="submit" className="button">
            {t('ads.edit.save')}
          </button>
        </p>
      </form>
      <h2>{t('ads.edit.days')}</h2>
      {days.length === 0 ? (
        <p>{t('ads.edit.noDays')}</p>
      ) : (
        <Table
          label={t('ads.edit.days')}
          columns={[
            { key: 'day', label: t('ads.edit.col.day') },
            { key: 'impressions', label: t('ads.admin.col.impressions'), numeric: true },
            { key: 'clicks', label: t('ads.admin.col.clicks'), numeric: true },
            { key: 'rate', label: t('ads.admin.col.rate'), numeric: true },
          ]}
        >
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{formatDate(new Date(`${d.day}T12:00:00Z`))}</th>
              <Cell numeric>{d.impressions.toLocaleString('en-US')}</Cell>
              <Cell numeric>{d.clicks.toLocaleString('en-US')}</Cell>
              <Cell numeric>{percent(d.clicks, d.impressions)}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </AdminTabFrame>
  );
}
