import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { paramsOf } from '#src/lib/form.ts';
import { feedsDeps, feedsViewer } from './deps.ts';
import { readFeedImage } from './images.ts';
import { markAnnouncementSeen } from './member-feed.ts';

const IdParams = z.object({ id: z.string().max(40) });
const ImageParams = z.object({ file: z.string().max(200) });

/**
 * The member's side of the feed (it is shown on the home page, `/`): marking an announcement seen
 * (a plain form POST, then back to the feed: no script needed) and the announcements' images.
 */
export default async function feedsRoutes(app: FastifyInstance) {
  const member = { config: { access: 'member' as const } };
  const notFound = () => new AppError('Feeds.NotFound');

  app.post('/feeds/announcements/:id/seen', member, async (request, reply) => {
    const { id } = paramsOf(IdParams, request, notFound);
    const viewer = feedsViewer(request);
    await markAnnouncementSeen(feedsDeps(request), viewer.userId, id);
    return reply.redirectTo('/#feed');
  });

  app.get('/feeds/images/:file', member, async (request, reply) => {
    const { file } = paramsOf(ImageParams, request, notFound);
    const key = /^([A-Za-z0-9_-]{16,64})\.webp$/.exec(file)?.[1];
    if (!key) throw notFound();
    const image = await readFeedImage(feedsDeps(request), feedsViewer(request), key);
    if (!image) throw notFound();
    return reply.header('content-type', image.content_type).header('cache-control', 'private, max-age=31536000, immutable').send(image.bytes);
  });
}
