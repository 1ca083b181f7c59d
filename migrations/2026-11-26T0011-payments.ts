import { Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Payments (issue 13). Money is integer cents with a currency. Card data never reaches us: a saved
 * payment is the processor's payment profile (its reference), the card's last four digits, type,
 * holder and expiry. Every charge, refund and card change is a row of payment_ledger; a charge's
 * idempotency key is unique per community, so a double click, a retry or a crash never charges twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Per community: the processor's public settings (spec "Payment processor"), the onboarding switches.
  await db.schema
    .createTable('payment_settings')
    .addColumn('community_id', 'integer', (c) => c.primaryKey().references('communities.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sub_domain', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('accepted_cards', sql`text[]`, (c) => c.notNull().defaultTo(sql`array['VISA','MASTERCARD','AMERICAN_EXPRESS','DISCOVER','DINERS_CLUB','JCB']::text[]`))
    .addColumn('show_address_step', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('onboarding_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('payment_settings_currency', sql`currency ~ '^[A-Z]{3}$'`)
    .execute();

  // The membership offers (spec section 9: 12 and 24 months), as the processor names them.
  await db.schema
    .createTable('membership_plans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('term_months', 'integer', (c) => c.notNull())
    .addColumn('dues_cents', 'integer', (c) => c.notNull())
    .addColumn('initiation_fee_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('savings_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('deal_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('price_point_id', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addCheckConstraint('membership_plans_term', sql`term_months in (12, 24)`)
    .addCheckConstraint('membership_plans_amounts', sql`dues_cents >= 0 and initiation_fee_cents >= 0 and savings_cents >= 0`)
    .addUniqueConstraint('membership_plans_price_point', ['community_id', 'price_point_id'])
    .execute();

  // One subscription per member and community. Its id is the unguessable subscriptionId of the
  // pay-now link, so it is text (random), not a serial.
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.references('membership_plans.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('outstanding_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('period_started_at', 'timestamptz')
    .addColumn('renews_at', 'timestamptz')
    .addColumn('processor_ref', 'text')
    .addColumn('dunning_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_dunning_at', 'timestamptz')
    .addColumn('past_due_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subscriptions_member', ['community_id', 'user_id'])
    .addCheckConstraint('subscriptions_status', sql`status in ('pending', 'active', 'past_due', 'canceled')`)
    .addCheckConstraint('subscriptions_outstanding', sql`outstanding_cents >= 0`)
    .execute();
  await sql`create index subscriptions_renewals on subscriptions (renews_at) where status = 'active'`.execute(db);
  await sql`create index subscriptions_dunning on subscriptions (next_dunning_at) where status = 'past_due'`.execute(db);

  // Onboarding progress, step by step. Its id is the unguessable uid of the invitation link.
  await db.schema
    .createTable('onboardings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.references('membership_plans.id').onDelete('set null'))
    .addColumn('current_step', 'text', (c) => c.notNull().defaultTo('payment'))
    .addColumn('paid_at', 'timestamptz')
    .addColumn('credentials_at', 'timestamptz')
    .addColumn('profile_at', 'timestamptz')
    .addColumn('contact_at', 'timestamptz')
    .addColumn('team_at', 'timestamptz')
    .addColumn('expert_panel_at', 'timestamptz')
    .addColumn('address_at', 'timestamptz')
    .addColumn('address', 'jsonb')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('onboardings_member', ['community_id', 'user_id'])
    .execute();

  // Saved cards (spec "Saved payment"): the processor's profile, never the number or the CVV.
  await db.schema
    .createTable('saved_payments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('processor_ref', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('expiration_month', 'integer', (c) => c.notNull())
    .addColumn('expiration_year', 'integer', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('VALID'))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint('saved_payments_card_type', sql`card_type in ('VISA', 'MASTERCARD', 'AMERICAN_EXPRESS', 'DISCOVER', 'DINERS_CLUB', 'JCB')`)
    .addCheckConstraint('saved_payments_status', sql`status in ('VALID', 'EXPIRED', 'EXPIRATION_PENDING', 'FAILED')`)
    .addCheckConstraint('saved_payments_last4', sql`last4 ~ '^[0-9]{4}$'`)
    .addCheckConstraint('saved_payments_expiry', sql`expiration_month between 1 and 12 and expiration_year between 2000 and 2200`)
    .addUniqueConstraint('saved_payments_profile', ['community_id', 'processor_ref'])
    .execute();
  await sql`create index saved_payments_member on saved_payments (community_id, user_id, id) where deleted_at is null`.execute(db);
  // At most one default card per member: adding one and changing the default swap it in one transaction.
  await sql`create unique index saved_payments_one_default on saved_payments (community_id, user_id) where is_default and deleted_at is null`.execute(db);

  // Every charge, refund and card change.
  await db.schema
    .createTable('payment_ledger')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('idempotency_key', 'text')
    .addColumn('subscription_id', 'text', (c) => c.references('subscriptions.id').onDelete('set null'))
    .addColumn('saved_payment_id', 'integer', (c) => c.references('saved_payments.id').onDelete('set null'))
    .addColumn('related_ledger_id', 'integer', (c) => c.references('payment_ledger.id').onDelete('set null'))
    .addColumn('processor_ref', 'text')
    .addColumn('error_code', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('items', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('settled_at', 'timestamptz')
    .addCheckConstraint('payment_ledger_kind', sql`kind in ('charge', 'refund', 'card_added', 'card_removed', 'card_default')`)
    .addCheckConstraint('payment_ledger_status', sql`status in ('pending', 'succeeded', 'declined', 'failed')`)
    .addCheckConstraint('payment_ledger_amount', sql`(kind = 'charge' and amount_cents > 0) or (kind = 'refund' and amount_cents < 0) or (kind like 'card_%' and amount_cents = 0)`)
    .execute();
  await sql`create unique index payment_ledger_idempotency on payment_ledger (community_id, idempotency_key) where idempotency_key is not null`.execute(db);
  await sql`create index payment_ledger_member on payment_ledger (community_id, user_id, id desc)`.execute(db);

  // What the card's authorisations answered (spec "Card auth log entry"), staff only.
  await db.schema
    .createTable('card_auth_log')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('saved_payment_id', 'integer', (c) => c.notNull().references('saved_payments.id').onDelete('cascade'))
    .addColumn('ledger_id', 'integer', (c) => c.references('payment_ledger.id').onDelete('set null'))
    .addColumn('attempt_amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('auth_response_code', 'integer')
    .addColumn('reversal_http_code', 'integer')
    .execute();
  await sql`create index card_auth_log_card on card_auth_log (community_id, saved_payment_id, attempted_at desc, id desc)`.execute(db);

  // A statement per succeeded purchase (spec "Statement"): what the PDF shows.
  await db.schema
    .createTable('statements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ledger_id', 'integer', (c) => c.notNull().unique().references('payment_ledger.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('purchased_at', 'timestamptz', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addCheckConstraint('statements_kind', sql`kind in ('dues', 'purchase', 'amplification')`)
    .execute();
  await sql`create index statements_member on statements (community_id, user_id, purchased_at desc, id desc)`.execute(db);

  // Amplification: packages to promote one's published article, and what was bought.
  await db.schema
    .createTable('amplification_packages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addCheckConstraint('amplification_packages_price', sql`price_cents > 0`)
    .execute();
  await db.schema
    .createTable('amplification_orders')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('amplification_packages.id'))
    .addColumn('ledger_id', 'integer', (c) => c.notNull().unique().references('payment_ledger.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index amplification_orders_article on amplification_orders (community_id, article_id)`.execute(db);

  // The client's payment errors (spec section 7's two log calls), bounded by the route.
  await db.schema
    .createTable('payment_error_logs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('community_id', 'integer', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('value', 'text')
    .addColumn('uri', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index payment_error_logs_recent on payment_error_logs (community_id, created_at desc)`.execute(db);

  // The sandbox card provider's own books (src/features/payments/processor/sandbox/): it stands for
  // another host, so it keeps its tokens, profiles and charges apart from ours and never sees our tables.
  await db.schema
    .createTable('sandbox_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('behaviour', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('sandbox_profiles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sub_domain', 'text', (c) => c.notNull())
    .addColumn('customer_ref', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('behaviour', 'text', (c) => c.notNull())
    .addColumn('outcome', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .addUniqueConstraint('sandbox_profiles_key', ['sub_domain', 'idempotency_key'])
    .execute();
  await db.schema
    .createTable('sandbox_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sub_domain', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text')
    .addColumn('related_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull())
    .addColumn('outcome', 'jsonb', (c) => c.notNull())
    .addColumn('response_code', 'integer')
    .addColumn('reversal_http_code', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('sandbox_transactions_key', ['sub_domain', 'idempotency_key'])
    .execute();
  await sql`create index sandbox_transactions_profile on sandbox_transactions (profile_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'sandbox_transactions',
    'sandbox_profiles',
    'sandbox_tokens',
    'payment_error_logs',
    'amplification_orders',
    'amplification_packages',
    'statements',
    'card_auth_log',
    'payment_ledger',
    'saved_payments',
    'onboardings',
    'subscriptions',
    'membership_plans',
    'payment_settings',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
