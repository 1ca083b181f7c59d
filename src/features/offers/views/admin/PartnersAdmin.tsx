import type { OffersStaffForm, PartnerRow } from '#src/features/offers/index.ts';
import { MarketplaceTabs } from '#views/admin/marketplace-tabs.tsx';
import { ActionForm, AdminTabFrame, FormError, typedIn } from '#views/admin/tab-frame.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { CsrfField, Field } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { PartnerMark } from '../parts.tsx';

function PartnerFields({ prefix, formKey, form, saved }: { prefix: string; formKey: string; form?: OffersStaffForm; saved?: PartnerRow }) {
  const { t } = usePage();
  const f = (k: string) => t(`offers.partners.field.${k}`);
  const v = (name: string, fallback: string) => {
    const typed = typedIn(form, formKey, name);
    return { defaultValue: typed.value ?? fallback, error: typed.error };
  };
  return (
    <>
      <Field id={`${prefix}-name`} name="name" label={f('name')} maxLength={200} {...v('name', saved?.name ?? '')} />
      <Field id={`${prefix}-website`} name="website" type="url" label={f('website')} {...v('website', saved?.website ?? '')} />
      <Field id={`${prefix}-contact`} name="contact" label={f('contact')} hint={f('contactHint')} maxLength={600} {...v('contact', saved?.contact ?? '')} />
    </>
  );
}

/** /admin/marketplace/partners: add a partner; each partner's details, logo, and delete (when it has no offers). */
export function PartnersAdmin({ partners, form, notice }: { partners: PartnerRow[]; form?: OffersStaffForm; notice?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <AdminTabFrame className="offers-admin" heading={t('offers.staff.heading')} tabs={<MarketplaceTabs current="partners" />} notice={notice}>
      <section aria-labelledby="partner-new">
        <h2 id="partner-new">{t('offers.partners.addHeading')}</h2>
        <form method="post" action={href('/admin/marketplace/partners')} noValidate>
          <CsrfField />
          <PartnerFields prefix="partner-new" formKey="partner-new" form={form} />
          <button type="submit" className="button">
            {t('offers.partners.add')}
          </button>
        </form>
      </section>
      <section aria-labelledby="partner-list">
        <h2 id="partner-list">{t('offers.partners.listHeading')}</h2>
        {partners.length === 0 ? <EmptyState title={t('offers.partners.none')} /> : null}
        <ul className="partner-list">
          {partners.map((p) => {
            const key = `partner-${p.id}`;
            const logoError = typedIn(form, `${key}-logo`, 'logo').error;
            return (
              <li key={p.id} id={key} className="partner-item">
                <h3>
                  <PartnerMark name={p.name} logo={p.logo} size={48} /> {p.name} <span className="muted">· {t('offers.partners.offers', { count: p.offers })}</span>
                </h3>
                <FormError form={form} formKey={key} />
                <form method="post" action={href(`/admin/marketplace/partners/${p.id}`)} noValidate>
                  <CsrfField />
                  <PartnerFields prefix={key} formKey={key} form={form} saved={p} />
                  <button type="submit" className="button">
                    {t('offers.partners.save')}
                  </button>
                </form>
                <form method="post" action={href(`/admin/marketplace/partners/${p.id}/logo`)} encType="multipart/form-data">
                  <CsrfField />
                  <div className={logoError ? 'field field-invalid' : 'field'}>
                    <label htmlFor={`${key}-logo`}>{t('offers.partners.field.logo')}</label>
                    <p className="field-hint" id={`${key}-logo-hint`}>
                      {t('offers.partners.field.logoHint')}
                    </p>
                    <input id={`${key}-logo`} type="file" name="logo" accept="image/jpeg,image/png,image/webp" aria-invalid={logoError ? true : undefined} aria-describedby={logoError ? `${key}-logo-error ${key}-logo-hint` : `${key}-logo-hint`} />
                    {logoError ? (
                      <p className="field-error" id={`${key}-logo-error`}>
                        {logoError}
                      </p>
                    ) : null}
                  </div>
                  <button type="submit" className="button button-secondary">
                    {t('offers.partners.upload')}
                  </button>
                </form>
                {p.offers === 0 ? <ActionForm action={`/admin/marketplace/partners/${p.id}/delete`} label={t('offers.partners.delete')} ariaLabel={t('offers.partners.deleteLabel', { name: p.name })} secondary /> : null}
              </li>
            );
          })}
        </ul>
      </section>
    </AdminTabFrame>
  );
}
