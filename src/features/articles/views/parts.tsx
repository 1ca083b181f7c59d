/** What the member's article pages share: the articles navigation, paragraphs of plain text, an article's title. */
import type { ArticleRow } from '#src/features/articles/index.ts';
import { Tabs } from '#views/kit/tabs.tsx';
import { usePage } from '#views/layout/page-context.tsx';

export function ArticlesNav() {
  const { t, currentPath } = usePage();
  const items = [
    { path: '/articles', label: t('articles.pages.dashboardTitle') },
    { path: '/articles/published', label: t('articles.pages.published') },
    { path: '/articles/guidelines', label: t('articles.pages.guidelines') },
    { path: '/articles/agreement', label: t('articles.pages.agreement') },
    { path: '/articles/settings', label: t('articles.pages.settings') },
  ];
  return <Tabs label={t('articles.pages.dashboardTitle')} tabs={items.map((i) => ({ key: i.path, ...i }))} current={currentPath} />;
}

export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  );
}

export function titleOf(a: Pick<ArticleRow, 'title'>, t: (k: string) => string) {
  return a.title?.trim() || t('articles.pages.untitled');
}
