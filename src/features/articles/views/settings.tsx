/** The member's article settings: the byline. */
import type { BylineField } from '#src/features/articles/index.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { Island } from '#views/layout/Island.tsx';
import { ArticlesNav } from '#src/features/articles/views/parts.tsx';

export function BylineForm({ byline, error, notice }: { byline: BylineField; error?: string; notice?: string }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  const k = (key: string) => t(`articles.pages.${key}`);
  return (
    <Island
      name="BylineEditor"
      props={{
        action: href('/articles/settings'),
        csrf: csrfToken,
        html: byline.html,
        plain: byline.plain,
        error,
        notice,
        labels: {
          label: k('bylineLabel'),
          hint: k('bylineHintPlain'),
          hintRich: k('bylineHintRich'),
          save: k('bylineSave'),
          count: t('articles.pages.bylineCount', { n: '{n}' }),
          required: t('articles.errors.bylineRequired'),
          tooLong: t('articles.errors.bylineTooLong'),
          tooManyLinks: t('articles.errors.bylineTooManyLinks'),
          link: k('link'),
          unlink: k('unlink'),
          toolbar: k('bylineToolbar'),
          linkUrl: k('linkUrl'),
          linkInvalid: k('linkInvalid'),
          apply: k('linkApply'),
          cancel: k('cancel'),
        },
      }}
    />
  );
}

export function SettingsPage(props: { byline: BylineField; error?: string; notice?: string }) {
  const { t } = usePage();
  return (
    <section>
      <ArticlesNav />
      <h1>{t('articles.pages.settingsTitle')}</h1>
      <BylineForm {...props} />
    </section>
  );
}
