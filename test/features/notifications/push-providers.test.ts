import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Outbox } from '#src/lib/messaging/mail.ts';
import { HttpPushProvider, OutboxPushProvider, PushDeliveryError } from '#src/features/notifications/push/provider.ts';
import { vapidKeys, VapidWebPush } from '#src/features/notifications/push/web-push.ts';
import { testConfig } from '#test/helpers/app.ts';
import { browserKeys, fakePushServer, fakeWebPushService } from '#test/helpers/push.ts';

const MESSAGE = { token: 'fcm-token-1', platform: 'fcm' as const, title: 'Alpha Circle', body: 'Your article was approved', url: 'https://alpha.test/articles/1' };

t.test('the HTTP push provider against a local fake provider', async (t) => {
  const server = await fakePushServer(t);
  const provider = new HttpPushProvider({ url: server.url, key: 'secret-key', timeoutMs: 2000 });

  t.equal(await provider.send(MESSAGE), 'sent', '200: sent');
  const r = server.received[0]!;
  t.equal(r.method, 'POST');
  t.equal(r.headers.authorization, 'Bearer secret-key', 'the bearer key');
  t.match(String(r.headers['content-type']), /^application\/json/);
  t.same(JSON.parse(r.body.toString()), {
    to: 'fcm-token-1',
    token: 'fcm-token-1',
    platform: 'fcm',
    notification: { title: 'Alpha Circle', body: 'Your article was approved' },
    data: { url: 'https://alpha.test/articles/1' },
  }, 'the JSON body');

  server.answer(() => ({ status: 410 }));
  t.equal(await provider.send(MESSAGE), 'gone', '410: gone');
  server.answer(() => ({ status: 404, body: '{}' }));
  t.equal(await provider.send(MESSAGE), 'gone', '404: gone');
  server.answer(() => ({ status: 400, body: '{"error":{"status":"INVALID_ARGUMENT","details":[{"errorCode":"UNREGISTERED"}]}}' }));
  t.equal(await provider.send(MESSAGE), 'gone', 'an UNREGISTERED body: gone');
  server.answer(() => ({ status: 400, body: '{"reason":"BadDeviceToken"}' }));
  t.equal(await provider.send({ ...MESSAGE, platform: 'ios' }), 'gone', 'an APNs BadDeviceToken body: gone');
  server.answer(() => ({ status: 200, body: '{"results":[{"error":"NotRegistered"}]}' }));
  t.equal(await provider.send(MESSAGE), 'gone', 'a legacy 200 naming NotRegistered: gone');

  for (const status of [500, 503, 429, 401]) {
    server.answer(() => ({ status, body: 'busy' }));
    await t.rejects(provider.send(MESSAGE), PushDeliveryError, `${status}: throws (the job retries)`);
  }
  const down = new HttpPushProvider({ url: 'http://127.0.0.1:1/send', key: 'k', timeoutMs: 2000 });
  await t.rejects(down.send(MESSAGE), PushDeliveryError, 'the network: throws');
});

t.test('the outbox sandbox keeps each push', async (t) => {
  const outbox = new Outbox(null);
  t.equal(await new OutboxPushProvider(outbox).send(MESSAGE), 'sent');
  const kept = outbox.latestTo('fcm:fcm-token-1', 'push');
  t.equal(kept?.subject, 'Alpha Circle');
  t.match(kept?.text, 'Your article was approved');
  t.match(kept?.text, 'https://alpha.test/articles/1');
});

