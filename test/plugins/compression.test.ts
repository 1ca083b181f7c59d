import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { BUILD_DIR } from '#src/lib/assets.ts';
import { COMPRESSION_THRESHOLD } from '#src/plugins/compression.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity } from '#test/helpers/factories.ts';

const BR = 'br, gzip, deflate';
const GZIP = 'gzip';
const varies = (headers: Record<string, unknown>) => String(headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

t.test('answers travel compressed when the client takes it', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  // Enough communities that the admin sign-in's list of them is a JSON answer over the threshold.
  for (let i = 1; i <= 30; i++) await createCommunity(db, { code: `circle${i}` });
  const { app } = await startApp(t, db);

  const page = (encoding?: string) => app.inject({ url: '/', headers: { accept: 'text/html', ...(encoding ? { 'accept-encoding': encoding } : {}) } });
  const json = (encoding?: string) => app.inject({ url: '/rest/admin/available-communities', headers: encoding ? { 'accept-encoding': encoding } : {} });
  // A query whose answer is over the threshold: the type name, under 120 aliases.
  const query = `{ ${Array.from({ length: 120 }, (_, i) => `typeName${i}: __typename`).join(' ')} }`;
  const graphql = (encoding?: string) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(encoding ? { 'accept-encoding': encoding } : {}) },
      payload: JSON.stringify({ query }),
    });

  for (const [what, request, expectText] of [
    ['the home page', page, 'Alpha Circle'],
    ['a REST JSON answer', json, '"code":"circle30"'],
    ['a GraphQL answer', graphql, '"typeName119":"Query"'],
  ] as const) {
    await t.test(`${what} comes back in brotli, gzip, or as it is`, async (t) => {
      const br = await request(BR);
      t.equal(br.statusCode, 200);
      t.equal(br.headers['content-encoding'], 'br', 'brotli when the client takes it');
      t.ok(varies(br.headers), 'Vary: Accept-Encoding');
      const text = brotliDecompressSync(br.rawPayload).toString('utf8');
      t.match(text, expectText);
      t.ok(br.rawPayload.length < Buffer.byteLength(text), `smaller on the wire (${br.rawPayload.length} < ${Buffer.byteLength(text)} bytes)`);

      const gz = await request(GZIP);
      t.equal(gz.headers['content-encoding'], 'gzip', 'gzip when the client takes only gzip');
      t.ok(varies(gz.headers), 'Vary: Accept-Encoding');
      t.match(gunzipSync(gz.rawPayload).toString('utf8'), expectText);

      const plain = await request();
      t.equal(plain.headers['content-encoding'], undefined, 'as it is when the client asks for no encoding');
      t.ok(varies(plain.headers), 'still Vary: Accept-Encoding, since another client would get it compressed');
      t.match(plain.body, expectText);
    });
  }

  await t.test('a page goes out in one compressed piece, with its length, and the preferences of the client count', async (t) => {
    const br = await page(BR);
    t.equal(Number(br.headers['content-length']), br.rawPayload.length, 'Content-Length: the compressed bytes');
    t.equal(br.headers['transfer-encoding'], undefined, 'not chunked');
    const preferred = await page('br;q=0.5, gzip;q=1');
    t.equal(preferred.headers['content-encoding'], 'gzip', 'gzip when the client prefers it');
    t.match(gunzipSync(preferred.rawPayload).toString('utf8'), 'Alpha Circle');
    const any = await page('*');
    t.equal(any.headers['content-encoding'], 'gzip', 'gzip for a client that takes anything');
    const deflate = await page('deflate');
    t.equal(deflate.headers['content-encoding'], 'deflate');
    t.match(inflateSync(deflate.rawPayload).toString('utf8'), 'Alpha Circle');
    const identity = await page('identity');
    t.equal(identity.headers['content-encoding'], undefined, 'as it is for identity');
    t.match(identity.body, 'Alpha Circle');
    const refused = await app.inject({ url: '/', headers: { accept: 'text/html', 'accept-encoding': BR, 'x-no-compression': '1' } });
    t.equal(refused.headers['content-encoding'], undefined, 'as it is when asked not to compress');
    t.match(refused.body, 'Alpha Circle');
  });

  await t.test('small answers, redirects and empty answers go out as they are', async (t) => {
    const health = await app.inject({ url: '/health', headers: { 'accept-encoding': BR } });
    t.equal(health.statusCode, 200);
    t.ok(health.rawPayload.length < COMPRESSION_THRESHOLD, 'the health answer is under the threshold');
    t.equal(health.headers['content-encoding'], undefined);
    t.same(health.json(), { status: 'ok', database: 'ok' });
    t.notOk(varies(health.headers), 'no Vary: every client gets the same bytes');

    const redirect = await app.inject({ url: '/v2', headers: { 'accept-encoding': BR } });
    t.equal(redirect.statusCode, 302);
    t.equal(redirect.headers.location, '/');
    t.equal(redirect.headers['content-encoding'], undefined);
  });

  await t.test('a request body that claims an encoding is not inflated', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: JSON.stringify({ query: '{ __typename }' }),
    });
    t.equal(res.statusCode, 200, 'read as it is, as before');
    t.same(res.json(), { data: { __typename: 'Query' } });
  });

  await t.test('a built bundle is served from its brotli file, cached for a year', async (t) => {
    const manifest = JSON.parse(readFileSync(path.join(BUILD_DIR, 'manifest.json'), 'utf8')) as { islands: Record<string, { file: string }>; css: string };
    for (const file of [manifest.islands.NotificationBell!.file, manifest.css]) {
      const original = readFileSync(path.join(BUILD_DIR, file));
      const br = await app.inject({ url: `/static/build/${file}`, headers: { 'accept-encoding': BR } });
      t.equal(br.statusCode, 200, file);
      t.equal(br.headers['content-encoding'], 'br', `${file}: brotli`);
      t.equal(Number(br.headers['content-length']), statSync(path.join(BUILD_DIR, `${file}.br`)).size, `${file}: the bytes of ${file}.br`);
      t.equal(br.rawPayload.length, statSync(path.join(BUILD_DIR, `${file}.br`)).size);
      t.same(brotliDecompressSync(br.rawPayload), original, `${file}: the same file once decompressed`);
      t.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
      t.ok(varies(br.headers), 'Vary: Accept-Encoding');
      t.match(String(br.headers['content-type']), file.endsWith('.css') ? 'text/css' : 'javascript');

      const gz = await app.inject({ url: `/static/build/${file}`, headers: { 'accept-encoding': GZIP } });
      t.equal(gz.headers['content-encoding'], 'gzip');
      t.equal(gz.rawPayload.length, statSync(path.join(BUILD_DIR, `${file}.gz`)).size, `${file}: the bytes of ${file}.gz`);

      const plain = await app.inject({ url: `/static/build/${file}` });
      t.equal(plain.headers['content-encoding'], undefined);
      t.same(plain.rawPayload, original, `${file}: as built without an encoding`);
      t.ok(varies(plain.headers), 'Vary: Accept-Encoding');
    }
  });

  await t.test('pages link the built stylesheet under its hashed name', async (t) => {
    const res = await page();
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(res.body)?.[1];
    t.match(href, /^\/static\/build\/app-[A-Z0-9]+\.css$/);
    const css = await app.inject({ url: href!, headers: { 'accept-encoding': BR } });
    t.equal(css.statusCode, 200);
    t.equal(css.headers['content-encoding'], 'br');
    t.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  });
});
