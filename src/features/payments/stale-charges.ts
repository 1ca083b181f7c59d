import type { FastifyInstance } from 'fastify';
import type { LineItem } from '#src/db/types.ts';
import { crossCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { paymentMethodLabel } from './cards.ts';
import { processorChargeKey } from './ledger.ts';
import { loadPaymentSite } from './queries.ts';

type App = Pick<FastifyInstance, 'db' | 'clock' | 'cardProcessor' | 'log'>;

/** A charge still pending this long after its row was written is no longer in anyone's hands. */
export const STALE_PENDING_MS = 24 * 60 * 60 * 1000;
/** Rows per run: the next run takes the rest. */
export const STALE_BATCH = 100;

export type StaleRun = { paid: number; refused: number; voided: number; unknown: number };

/**
 * Settles charges left pending (a crash between the row and the processor's answer, a timeout the
 * member never retried, a request refused after the row was written) by asking the processor what
 * became of the idempotency key: charged → succeeded, with its statement; refused → declined; never
 * made → failed (void). Unreachable → left for the next run.
 *
 * Renewals are not touched: their own hourly job asks again under the same key and settles them with
 * what a paid renewal does (the period moves on). For the rest, what the purchase's own settling
 * would have added (an amplification order, a membership's activation) cannot be replayed from here:
 * a charge found paid is settled and logged as a warning for staff to complete.
 */
export async function resolveStaleCharges(app: App, now: Date): Promise<StaleRun> {
  const run: StaleRun = { paid: 0, refused: 0, voided: 0, unknown: 0 };
  // Named cross-community query: a scheduled job scanning the due rows of every community (each row is
  // then settled within its own community).
  const rows = await crossCommunity(app.db)
    .selectFrom('payment_ledger')
    .select(['id', 'community_id', 'user_id', 'idempotency_key', 'amount_cents', 'currency', 'purpose', 'description', 'items'])
    .where('kind', '=', 'charge')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('purpose', 'is', null), eb('purpose', '!=', 'renewal')]))
    .where('created_at', '<', new Date(now.getTime() - STALE_PENDING_MS))
    .orderBy('id')
    .limit(STALE_BATCH)
    .execute();
  for (const row of rows) {
    const community = { id: row.community_id };
    const site = await loadPaymentSite(app.db, community);
    const key = row.idempotency_key?.startsWith('charge:') ? row.idempotency_key.slice('charge:'.length) : null;
    if (!site || !key) {
      run.unknown++;
      continue;
    }
    const found = await app.cardProcessor.findCharge({ site, idempotencyKey: processorChargeKey(community, row.user_id, key) });
    if (found.status === 'unknown') {
      run.unknown++;
      continue;
    }
    const pending = () => updateInCommunity(app.db, 'payment_ledger', community).where('id', '=', row.id).where('status', '=', 'pending');
    if (found.status === 'none') {
      const r = await pending().set({ status: 'failed', error_code: 'processing', settled_at: now }).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) run.voided++;
      continue;
    }
    if (found.status === 'refused') {
      const r = await pending().set({ status: 'declined', error_code: found.code, settled_at: now }).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) run.refused++;
      continue;
    }
    const card = found.profileRef
      ? await selectInCommunity(app.db, 'saved_payments', community)
          .select(['id', 'card_type', 'last4'])
          .where('user_id', '=', row.user_id)
          .where('processor_ref', '=', found.profileRef)
          .executeTakeFirst()
      : undefined;
    const settled = await app.db.transaction().execute(async (trx) => {
      const r = await updateInCommunity(trx, 'payment_ledger', community)
        .set({ status: 'succeeded', processor_ref: found.chargeRef, error_code: null, saved_payment_id: card?.id ?? null, settled_at: now })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await insertInCommunity(trx, 'statements', community, {
        user_id: row.user_id,
        ledger_id: row.id,
        name: row.description,
        kind: row.purpose === 'amplification' ? 'amplification' : 'dues',
        purchased_at: now,
        amount_cents: row.amount_cents,
        currency: row.currency,
        items: JSON.stringify(row.items ?? ([] as LineItem[])),
        payment_method: card ? paymentMethodLabel(card.card_type, card.last4) : 'Card',
      })
        .execute();
      return true;
    });
    if (settled) {
      run.paid++;
      app.log.warn({ ledgerId: row.id, communityId: row.community_id, userId: row.user_id, purpose: row.purpose }, 'a stale pending charge was paid at the processor: settled; what the purchase adds needs a staff check');
    }
  }
  return run;
}
