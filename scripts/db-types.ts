/**
 * `npm run db:types`: writes src/db/schema.ts, the database's tables as the migrations leave them.
 *
 * Migrates a scratch database (on the PostgreSQL server at DATABASE_URL, in a database of its own that
 * is dropped afterwards; without DATABASE_URL, an in-memory PGlite), then runs kysely-codegen on it
 * with the type mapping and the column overrides below. `--check` writes nothing and exits 1 with
 * the diff when src/db/schema.ts differs (test/db/schema-drift.test.ts does the same in the suite).
 *
 * The overrides give a column the type the code relies on where the schema cannot say it: the values
 * a `text` column's check constraint allows (a string union from src/db/column-types.ts), the shape
 * of a `jsonb` column (written as a JSON string, read as the value), and the columns a trigger keeps
 * (never written by the application).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import type { Kysely } from 'kysely';
import { generate, PostgresDialect } from 'kysely-codegen';
import pg from 'pg';
import { createDatabase, migrateToLatest } from '../src/db/index.ts';

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/schema.ts');

const HEADER = `/**
 * GENERATED from the migrated schema by kysely-codegen: do not edit.
 * Regenerate with \`npm run db:types\` (scripts/db-types.ts: migrates a scratch database, then runs
 * the generator with the overrides written there). test/db/schema-drift.test.ts fails when this file
 * differs from what the migrations give. Hand-written: src/db/column-types.ts (the values of
 * constrained and jsonb columns) and src/db/types.ts (the names and row types the code imports).
 */
