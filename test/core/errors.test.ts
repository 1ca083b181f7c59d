import t from 'tap';
import { allServerErrors, AppError, clientErrors, LOCKOUT_CODES, serverErrors } from '#src/core/errors.ts';
import { AREAS } from '#src/features/areas.ts';
import { loadMessages } from '#src/core/i18n.ts';

const messages = loadMessages('en');

t.test('the catalogue holds every client code of spec section 8, and ours beside them', async (t) => {
  const spec = [100, 110, 120, 121, 130, 140, 900, 999];
  const ours = [150]; // 150: a text field holding control characters (issue 10)
  t.same(Object.keys(clientErrors).map(Number), [...spec, ...ours].sort((a, b) => a - b));
});

t.test('the catalogue holds every server code of spec section 8', async (t) => {
  for (const code of ['Invalid.Email', 'Unrecognized.Email', 'NotAuthorized.Password', 'BadRequest.InvalidCode', 'BadRequest.NoAdmins', 'BadRequest.MaxAttempts', 'BadRequest.MaxSendAttempts', 'BadRequest.TooManyRequests', 'BadRequest.UnhandledError']) {
    t.ok(code in serverErrors, code);
  }
  t.same([...LOCKOUT_CODES].sort(), ['BadRequest.MaxAttempts', 'BadRequest.MaxSendAttempts', 'BadRequest.TooManyRequests', 'BadRequest.UnhandledError']);
});

t.test('every code has a message in the locale files, the areas\' codes too', async (t) => {
  t.ok(AREAS.some((a) => a.errors), 'areas declare their codes');
  for (const spec of [...Object.values(clientErrors), ...Object.values(allServerErrors())]) t.ok(messages.has(spec.key), spec.key);
  t.ok('Forum.Locked' in allServerErrors(), 'an area\'s code is in the catalogue once its area is registered');
});

t.test('the spec wording is kept exactly', async (t) => {
  t.equal(messages.get(serverErrors['NotAuthorized.Password'].key), 'Password is incorrect.');
  t.equal(messages.get(serverErrors['BadRequest.InvalidCode'].key), 'That code is invalid or expired, request a new code below.');
  t.equal(messages.get(serverErrors['Invalid.Email'].key), 'Please enter a valid email address.');
  t.equal(messages.get(serverErrors['BadRequest.MaxAttempts'].key), 'Try again in 10 minutes');
  t.equal(messages.get('errors.notFound.title'), 'Page Not Found');
  t.equal(messages.get('errors.notFound.text'), "The page you are trying to reach can't be found.");
  t.equal(messages.get('errors.generic.title'), 'Something went wrong');
  t.equal(messages.get('errors.generic.text'), 'Something went wrong. Please try again.');
  t.equal(messages.get('errors.signIn.didntWork'), "Hmm... That didn't work.");
});

t.test('an AppError carries its status, key and public code', async (t) => {
  const e = new AppError('NotAuthorized.Password');
  t.equal(e.status, 401);
  t.equal(e.publicCode, 'NotAuthorized.Password');
  const c = new AppError(130);
  t.equal(c.status, 400);
  t.equal(c.publicCode, '130');
  t.equal(c.key, 'errors.client.invalidEmail');
});