t.test('VAPID keys: configured, generated in memory for tests, off in production without them', async (t) => {
  const test = vapidKeys(testConfig());
  t.ok(test && test.publicKey.length > 80 && test.privateKey.length > 40, 'tests: a generated pair');
  t.equal(test?.subject, 'mailto:no-reply@example.com', 'the subject defaults to the sender address');
  t.equal(vapidKeys(testConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', COOKIE_SECRET: 'x'.repeat(40) })), null, 'production without keys: Web Push off');
  const configured = vapidKeys(testConfig({ VAPID_PUBLIC_KEY: 'pub', VAPID_PRIVATE_KEY: 'priv', VAPID_SUBJECT: 'https://example.com/contact' }));
  t.same(configured, { publicKey: 'pub', privateKey: 'priv', subject: 'https://example.com/contact' });
  t.throws(() => testConfig({ VAPID_SUBJECT: 'http://example.com' }), /VAPID_SUBJECT must be a mailto: address or an https:\/\/ URL/);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'push-vapid-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const development = testConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
  const first = vapidKeys(development);
  const file = path.join(dataDir, 'vapid.json');
  t.same(JSON.parse(readFileSync(file, 'utf8')), { publicKey: first?.publicKey, privateKey: first?.privateKey }, 'development: generated once, kept under DATA_DIR');
  t.equal(statSync(file).mode & 0o777, 0o600, 'readable by the owner only');
  t.same(vapidKeys(development), first, 'the same pair after a restart (browsers stay subscribed)');
  chmodSync(file, 0o644);
  t.same(vapidKeys(development), first, 'a file left readable by others is still the pair…');
  t.equal(statSync(file).mode & 0o777, 0o600, '…and is made the owner’s only again');
});

t.test('Web Push (web-push, VAPID) against a local fake push service', async (t) => {
  const service = await fakeWebPushService(t);
  const keys = vapidKeys(testConfig())!;
  const sender = new VapidWebPush(keys, { agent: service.agent, timeoutMs: 5000 });
  const subscription = { endpoint: `${service.origin}/push/abc`, keys: browserKeys() };

  t.equal(await sender.send(subscription, { title: 'Alpha Circle', body: 'Hello', url: 'https://alpha.test/x' }), 'sent', '201: sent');
  const r = service.received[0]!;
  t.equal(r.method, 'POST');
  t.equal(r.url, '/push/abc', 'to the endpoint');
  t.equal(r.headers['content-encoding'], 'aes128gcm', 'encrypted with aes128gcm');
  t.match(String(r.headers.authorization), new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${keys.publicKey}$`), 'signed with VAPID and our public key');
  const jwt = JSON.parse(Buffer.from(String(r.headers.authorization).slice(8).split(',')[0]!.split('.')[1]!, 'base64url').toString());
  t.equal(jwt.aud, service.origin, 'the JWT names the push service');
  t.equal(jwt.sub, 'mailto:no-reply@example.com');
  t.equal(r.headers.ttl, '86400', 'kept a day for an offline browser');
  t.ok(r.body.length > 0 && !r.body.toString('latin1').includes('Hello'), 'the payload is encrypted');

  service.answer(() => ({ status: 410 }));
  t.equal(await sender.send(subscription, { title: 'A', body: 'B', url: 'https://alpha.test/' }), 'gone', '410: gone');
  service.answer(() => ({ status: 404 }));
  t.equal(await sender.send(subscription, { title: 'A', body: 'B', url: 'https://alpha.test/' }), 'gone', '404: gone');
  for (const status of [400, 403, 413]) {
    service.answer(() => ({ status }));
    t.equal(await sender.send(subscription, { title: 'A', body: 'B', url: 'https://alpha.test/' }), 'gone', `${status}: gone (never deliverable; 403: the VAPID key was rotated)`);
  }
  for (const status of [429, 500, 502, 503]) {
    service.answer(() => ({ status }));
    await t.rejects(sender.send(subscription, { title: 'A', body: 'B', url: 'https://alpha.test/' }), `${status} throws (the job retries)`);
  }
  const down = new VapidWebPush(keys, { agent: service.agent, timeoutMs: 2000 });
  await t.rejects(down.send({ ...subscription, endpoint: 'https://127.0.0.1:1/push/abc' }, { title: 'A', body: 'B', url: 'https://alpha.test/' }), 'the network throws');
});
