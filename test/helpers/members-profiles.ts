import type { RawDb as Db } from '#src/db/index.ts';
import type { Community, ArticleStatusValue } from '#src/db/types.ts';

/** An article of a member with one revision, in a status (published ones get a date and an address). */
export async function createArticle(db: Db, community: Community, authorId: number, title: string, status: ArticleStatusValue = 'PUBLISHED', publishedAt = new Date('2026-10-01T12:00:00Z')) {
  const published = status === 'PUBLISHED' || status === 'MANUALLY_PUBLISHED';
  const article = await db
    .insertInto('articles')
    .values({
      community_id: community.id,
      author_id: authorId,
      status,
      status_updated_at: publishedAt,
      published_date: published ? publishedAt : null,
      article_url: published ? `https://news.example.com/${encodeURIComponent(title.toLowerCase().replace(/\s+/g, '-'))}` : null,
      created_at: publishedAt,
      updated_at: publishedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const revision = await db
    .insertInto('article_revisions')
    .values({ community_id: community.id, article_id: article.id, author_id: authorId, title, content: '<p>Text.</p>', word_count: 1, created_at: publishedAt, updated_at: publishedAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).execute();
  return article.id;
}

/** A multipart/form-data body with fields and at most one file, as a browser sends it. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; filename: string; type: string; bytes: Buffer }) {
  const boundary = `----profiles${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
