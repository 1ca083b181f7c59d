import type { FastifyInstance } from 'fastify';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { publishedArticleOf } from '#src/features/articles/index.ts';
import { chargeOnce, type PaymentSource } from './ledger.ts';
import { findDefaultPayment, loadPaymentSite, type PaymentSite, type SavedPayment } from './queries.ts';
import type { DeclineCode } from './processor/types.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor'>;

/**
 * Amplification (issue 13, spec section 2 "/articles/amplify/{id}"): a member promotes one of their
 * own published articles by buying one of the community's active packages, with the card on file or a
 * new card. One service for the page's forms (JavaScript on or off, the hosted-page return) and the
 * GraphQL mutation. The charge goes through the ledger (chargeOnce): a double submit charges once, and
 * the order is written in the charge's settling transaction.
 */

export type AmplifyArticle = { id: number; title: string; publishedDate: Date | null; articleUrl: string | null };
export type AmplificationPackage = { id: number; name: string; description: string; priceCents: number; currency: string };
export type AmplificationOrder = { id: number; packageName: string; priceCents: number; currency: string; createdAt: Date };

export type AmplifyView = {
  article: AmplifyArticle;
  packages: AmplificationPackage[];
  orders: AmplificationOrder[];
  /** The default card when it can be charged (not EXPIRED or FAILED), else null: only a new card then. */
  defaultCard: SavedPayment | null;
  /** The community's processor account (the card form's settings). */
  site: PaymentSite;
};

/** A client's idempotency key: url-safe, 16..100 characters (what newIdempotencyKey makes). */
const KEY = /^[A-Za-z0-9_-]{16,100}$/;
export const isAmplifyKey = (key: unknown): key is string => typeof key === 'string' && KEY.test(key);

/**
 * One of the member's own published articles. Another member's article, another community's, or no
 * article at all: NotFound (nothing is revealed). One's own article that is not live yet:
 * Amplify.NotPublished, so the page can say why.
 */
export async function findOwnPublishedArticle(db: Db, community: Tenant, userId: number, articleId: number): Promise<AmplifyArticle> {
  // The articles area says what its article is and whether it is live (its statuses stay its own).
  const article = await publishedArticleOf(db, community, articleId);
  if (!article || article.authorId !== userId) throw new AppError('NotFound');
  if (!article.published) throw new AppError('Amplify.NotPublished');
  return { id: article.id, title: article.title?.trim() || 'Untitled article', publishedDate: article.publishedDate, articleUrl: article.articleUrl };
}

/**
 * The community's active packages that can be bought: only those priced in the site's currency (the
 * charge is in the site's currency, so a package in another is neither listed nor sold).
 */
