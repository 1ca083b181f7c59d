import { useHref, usePage } from '#views/layout/page-context.tsx';

/** 'Post not found' (spec section 8): a missing, removed or other community's post or reply. */
export function PostNotFound({ message }: { message: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="notice-page">
      <h1>{message}</h1>
      <p>
        <a className="button" href={href('/forum')}>
          {t('forumPages.post.back')}
        </a>
      </p>
    </section>
  );
}
