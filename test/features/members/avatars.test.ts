import t from 'tap';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { AVATAR_PIXELS } from '#src/features/members/avatars.ts';
import { faceSvg, renderFace, seedAvatars, WITHOUT_FACE } from '#src/features/members/seed-avatars.ts';
import { setupDatabase, startApp } from '#test/helpers/app.ts';
import { addMembership, createCommunity, createMember, csrfFor, signIn } from '#test/helpers/factories.ts';
import { multipartBody } from '#test/helpers/members-profiles.ts';

const image = (format: 'jpeg' | 'png' | 'webp', width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();

/** A PNG whose header declares other dimensions than its pixels (its IHDR rewritten, the CRC fixed). */
async function declaredAs(png: Buffer, width: number, height: number): Promise<Buffer> {
  const out = Buffer.from(png);
  // Signature (8), chunk length (4), "IHDR" (4), then width and height; the CRC covers type and data.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

t.test('avatars: upload, every preset, serving, refusals', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta', hosts: ['beta.test'] });
  const { app } = await startApp(t, db);
  const ada = await createMember(db, alpha, { firstName: 'Ada', lastName: 'Lovelace' });
  const grace = await createMember(db, alpha, { firstName: 'Grace', lastName: 'Hopper' });
  const bea = await createMember(db, beta, { firstName: 'Bea', lastName: 'Beta' });
  const session = await signIn(app, ada, alpha);
  const form = await csrfFor(app, session.cookie, `/profile/${ada.id}/self`);

  const upload = (file: { filename: string; type: string; bytes: Buffer } | null, options: { csrf?: boolean; userId?: number } = {}) => {
    const body = multipartBody(options.csrf === false ? {} : { _csrf: form.token }, file ? { name: 'avatar', ...file } : undefined);
    return app.inject({
      method: 'POST',
      url: `/profile/${options.userId ?? ada.id}/self/avatar`,
      headers: { cookie: form.cookie, 'content-type': body.contentType, accept: 'text/html' },
      payload: body.payload,
    });
  };
  const membership = () => db.selectFrom('memberships').select(['avatar_key', 'avatar_url']).where('user_id', '=', ada.id).executeTakeFirstOrThrow();
  const stored = async (key: string) => db.selectFrom('avatar_images').select(['size', 'bytes', 'content_type', 'user_id', 'community_id']).where('key', '=', key).orderBy('size').execute();

  for (const format of ['jpeg', 'png', 'webp'] as const) {
    await t.test(`a ${format} is taken: every preset stored as a square WebP, the membership points at it, older ones deleted`, async (t) => {
      const before = (await membership()).avatar_key;
      const res = await upload({ filename: `me.${format}`, type: `image/${format}`, bytes: await image(format) });
      t.equal(res.statusCode, 303);
      t.equal(res.headers.location, `/profile/${ada.id}/self?avatar=saved`);
      const { avatar_key: key, avatar_url: url } = await membership();
      t.ok(key && /^[A-Za-z0-9_-]{24}$/.test(key), 'a random URL-safe key');
      t.not(key, before, 'a new key for each upload');
      t.equal(url, `/avatars/${key}/200.webp`);
      const rows = await stored(key!);
      t.same(rows.map((r) => r.size), [...AVATAR_PIXELS].sort((a, b) => a - b), 'sizes 24, 35, 80, 150, 200, 300, 450');
      for (const row of rows) {
        const meta = await sharp(row.bytes).metadata();
        t.equal(meta.format, 'webp');
        t.equal(meta.width, row.size, `${row.size}: width`);
        t.equal(meta.height, row.size, `${row.size}: height`);
        t.equal(row.content_type, 'image/webp');
        t.equal(row.user_id, ada.id);
        t.equal(row.community_id, alpha.id);
      }
      if (before) t.equal((await stored(before)).length, 0, 'the older avatar is gone');
      const all = await db.selectFrom('avatar_images').select('key').distinct().where('user_id', '=', ada.id).execute();
      t.equal(all.length, 1, 'one avatar per member');
    });
  }

  await t.test('the user menu shows the small presets (35 px, 80 px on dense screens), not the 200 px default', async (t) => {
    const { avatar_key: key } = await membership();
    const res = await app.inject({ method: 'GET', url: '/members', headers: { cookie: session.cookie, accept: 'text/html' } });
    t.match(res.body, `<img class="avatar" src="/avatars/${key}/35.webp" srcSet="/avatars/${key}/80.webp 2x"`);
  });

  await t.test('the type comes from the bytes: a PNG named .jpg sent as text/plain is taken; text named .png is refused', async (t) => {
    const res = await upload({ filename: 'photo.jpg', type: 'text/plain', bytes: await image('png', 300, 900) });
    t.equal(res.statusCode, 303);
    const key = (await membership()).avatar_key!;
    const big = (await stored(key)).find((r) => r.size === 450)!;
    t.same(await sharp(big.bytes).metadata().then((m) => [m.width, m.height]), [450, 450], 'a tall image is cut to a centred square');

    const text = await upload({ filename: 'photo.png', type: 'image/png', bytes: Buffer.from('this is not an image at all, just words\n') });
    t.equal(text.statusCode, 400);
    t.match(text.body, 'This file is not a JPEG, PNG or WebP image.');
    t.match(text.body, 'id="profile-avatar-error"');
    const gif = await upload({ filename: 'a.png', type: 'image/png', bytes: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).gif().toBuffer() });
    t.equal(gif.statusCode, 400, 'a GIF is refused');
    const svg = await upload({ filename: 'a.png', type: 'image/png', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>') });
    t.equal(svg.statusCode, 400, 'an SVG is refused');
    const truncated = (await image('jpeg')).subarray(0, 400);
    t.equal((await upload({ filename: 'a.jpg', type: 'image/jpeg', bytes: truncated })).statusCode, 400, 'a truncated JPEG is refused');
    t.equal((await membership()).avatar_key, key, 'the avatar is unchanged by refusals');
  });

  await t.test('a photo of nearly 5 MB is taken', async (t) => {
    const noise = Buffer.alloc(1200 * 1100 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const bytes = await sharp(noise, { raw: { width: 1200, height: 1100, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    t.ok(bytes.length > 3.5 * 1024 * 1024 && bytes.length < 5 * 1024 * 1024, `${(bytes.length / 1024 / 1024).toFixed(1)} MB`);
    const res = await upload({ filename: 'big.png', type: 'image/png', bytes });
    t.equal(res.statusCode, 303);
  });

  await t.test('no file, a too-big file, an image bomb: refused cleanly with the field’s message', async (t) => {
    const none = await upload(null);
    t.equal(none.statusCode, 400);
    t.match(none.body, 'Choose an image file to upload.');

    const huge = Buffer.concat([await image('png', 64, 64), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const tooBig = await upload({ filename: 'big.png', type: 'image/png', bytes: huge });
    t.equal(tooBig.statusCode, 413);
    t.match(tooBig.body, 'This file is larger than 5 MB.');

    const bomb = await declaredAs(await image('png', 64, 64), 20000, 20000);
    t.same(await sharp(bomb, { limitInputPixels: false }).metadata().then((m) => [m.width, m.height]), [20000, 20000], 'it declares 20000x20000');
    t.ok(bomb.length < 5 * 1024 * 1024, `the bomb is small on the wire (${bomb.length} bytes)`);
    const started = Date.now();
    const res = await upload({ filename: 'bomb.png', type: 'image/png', bytes: bomb });
    t.equal(res.statusCode, 400);
    t.match(res.body, 'This image is too large: at most 8000 by 8000 pixels');
    t.ok(Date.now() - started < 3000, 'refused before decoding');

    const two = multipartBody({ _csrf: form.token }, { name: 'avatar', filename: 'a.png', type: 'image/png', bytes: await image('png', 20, 20) });
    const doubled = Buffer.concat([two.payload.subarray(0, two.payload.lastIndexOf(Buffer.from('--', 'latin1')) - 2 - two.contentType.split('=')[1]!.length), Buffer.from('')]);
    const res2 = await app.inject({ method: 'POST', url: `/profile/${ada.id}/self/avatar`, headers: { cookie: form.cookie, 'content-type': two.contentType }, payload: doubled });
    t.ok(res2.statusCode >= 400 && res2.statusCode < 500, `a malformed multipart body: ${res2.statusCode}`);
    const small = await image('png', 20, 20);
    const twoFiles = Buffer.concat([
      Buffer.from(`--b\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${form.token}\r\n`),
      ...[1, 2].flatMap((i) => [Buffer.from(`--b\r\nContent-Disposition: form-data; name="avatar"; filename="${i}.png"\r\nContent-Type: image/png\r\n\r\n`), small, Buffer.from('\r\n')]),
      Buffer.from('--b--\r\n'),
    ]);
    const res3 = await app.inject({ method: 'POST', url: `/profile/${ada.id}/self/avatar`, headers: { cookie: form.cookie, 'content-type': 'multipart/form-data; boundary=b' }, payload: twoFiles });
    t.ok(res3.statusCode >= 400 && res3.statusCode < 500, `two files: ${res3.statusCode}`);
    const manyFields = Buffer.from(`${Array.from({ length: 20 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('')}--b--\r\n`);
    const res4 = await app.inject({ method: 'POST', url: `/profile/${ada.id}/self/avatar`, headers: { cookie: form.cookie, 'content-type': 'multipart/form-data; boundary=b' }, payload: manyFields });
    t.ok(res4.statusCode >= 400 && res4.statusCode < 500, `too many fields: ${res4.statusCode}`);
  });

  await t.test('CSRF, someone else’s /self, the remove form', async (t) => {
    const png = await image('png', 50, 50);
    t.equal((await upload({ filename: 'a.png', type: 'image/png', bytes: png }, { csrf: false })).statusCode, 403, 'without the token');
    t.equal((await upload({ filename: 'a.png', type: 'image/png', bytes: png }, { userId: grace.id })).statusCode, 404, 'another member’s profile');
    t.equal((await db.selectFrom('avatar_images').select('key').where('user_id', '=', grace.id).execute()).length, 0);
    const key = (await membership()).avatar_key!;
    const remove = await app.inject({
      method: 'POST',
      url: `/profile/${ada.id}/self/avatar/remove`,
      headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(form.token)}`,
    });
    t.equal(remove.statusCode, 303);
    t.same(await membership(), { avatar_key: null, avatar_url: null });
    t.equal((await stored(key)).length, 0);
  });

  await t.test('served to the community’s members with immutable caching; 404 elsewhere', async (t) => {
    await upload({ filename: 'me.webp', type: 'image/webp', bytes: await image('webp') });
    const key = (await membership()).avatar_key!;
    const graceSession = await signIn(app, grace, alpha);
    const res = await app.inject({ url: `/avatars/${key}/80.webp`, headers: { cookie: graceSession.cookie } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'image/webp');
    t.equal(res.headers['cache-control'], 'private, max-age=31536000, immutable');
    t.equal((await sharp(res.rawPayload).metadata()).width, 80);
    for (const size of AVATAR_PIXELS) t.equal((await app.inject({ url: `/avatars/${key}/${size}.webp`, headers: { cookie: graceSession.cookie } })).statusCode, 200, `${size}`);

    for (const url of [`/avatars/${key}/81.webp`, `/avatars/${key}/80.png`, `/avatars/${'x'.repeat(24)}/80.webp`, `/avatars/${key}/%00.webp`, `/avatars/../80.webp`]) {
      t.equal((await app.inject({ url, headers: { cookie: graceSession.cookie } })).statusCode, 404, url);
    }
    const beaSession = await signIn(app, bea, beta);
    const other = await app.inject({ url: `/avatars/${key}/80.webp`, headers: { cookie: beaSession.cookie, host: 'beta.test' } });
    t.equal(other.statusCode, 404, 'another community cannot fetch it');
    const visitor = await app.inject({ url: `/avatars/${key}/80.webp` });
    t.not(visitor.statusCode, 200, 'signed out cannot fetch it');

    const page = await app.inject({ url: `/profile/${ada.id}`, headers: { cookie: graceSession.cookie, accept: 'text/html' } });
    t.match(page.body, `<img class="profile-avatar" src="/avatars/${key}/150.webp" srcSet="/avatars/${key}/150.webp 1x, /avatars/${key}/300.webp 2x" alt="" width="150" height="150"/>`);
  });

  await t.test('demo faces: generated offline, the same bytes for the same member on every run, another face for another', async (t) => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = () => {
      throw new Error('no network while generating faces');
    };
    t.teardown(() => {
      globalThis.fetch = realFetch;
    });
    const started = performance.now();
    const [first, again, other] = await Promise.all([renderFace('grace@example.com'), renderFace('grace@example.com'), renderFace('bea@example.com')]);
    t.comment(`three faces in ${Math.round(performance.now() - started)} ms`);
    globalThis.fetch = realFetch;
    t.equal(faceSvg('grace@example.com'), faceSvg('grace@example.com'), 'the same drawing');
    t.same([...first.keys()].sort((a, b) => a - b), [...AVATAR_PIXELS].sort((a, b) => a - b), 'every preset');
    for (const size of AVATAR_PIXELS) {
      t.ok(first.get(size)!.equals(again.get(size)!), `${size}: byte-identical across runs`);
      t.notOk(first.get(size)!.equals(other.get(size)!), `${size}: another member, another face`);
      const meta = await sharp(first.get(size)!).metadata();
      t.same([meta.format, meta.width, meta.height], ['webp', size, size]);
    }
  });

  await t.test('demo faces: the seed stores them through the avatar path (served as an upload is); photos stay; a few keep their initials', async (t) => {
    const kept = (await membership()).avatar_key!;
    // A member the demo leaves without a face (their email is one of WITHOUT_FACE).
    const plainEmail = [...WITHOUT_FACE][0]!;
    const plain = await db.insertInto('users').values({ email: plainEmail, username: 'plain.member', first_name: 'Owen', last_name: 'Gallagher', password_hash: null }).returning('id').executeTakeFirstOrThrow();
    await addMembership(db, alpha, plain.id);

    const seeded = await db.transaction().execute((trx) => seedAvatars(trx));
    t.equal(seeded, 2, 'Grace and Bea');
    t.equal((await membership()).avatar_key, kept, 'an uploaded photo is kept');
    for (const [user, community] of [[grace, alpha], [bea, beta]] as const) {
      const row = await db.selectFrom('memberships').select(['avatar_key', 'avatar_url']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      t.equal(row.avatar_url, `/avatars/${row.avatar_key}/200.webp`);
      const sizes = await db.selectFrom('avatar_images').select(['size', 'community_id', 'bytes', 'content_type']).where('key', '=', row.avatar_key!).orderBy('size').execute();
      t.same(sizes.map((r) => r.size), [...AVATAR_PIXELS].sort((a, b) => a - b));
      t.ok(sizes.every((r) => r.community_id === community.id && r.content_type === 'image/webp'), 'stored in the member’s community, as WebP');
      const face = await renderFace(user.email.toLowerCase());
      t.ok(sizes.every((r) => Buffer.from(r.bytes).equals(face.get(r.size)!)), 'the member’s own face, seeded by their email');
    }
    const graceKey = (await db.selectFrom('memberships').select('avatar_key').where('user_id', '=', grace.id).executeTakeFirstOrThrow()).avatar_key!;
    const graceSession = await signIn(app, grace, alpha);
    const served = await app.inject({ url: `/avatars/${graceKey}/80.webp`, headers: { cookie: graceSession.cookie } });
    t.equal(served.statusCode, 200, 'served at the usual address');
    t.equal(served.headers['content-type'], 'image/webp');
    t.equal(served.headers['cache-control'], 'private, max-age=31536000, immutable');
    const profile = await app.inject({ url: `/profile/${grace.id}`, headers: { cookie: graceSession.cookie, accept: 'text/html' } });
    t.match(profile.body, `src="/avatars/${graceKey}/150.webp"`, 'her profile shows it as it would a photo');

    t.same(await db.selectFrom('memberships').select(['avatar_key', 'avatar_url']).where('user_id', '=', plain.id).executeTakeFirstOrThrow(), { avatar_key: null, avatar_url: null }, 'no face for one of WITHOUT_FACE');
    const plainProfile = await app.inject({ url: `/profile/${plain.id}`, headers: { cookie: graceSession.cookie, accept: 'text/html' } });
    t.match(plainProfile.body, /aria-hidden="true">OG<\/span>/, 'the initials show instead');
    t.equal(await db.transaction().execute((trx) => seedAvatars(trx)), 0, 'running again changes nothing');
  });

  await t.test('uploads are rate-limited: a flood gets 429s, not every core', async (t) => {
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) codes.push((await upload({ filename: 'x.png', type: 'image/png', bytes: Buffer.from('not an image') })).statusCode);
    t.ok(codes.includes(429), `429 after the limit (${[...new Set(codes)].join(', ')})`);
    t.ok(codes.every((c) => c < 500), 'never a 5xx');
  });
});
