import t from 'tap';
import { developmentEnv, setupDatabase, startApp } from '#test/helpers/app.ts';
import { createCommunity } from '#test/helpers/factories.ts';

const html = { accept: 'text/html' };

/** Each component's section on the page, and the markup that proves the component drew. */
const MARKERS: Record<string, RegExp> = {
  button: /<button type="button" class="button button-danger button-compact">/,
  badge: /<span class="badge badge-warning">/,
  chip: /<button type="submit" class="chip" aria-pressed="true">/,
  card: /<li class="card"><h3 class="card-title"><a href=/,
  'list-row': /<li class="list-row list-row-unread">[\s\S]*<span class="face-stack" aria-hidden="true"><span class="face member-initials">AL<\/span>/,
  'empty-state': /<div class="empty-state"><p class="empty-state-title">/,
  tabs: /<ul class="tabs"><li><a href="\/dev\/styles\?tab=overview#kit-tabs" aria-current="page">/,
  alert: /<div class="alert alert-success toast" role="status">[\s\S]*<div class="alert alert-error" role="alert">/,
  field: /<div class="field field-invalid">/,
  dialog: /<dialog id="styles-dialog" class="modal-dialog" aria-labelledby="styles-dialog-heading" open="">/,
  table: /<div class="table-scroll table-scroll-sticky" tabindex="0" role="region" aria-label="[^"]+"><table class="table board"><thead><tr><th scope="col">Name<\/th>[\s\S]*<th scope="col" class="num">Posts<\/th>/,
};

t.test('the style page', async (t) => {
  const db = await setupDatabase(t);
  await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });

  await t.test('in development it shows every component of the kit', async (t) => {
    const { app } = await startApp(t, db, { env: await developmentEnv(t) });
    const res = await app.inject({ url: '/dev/styles', headers: html });
    t.equal(res.statusCode, 200);
    for (const [component, marker] of Object.entries(MARKERS)) {
      t.match(res.body, `id="kit-${component}"`, `the ${component} section`);
      t.match(res.body, marker, `the ${component} drawn by the kit`);
    }
    t.match(res.body, /<iframe class="styles-phone" src="\/dev\/styles\?frame=phone" title="[^"]+" width="375"/, 'the same gallery at phone width');
    t.match(String(res.headers['content-security-policy']), "frame-ancestors 'none'", 'the page itself may not be framed');

    const framed = await app.inject({ url: '/dev/styles?frame=phone', headers: html });
    t.equal(framed.statusCode, 200);
    t.notMatch(framed.body, '<iframe', 'the framed copy has no frame of its own');
    t.notMatch(framed.body, 'class="site-header"', 'nor the shell');
    t.match(framed.body, 'id="kit-table"');
    t.match(String(framed.headers['content-security-policy']), "frame-ancestors 'self'", 'the framed copy may be framed by this site alone');

    const odd = await app.inject({ url: '/dev/styles?frame[]=x&frame=%00', headers: html });
    t.equal(odd.statusCode, 200, 'an odd query is the ordinary page');
  });

  await t.test('in tests and in production there is no style page', async (t) => {
    const { app } = await startApp(t, db);
    t.equal((await app.inject({ url: '/dev/styles', headers: html })).statusCode, 404);
    const production = await startApp(t, db, {
      env: { NODE_ENV: 'production', COOKIE_SECRET: 'production-secret-0123456789-0123456789', PAYMENT_PROCESSOR: 'sandbox', JOB_WORKERS: 'false', LOG_LEVEL: 'silent' },
    });
    t.equal((await production.app.inject({ url: '/dev/styles', headers: html })).statusCode, 404);
  });
});
