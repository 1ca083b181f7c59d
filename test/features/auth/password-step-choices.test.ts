import t from 'tap';
import { setupDatabase, startApp, testClock } from '#test/helpers/app.ts';
import { setPassword, setPhone } from '#test/helpers/auth.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';
import { FormBrowser as Browser } from '#test/helpers/form-browser.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

t.test('the password step keeps all its choices after a wrong password', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app } = await startApp(t, db, { clock: testClock() });
  const withPhone = await createMember(db, alpha, { firstName: 'Ada' });
  await setPassword(db, withPhone.id);
  await setPhone(db, withPhone.id);
  const noPhone = await createMember(db, alpha, { firstName: 'Bo' });
  await setPassword(db, noPhone.id);

  await t.test('a member with a phone is still offered "Text a sign-in code" after a wrong password', async (t) => {
    const b = new Browser(app);
    const step = await b.post('/login', { email: withPhone.email });
    t.match(text(step.body), 'Text a sign-in code to +1 ••••••0143', 'offered at first');
    const wrong = await b.post('/login/password', { email: withPhone.email, password: 'Wrong-pass-1' });
    t.equal(wrong.statusCode, 401);
    t.match(wrong.body, 'Password is incorrect.');
    t.match(text(wrong.body), 'Text a sign-in code to +1 ••••••0143', 'still offered after the wrong password');
    t.match(text(wrong.body), 'Email me a sign-in code');
    const empty = await b.post('/login/password', { email: withPhone.email, password: '' });
    t.match(text(empty.body), 'Text a sign-in code to +1 ••••••0143', 'and after an empty one');
  });

  await t.test('a member without a phone is not offered a text after a wrong password either', async (t) => {
    const b = new Browser(app);
    const wrong = await b.post('/login/password', { email: noPhone.email, password: 'Wrong-pass-1' });
    t.equal(wrong.statusCode, 401);
    t.notMatch(text(wrong.body), 'Text a sign-in code');
  });
});
