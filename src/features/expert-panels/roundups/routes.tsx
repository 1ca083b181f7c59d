import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '#src/core/errors.ts';
import { paramsOf } from '#src/lib/form.ts';
import { RoundupLive } from '#src/features/expert-panels/views/RoundupLive.tsx';
import { publishedRoundup } from './read.ts';

/**
 * The live page of a published roundup (issue 15): /expert-panels/roundups/{slug}, readable by
 * anyone (signed out too), as a published piece is. Only a FINAL roundup of the request's community
 * has one; anything else is the 404 page.
 */
/** `/expert-panels/roundups/:slug`: the slug's own rules are read.ts's (anything else is the 404 page). */
const SlugParams = z.object({ slug: z.string().max(200) });

export default async function roundupPublicRoutes(app: FastifyInstance) {
  app.get('/expert-panels/roundups/:slug', { config: { access: 'public' as const } }, async (request, reply) => {
    const roundup = await publishedRoundup({ db: app.db, community: request.community, t: app.t }, paramsOf(SlugParams, request).slug);
    if (!roundup) throw notFound();
    return reply.page({ title: roundup.title, body: <RoundupLive roundup={roundup} /> });
  });
}
