import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { paramsOf } from '#src/lib/form.ts';
import { originRequestOf } from './deps.ts';
import { encodedBody, encodingFor, FEED_MAX_AGE_S, FeedPublisher, notModified } from './publisher.ts';
import type { FeedFormat } from './types.ts';

/** `/feeds/{slug}.{rss|atom|json}`: the slug as staff may write it, one of the three endings. */
const FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.(rss|atom|json)$/;
const FileParams = z.object({ file: z.string().max(200) });

/**
 * The community's public feeds (issue 29): /feeds/{slug}.rss (RSS 2.0), .atom (Atom 1.0) and .json
 * (JSON Feed 1.1), for anyone, signed in or not, of the community of the host. An unknown slug, a
 * disabled or deleted feed, another ending: the 404 page. Every answer carries ETag and
 * Last-Modified; a request whose validator matches is a 304 with no body (decision 0060). The feed is
 * served from memory (publisher.ts), compressed once per encoding.
 */
export default async function syndicationRoutes(app: FastifyInstance) {
  const publisher = new FeedPublisher(app.db, app.clock, app.t, app.config.syndicationCacheMs);

  app.get('/feeds/:file', { config: { access: 'public' as const } }, async (request, reply) => {
    const match = FILE.exec(paramsOf(FileParams, request, () => new AppError('Syndication.NotFound')).file);
    const entry = match ? FeedPublisher.entryOf(request.community, match[1]!) : null;
    if (!match || !entry) throw new AppError('Syndication.NotFound');
    const rep = await publisher.representation(request.community, entry, match[2] as FeedFormat, originRequestOf(request));
    // A member's browser may be shown the community an admin chose (a cookie): not for shared caches.
    reply
      .header('etag', rep.etag)
      .header('last-modified', rep.lastModified)
      .header('cache-control', `${request.identity.loggedIn ? 'private' : 'public'}, max-age=${FEED_MAX_AGE_S}`)
      .header('vary', 'accept-encoding');
    if (notModified(request.headers, rep)) return reply.code(304).send();
    reply.header('content-type', rep.contentType);
    const encoding = encodingFor(request.headers['accept-encoding'], rep.body.length);
    if (!encoding) return reply.send(rep.body);
    return reply.header('content-encoding', encoding).send(encodedBody(rep, encoding));
  });
}
