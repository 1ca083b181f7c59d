import t from 'tap';
import type { AmplifyView } from '#src/features/payments/amplify.ts';
import type { PaymentSite, SavedPayment } from '#src/features/payments/queries.ts';
import { amplifyPageModel, statementRows } from '#src/features/payments/view-models.ts';

t.test('the billing page’s statements come formatted', async (t) => {
  const rows = statementRows([{ id: 7, name: 'Annual membership', kind: 'dues', purchasedAt: new Date('2026-11-21T10:00:00Z'), amountCents: 129900, currency: 'USD', cursor: 'c' }]);
  t.equal(rows.length, 1);
  t.equal(rows[0]!.id, 7);
  t.equal(rows[0]!.name, 'Annual membership');
  t.equal(rows[0]!.amount, '$1,299.00');
  t.equal(rows[0]!.isoDate, '2026-11-21T10:00:00.000Z');
  t.match(rows[0]!.date, /2026/);
  t.notOk('cursor' in rows[0]!, 'only what the view shows');
});

t.test('the amplify page’s data comes formatted', async (t) => {
  const pkg = { id: 3, name: 'Spotlight', description: 'Featured.', priceCents: 49900, currency: 'USD' };
  const view = {
    article: { id: 11, title: 'Leading Through Change', publishedDate: new Date('2026-11-01T12:00:00Z'), articleUrl: 'https://example.com/a' },
    packages: [pkg],
    orders: [{ id: 5, packageName: 'Spotlight', priceCents: 49900, currency: 'USD', createdAt: new Date('2026-11-20T12:00:00Z') }],
    defaultCard: { id: 9, cardType: 'VISA', last4Digits: '4242' } as SavedPayment,
    site: {} as PaymentSite,
  } satisfies AmplifyView;
  const model = amplifyPageModel(view, pkg);
  t.same(model.packages, [{ id: 3, name: 'Spotlight', description: 'Featured.', price: '$499.00' }]);
  t.same(model.selected, model.packages[0]);
  t.same(model.defaultCard, { id: 9, label: 'Visa ending 4242' });
  t.equal(model.orders[0]!.price, '$499.00');
  t.match(model.orders[0]!.date, /2026/);
  t.match(model.article.publishedOn, /2026/);
  t.notOk('site' in model, 'no processor settings reach the view');
  const bare = amplifyPageModel({ ...view, defaultCard: null, article: { ...view.article, publishedDate: null } }, null);
  t.equal(bare.defaultCard, null);
  t.equal(bare.selected, null);
  t.equal(bare.article.publishedOn, null);
});
