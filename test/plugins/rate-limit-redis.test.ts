import t from 'tap';
import { randomInt } from 'node:crypto';
import net from 'node:net';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity } from '#test/helpers/factories.ts';

/** Whether a Redis server answers on 127.0.0.1:6379 (CI starts one; a laptop may have none). */
const redisAnswers = () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(6379, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

const randomIp = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 254)}`;

t.test('rate limits across processes', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha' });

  await t.test('with REDIS_URL, two processes share one count per client', { skip: (await redisAnswers()) ? false : 'no Redis answers on 127.0.0.1:6379' }, async (t) => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_MAX: '3' };
    const one = (await startApp(t, db, { env })).app;
    const two = (await startApp(t, db, { env })).app;
    const ip = randomIp();
    const statuses = [];
    for (const app of [one, two, one, two]) statuses.push((await app.inject({ url: '/rest/admin/available-communities', remoteAddress: ip })).statusCode);
    t.same(statuses, [200, 200, 200, 429], 'the fourth request is refused, on whichever process');
  });

  await t.test('without it, each process counts alone (as on one machine)', async (t) => {
    const env = { RATE_LIMIT_MAX: '3' };
    const one = (await startApp(t, db, { env })).app;
    const two = (await startApp(t, db, { env })).app;
    const ip = randomIp();
    const statuses = [];
    for (const app of [one, two, one, two]) statuses.push((await app.inject({ url: '/rest/admin/available-communities', remoteAddress: ip })).statusCode);
    t.same(statuses, [200, 200, 200, 200]);
  });

  await t.test('a Redis that does not answer lets requests through rather than failing them', async (t) => {
    const { app } = await startApp(t, db, { env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_MAX: '3' } });
    const res = await app.inject({ url: '/rest/admin/available-communities', remoteAddress: randomIp() });
    t.equal(res.statusCode, 200);
  });
});