`;

/** Types by the database's type name, as the app's parsers give them (src/db/index.ts). */
const TYPE_MAPPING = {
  // bigint (count(*), auth_events.id) is parsed as a number.
  int8: 'number',
  // A calendar date stays the string '2024-12-23'.
  date: 'string',
};

/** Column types the schema cannot say (see above). */
const OVERRIDES: Record<string, string> = {
    "communities.nav_more": "ColumnType<NavLink[], string | undefined, string>",
    "memberships.roles": "ColumnType<Role[], Role[] | undefined, Role[]>",
    "memberships.gate": "ColumnType<Gate, Gate | undefined, Gate>",
    "memberships.sort_name": "ColumnType<string, never, never>",
    "memberships.search_text": "ColumnType<string, never, never>",
    "memberships.search_vector": "ColumnType<string, never, never>",
    "ads.shape": "'MASTHEAD' | 'MEDIUM_SQUARE'",
    "one_time_codes.channel": "OtcChannel",
    "password_tokens.purpose": "'reset' | 'setup'",
    "articles.status": "ColumnType<ArticleStatusValue, ArticleStatusValue | undefined, ArticleStatusValue>",
    "article_status_events.from_status": "ArticleStatusValue",
    "article_status_events.to_status": "ArticleStatusValue",
    "article_agreements.kind": "'PRODUCT' | 'SUBMISSION' | 'APPROVAL'",
    "introduction_requests.status": "ColumnType<IntroductionStatus, IntroductionStatus | undefined, IntroductionStatus>",
    "notification_preferences.channel": "NotificationChannel",
    "notification_deliveries.status": "DeliveryStatus",
    "push_tokens.platform": "PushPlatform",
    "push_tokens.keys": "ColumnType<{ p256dh: string; auth: string } | null, string | null | undefined, string | null>",
    "push_tokens.session_id": "ColumnType<string | null, string | null | undefined, string | null>",
    "support_contacts.type": "SupportContactType",
    "payment_settings.accepted_cards": "ColumnType<CardType[], CardType[] | undefined, CardType[]>",
    "membership_plans.term_months": "12 | 24",
    "subscriptions.status": "ColumnType<SubscriptionStatus, SubscriptionStatus | undefined, SubscriptionStatus>",
    "onboardings.current_step": "ColumnType<OnboardingStep, OnboardingStep | undefined, OnboardingStep>",
    "onboardings.address": "ColumnType<Record<string, string> | null, string | null | undefined, string | null>",
    "saved_payments.card_type": "CardType",
    "saved_payments.status": "ColumnType<SavedPaymentStatus, SavedPaymentStatus | undefined, SavedPaymentStatus>",
    "payment_ledger.kind": "LedgerKind",
    "payment_ledger.purpose": "LedgerPurpose | null",
    "payment_ledger.status": "LedgerStatus",
    "payment_ledger.items": "ColumnType<LineItem[], string | undefined, string>",
    "statements.kind": "StatementKind",
    "statements.items": "ColumnType<LineItem[], string, string>",
    "payment_error_logs.source": "'client' | 'script'",
    "sandbox_tokens.card_type": "CardType",
    "sandbox_tokens.status": "'ready' | 'challenge' | 'failed'",
    "sandbox_profiles.card_type": "CardType",
    "sandbox_profiles.outcome": "ColumnType<unknown, string, string>",
    "sandbox_transactions.kind": "'charge' | 'refund' | 'verification'",
    "sandbox_transactions.outcome": "ColumnType<unknown, string, string>",
    "forum_posts.status": "ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>",
    "forum_posts.search": "ColumnType<string, never, never>",
    "forum_replies.status": "ColumnType<ForumStatus, ForumStatus | undefined, ForumStatus>",
    "forum_likes.target_kind": "ForumTargetKind",
    "forum_reactions.target_kind": "ForumTargetKind",
    "forum_reports.target_kind": "ForumTargetKind",
    "ep_batches.status": "ColumnType<EpBatchStatus, EpBatchStatus | undefined, EpBatchStatus>",
    "ep_answers.status": "ColumnType<EpAnswerStatus, EpAnswerStatus | undefined, EpAnswerStatus>",
    "ep_answers.scan": "ColumnType<unknown, string | null | undefined, string | null>",
    "ep_roundups.status": "ColumnType<RoundupStatus, RoundupStatus | undefined, RoundupStatus>",
    "ep_roundup_moves.from_status": "RoundupStatus",
    "ep_roundup_moves.to_status": "RoundupStatus",
    "offers.tier": "ColumnType<OfferTier, OfferTier | undefined, OfferTier>",
    "offers.redemption": "OfferRedemption",
    "offers.status": "ColumnType<OfferStatus, OfferStatus | undefined, OfferStatus>",
    "offer_status_events.from_status": "OfferStatus | null",
    "offer_status_events.to_status": "OfferStatus",
    "groups.visibility": "ColumnType<GroupVisibility, GroupVisibility | undefined, GroupVisibility>",
    "group_members.role": "ColumnType<GroupRole, GroupRole | undefined, GroupRole>",
    "group_join_requests.status": "ColumnType<GroupJoinStatus, GroupJoinStatus | undefined, GroupJoinStatus>",
    "team_messages.status": "ColumnType<TeamMessageStatus, TeamMessageStatus | undefined, TeamMessageStatus>",
    "team_messages.audience": "ColumnType<TeamMessageAudience, string, string>",
    "message_recipients.state": "ColumnType<MessageRecipientState, MessageRecipientState | undefined, MessageRecipientState>",
    "message_events.from_status": "TeamMessageStatus | null",
    "message_events.to_status": "TeamMessageStatus",
    "feed_announcements.shown_from": "ColumnType<Date | null, never, never>",
    "feed_announcements.audience": "ColumnType<FeedAudience, FeedAudience | undefined, FeedAudience>",
    "feed_featured.kind": "FeaturedKind",
    "feed_events.subject": "FeedSubject",
    "bank_entries.kind": "BankKind",
    "bank_dirty.kind": "BankKind",
    "bank_item_tags.kind": "BankKind",
    "bank_collection_items.kind": "BankKind",
    "bank_usage.kind": "BankKind",
    "bank_assets.kind": "BankAssetKind",
    "communities.syndication_feeds": "ColumnType<SyndicationFeedEntry[], string | undefined, string>",
    "syndication_feed_filters.kind": "SyndicationFilterKind",
    "insight_events.device": "ColumnType<InsightDevice, InsightDevice | undefined, InsightDevice>",
};

const COLUMN_TYPES = [
  'NavLink', 'Role', 'Gate', 'OtcChannel', 'ArticleStatusValue', 'NotificationChannel', 'DeliveryStatus', 'PushPlatform',
  'SupportContactType', 'IntroductionStatus', 'CardType', 'SavedPaymentStatus', 'SubscriptionStatus', 'LedgerKind',
  'LedgerStatus', 'LedgerPurpose', 'StatementKind', 'LineItem', 'OnboardingStep', 'EpBatchStatus', 'EpAnswerStatus',
  'RoundupStatus', 'ForumStatus', 'ForumTargetKind', 'OfferTier', 'OfferRedemption', 'OfferStatus', 'GroupVisibility', 'GroupRole', 'GroupJoinStatus',
  'TeamMessageStatus', 'MessageRecipientState', 'TeamMessageAudience', 'FeedAudience', 'FeaturedKind', 'FeedSubject', 'BankKind', 'BankAssetKind', 'SyndicationItemType', 'SyndicationFilterKind', 'SyndicationFeedEntry', 'InsightDevice',
];

/** src/db/schema.ts's text for the migrated database `db` (PostgreSQL or PGlite). */
export async function schemaSource(db: Kysely<any>): Promise<string> {
  const body = await generate({
    db,
    dialect: new PostgresDialect({ defaultSchemas: ['public'] }),
    defaultSchemas: ['public'],
    // Our tables only: not the job queue's (pgboss), which the migrated database also holds.
    includePattern: 'public.*',
    customImports: Object.fromEntries(COLUMN_TYPES.map((t) => [t, './column-types.ts'])),
    overrides: { columns: OVERRIDES },
    typeMapping: TYPE_MAPPING,
    typeOnlyImports: true,
    skipAutogeneratedFileComment: true,
    outFile: null,
  });
  return HEADER + '\n' + body;
}

/** A unified diff from `expected` (src/db/schema.ts) to `actual`, or '' when they are the same. */
export function schemaDiff(expected: string, actual: string): string {
  if (expected === actual) return '';
  return createTwoFilesPatch('src/db/schema.ts', 'src/db/schema.ts (from the migrations)', expected, actual);
}

/** Migrates a scratch database and gives its schema.ts text. */
async function fromScratch(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const { db } = await createDatabase({ kind: 'pglite' });
    try {
      await migrateToLatest(db);
      return await schemaSource(db as unknown as Kysely<any>);
    } finally {
      await db.destroy();
    }
  }
  const name = `db_types_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const target = new URL(url);
    target.pathname = `/${name}`;
    const { db } = await createDatabase({ kind: 'postgres', url: target.toString(), poolSize: 2 });
    try {
      await migrateToLatest(db);
      return await schemaSource(db as unknown as Kysely<any>);
    } finally {
      await db.destroy();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const source = await fromScratch();
  if (process.argv.includes('--check')) {
    const diff = schemaDiff(readFileSync(SCHEMA_FILE, 'utf8'), source);
    if (diff) {
      console.error(diff);
      console.error('src/db/schema.ts differs from the migrated schema: run `npm run db:types`.');
      process.exit(1);
    }
    console.log('src/db/schema.ts matches the migrated schema.');
  } else {
    writeFileSync(SCHEMA_FILE, source);
    console.log(`Wrote ${path.relative(process.cwd(), SCHEMA_FILE)}.`);
  }
}
