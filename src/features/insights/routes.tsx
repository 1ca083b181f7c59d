import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { safeRedirect } from '#src/features/auth/index.ts';
import { field, formOf } from '#src/lib/form.ts';
import { AnalyticsChoicePage } from '#src/features/insights/views/AnalyticsChoicePage.tsx';
import { analyticsState, setConsent } from './consent.ts';
import { acceptEvents } from './intake.ts';

/** The browser's beacon sends a form (`_csrf` and the batch as JSON text); an app sends JSON (`events` as an array). */
const EventsBody = z.object({ events: z.union([z.string().max(65_536), z.array(z.unknown()).max(1000)]) });
const ConsentBody = z.object({ choice: z.enum(['granted', 'denied']), back: field(2000) });

/**
 * Events in (`POST /rest/events`: the first-party script's beacon, an app's batch) and the choice
 * about the community's Google tags (`/analytics`, and its form POST).
 */
export default async function insightsRoutes(app: FastifyInstance) {
  const t = app.t;

  app.post(
    '/rest/events',
    { bodyLimit: 65_536, config: { access: 'member', allowDuringOnboarding: true } },
    async (request, reply) => {
      const { events } = formOf(EventsBody, request);
      let batch: unknown = events;
      if (typeof events === 'string') {
        try {
          batch = JSON.parse(events);
        } catch {
          throw new AppError('Insights.Invalid');
        }
      }
      const accepted = await acceptEvents(request, batch);
      return reply.code(202).send({ accepted });
    },
  );

  // The choice, to make or change (the footer links here where the community has Google tags).
  app.get('/analytics', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const state = analyticsState(request, false);
    if (!state.offered) throw new AppError('NotFound');
    return reply.page({ title: t('insights.consent.title'), body: <AnalyticsChoicePage choice={state.choice} /> });
  });

  app.post('/analytics/consent', { config: { access: 'public', allowDuringOnboarding: true } }, async (request, reply) => {
    const { choice, back } = formOf(ConsentBody, request);
    setConsent(reply, choice);
    const target = safeRedirect(back, app.config.basePath);
    return reply.redirect(target, 303);
  });
}
