import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '#src/core/errors.ts';
import { STATIC_DIR } from '#src/lib/assets.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { idParams, paramsOf } from '#src/lib/form.ts';
import { PushDevices } from '#src/features/notifications/views/PushDevices.tsx';
import type { MemberRef } from '../types.ts';
import { addSubscription, devicesPage, removeDevice, removeSubscription } from './tokens.ts';

const DEVICES = '/settings/notifications/devices';

/**
 * Push on the web: the service worker (at the app's root, so that its scope covers every page), this
 * browser's Web Push subscription (JSON from the PushSubscribe island, with the CSRF header), and the
 * member's devices page.
 */
export default async function pushRoutes(app: FastifyInstance) {
  const member = { config: { access: 'member' as const } };
  const worker = readFileSync(path.join(STATIC_DIR, 'sw.js'), 'utf8');
  const memberOf = (request: FastifyRequest): MemberRef => ({ communityId: request.community.id, userId: request.guardian.userId! });

  // A script like those under /static: it does not count against the page rate limit.
  app.get('/sw.js', { config: { access: 'public', bare: true, rateLimit: false } }, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(worker),
  );

  app.post('/notifications/push/subscription', member, async (request, reply) => {
    await addSubscription(app.db, memberOf(request), request.body, app.clock.now(), app.config.isProduction, request.identity.sessionId);
    return reply.code(201).send({ ok: true });
  });

  app.post('/notifications/push/subscription/delete', member, async (request, reply) => {
    await removeSubscription(app.db, memberOf(request), request.body);
    return reply.send({ ok: true });
  });

  app.get(DEVICES, member, async (request, reply) => {
    const { devices, knownEndpoints } = await devicesPage(app.db, memberOf(request));
    return reply.page({
      title: app.t('push.devices.title'),
      body: <PushDevices devices={devices} publicKey={app.push.web?.publicKey ?? null} knownEndpoints={knownEndpoints} />,
    });
  });

  app.post(`${DEVICES}/:id/remove`, member, async (request, reply) => {
    const { id } = paramsOf(idParams, request, notFound);
    if (!(await removeDevice(app.db, memberOf(request), id))) throw notFound();
    return reply.redirectTo(withAlert(DEVICES, 'push-device-removed'), 303);
  });
}
