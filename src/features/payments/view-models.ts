import { formatDate } from '#shared/format.ts';
import type { AmplificationPackage, AmplifyView } from './amplify.ts';
import type { StatementSummary } from './billing.ts';
import { paymentMethodLabel } from './cards.ts';
import { formatMoney } from './money.ts';

/**
 * What the payments views show, already formatted (views import types only): the billing page's
 * statements and the amplify page. The saved-cards views have theirs in saved-cards/view-model.ts, the
 * card form's logos come from cards.ts (cardFormLogos).
 */

/** One statement of /settings/billing. */
export type StatementRow = { id: number; name: string; date: string; isoDate: string; amount: string };

export function statementRows(statements: readonly StatementSummary[]): StatementRow[] {
  return statements.map((s) => ({ id: s.id, name: s.name, date: formatDate(s.purchasedAt), isoDate: s.purchasedAt.toISOString(), amount: formatMoney(s.amountCents, s.currency) }));
}

export type AmplifyPackageRow = { id: number; name: string; description: string; price: string };

/** The amplify page's data (/articles/amplify/{id}). */
export type AmplifyPageModel = {
  article: { id: number; title: string; publishedOn: string | null; articleUrl: string | null };
  packages: AmplifyPackageRow[];
  orders: { id: number; packageName: string; date: string; price: string }[];
  /** The default card when it can be charged, e.g. "Visa ending 4242"; else null (only a new card then). */
  defaultCard: { id: number; label: string } | null;
  /** The package chosen, if it is one of those offered. */
  selected: AmplifyPackageRow | null;
};

export const packagePrice = (p: Pick<AmplificationPackage, 'priceCents' | 'currency'>): string => formatMoney(p.priceCents, p.currency);

const packageRow = (p: AmplificationPackage): AmplifyPackageRow => ({ id: p.id, name: p.name, description: p.description, price: packagePrice(p) });

export function amplifyPageModel(view: AmplifyView, selected: AmplificationPackage | null): AmplifyPageModel {
  const { article } = view;
  return {
    article: { id: article.id, title: article.title, publishedOn: article.publishedDate ? formatDate(article.publishedDate) : null, articleUrl: article.articleUrl },
    packages: view.packages.map(packageRow),
    orders: view.orders.map((o) => ({ id: o.id, packageName: o.packageName, date: formatDate(o.createdAt), price: formatMoney(o.priceCents, o.currency) })),
    defaultCard: view.defaultCard ? { id: view.defaultCard.id, label: paymentMethodLabel(view.defaultCard.cardType, view.defaultCard.last4Digits) } : null,
    selected: selected ? packageRow(selected) : null,
  };
}