export async function listActivePackages(db: Db, community: Tenant): Promise<AmplificationPackage[]> {
  const rows = await selectInCommunity(db, 'amplification_packages', community)
    .innerJoin('payment_settings', (j) =>
      j.onRef('payment_settings.community_id', '=', 'amplification_packages.community_id').onRef('payment_settings.currency', '=', 'amplification_packages.currency'),
    )
    .select(['amplification_packages.id', 'amplification_packages.name', 'amplification_packages.description', 'amplification_packages.price_cents', 'amplification_packages.currency'])
    .where('amplification_packages.active', '=', true)
    .orderBy('amplification_packages.sort_order')
    .orderBy('amplification_packages.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, priceCents: r.price_cents, currency: r.currency }));
}

/** Whether the community offers amplification at all (payments on and an active package in the site's currency): the dashboard's card. */
export async function offersAmplification(db: Db, community: Tenant): Promise<boolean> {
  const row = await selectInCommunity(db, 'amplification_packages', community)
    .innerJoin('payment_settings', (j) =>
      j.onRef('payment_settings.community_id', '=', 'amplification_packages.community_id').onRef('payment_settings.currency', '=', 'amplification_packages.currency'),
    )
    .select('amplification_packages.id')
    .where('amplification_packages.active', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** What was bought for an article, newest first. */
export async function listOrders(db: Db, community: Tenant, userId: number, articleId: number): Promise<AmplificationOrder[]> {
  const rows = await selectInCommunity(db, 'amplification_orders', community)
    .innerJoin('amplification_packages', 'amplification_packages.id', 'amplification_orders.package_id')
    .innerJoin('payment_ledger', 'payment_ledger.id', 'amplification_orders.ledger_id')
    .select(['amplification_orders.id', 'amplification_orders.created_at', 'amplification_packages.name', 'payment_ledger.amount_cents', 'payment_ledger.currency'])
    .where('amplification_orders.article_id', '=', articleId)
    .where('amplification_orders.user_id', '=', userId)
    .orderBy('amplification_orders.created_at', 'desc')
    .orderBy('amplification_orders.id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, packageName: r.name, priceCents: r.amount_cents, currency: r.currency, createdAt: r.created_at }));
}

/** Everything the amplify page shows. Payments off for the community: Payments.NotConfigured (404). */
export async function loadAmplify(app: App, community: Tenant, userId: number, articleId: number): Promise<AmplifyView> {
  const site = await loadPaymentSite(app.db, community);
  if (!site) throw new AppError('Payments.NotConfigured');
  const article = await findOwnPublishedArticle(app.db, community, userId, articleId);
  const [packages, orders, card] = await Promise.all([
    listActivePackages(app.db, community),
    listOrders(app.db, community, userId, articleId),
    findDefaultPayment(app.db, community, userId),
  ]);
  const usable = card && card.status !== 'EXPIRED' && card.status !== 'FAILED' ? card : null;
  return { article, packages, orders, defaultCard: usable, site };
}

export type BuyInput = {
  community: Tenant;
  userId: number;
  actorId: number;
  articleId: number;
  packageId: number;
  /** The form's (or API client's) key: the same key is the same purchase. */
  idempotencyKey: string;
  source: PaymentSource;
};

export type BuyResult =
  | { status: 'succeeded'; order: AmplificationOrder; statementId: number | null; package: AmplificationPackage; article: AmplifyArticle }
  | { status: 'declined' | 'failed'; code: DeclineCode; package: AmplificationPackage; article: AmplifyArticle };

/** An active package of the community, or a field error on `packageId`. */
export async function findActivePackage(db: Db, community: Tenant, packageId: number): Promise<AmplificationPackage> {
  const pkg = (await listActivePackages(db, community)).find((p) => p.id === packageId);
  if (!pkg) throw new AppError('Amplify.UnknownPackage', { fields: { packageId: { code: 'Amplify.UnknownPackage', key: 'amplify.errors.unknownPackage' } } });
  return pkg;
}

/**
 * Buy a package for one's own published article. The ledger key is bound to the article and package,
 * so the same form submitted twice is one charge and one order, and a key cannot be replayed for
 * another purchase.
 */
export async function buyAmplification(app: App, input: BuyInput): Promise<BuyResult> {
  if (!isAmplifyKey(input.idempotencyKey)) throw new AppError(900);
  if (!(await loadPaymentSite(app.db, input.community))) throw new AppError('Payments.NotConfigured');
  const article = await findOwnPublishedArticle(app.db, input.community, input.userId, input.articleId);
  const pkg = await findActivePackage(app.db, input.community, input.packageId);
  const name = `Amplification: ${pkg.name} for “${article.title}”`;
  const result = await chargeOnce(app, {
    community: input.community,
    userId: input.userId,
    actorId: input.actorId,
    idempotencyKey: `amp-${article.id}-${pkg.id}-${input.idempotencyKey}`,
    amountCents: pkg.priceCents,
    purpose: 'amplification',
    description: name,
    items: [{ label: `${pkg.name} (amplification of “${article.title}”)`, amountCents: pkg.priceCents }],
    statement: { kind: 'amplification', name },
    source: input.source,
    onSettled: async (trx, settled) => {
      await insertInCommunity(trx, 'amplification_orders', input.community, { user_id: input.userId, article_id: article.id, package_id: pkg.id, ledger_id: settled.ledgerId, created_at: app.clock.now() })
        .execute();
    },
  });
  if (result.status !== 'succeeded') return { status: result.status, code: result.code, package: pkg, article };
  const row = await selectInCommunity(app.db, 'amplification_orders', input.community)
    .select(['id', 'created_at'])
    .where('ledger_id', '=', result.ledgerId)
    .executeTakeFirstOrThrow();
  return {
    status: 'succeeded',
    order: { id: row.id, packageName: pkg.name, priceCents: pkg.priceCents, currency: pkg.currency, createdAt: row.created_at },
    statementId: result.statementId,
    package: pkg,
    article,
  };
}
