import t from 'tap';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { checkbox, field, formOf, id, idParams, optionalId, paramsOf, queryOf } from '#src/lib/form.ts';

const Form = z.object({ title: field(10), featured: checkbox, topicId: optionalId });

t.test('a form through its schema: absent text is empty, a checkbox is a boolean, an optional id is null', async (t) => {
  t.same(formOf(Form, { body: {} }), { title: '', featured: false, topicId: null });
  t.same(formOf(Form, { body: { title: 'Hello', featured: 'on', topicId: '42' } }), { title: 'Hello', featured: true, topicId: 42 });
  t.same(formOf(Form, { body: undefined }), { title: '', featured: false, topicId: null });
});

t.test('a misfit shape is 400 Validation: an array for a text, a long text, a bad id, a checkbox value', async (t) => {
  for (const body of [{ title: ['a', 'b'] }, { title: 'x'.repeat(11) }, { topicId: '0x10' }, { topicId: '-1' }, { featured: 'yes' }]) {
    t.throws(() => formOf(Form, { body }), { code: 'BadRequest.Validation' }, JSON.stringify(body));
  }
  t.throws(() => queryOf(z.object({ page: id }), { query: { page: 'abc' } }), { code: 'BadRequest.Validation' });
});

t.test('a path id that is not an id is NotFound, the same answer as an unknown one', async (t) => {
  t.same(paramsOf(idParams, { params: { id: '7' } }), { id: 7 });
  for (const bad of ['0', '07', '1e3', '2147483648', ' 1', 'abc']) {
    t.throws(() => paramsOf(idParams, { params: { id: bad } }), { code: 'NotFound' }, bad);
  }
  t.throws(() => paramsOf(idParams, { params: { id: 'x' } }, () => new AppError('Forbidden')), { code: 'Forbidden' });
});
