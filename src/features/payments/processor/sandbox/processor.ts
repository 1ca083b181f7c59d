import type { BrowserSettings, CardProcessor, ChargeLookup, ChargeOutcome, ProcessorSite, ProfileOutcome, RefundOutcome } from '../types.ts';
import type { SandboxEngine } from './engine.ts';

/** Where the sandbox's browser side is served, behind the path prefix, as if it were another host. */
export const SANDBOX_PREFIX = '/sandbox-pay';

/**
 * Our app's side of the sandbox: the same interface as the real processor's adapter (../maxio.ts).
 * It calls the sandbox's engine in-process; the browser reaches the sandbox over HTTP (./routes.ts).
 */
export class SandboxProcessor implements CardProcessor {
  readonly kind = 'sandbox' as const;

  constructor(
    readonly engine: SandboxEngine,
    private readonly basePath: string,
  ) {}

  browserSettings(site: ProcessorSite): BrowserSettings {
    const serverHost = `${this.basePath}${SANDBOX_PREFIX}`;
    return {
      publicKey: site.publicKey,
      subDomain: site.subDomain,
      serverHost,
      scriptUrl: `${serverHost}/js/card.js`,
      // The hosted page names the account's public key, as a hosted page's address names its merchant.
      hostedPageUrl: `${serverHost}/${encodeURIComponent(site.subDomain)}/hosted?key=${encodeURIComponent(site.publicKey)}`,
    };
  }

  createPaymentProfile(input: { site: ProcessorSite; customerRef: string; token: string; idempotencyKey: string }): Promise<ProfileOutcome> {
    return this.engine.createProfile({ subDomain: input.site.subDomain, publicKey: input.site.publicKey, customerRef: input.customerRef, token: input.token, idempotencyKey: input.idempotencyKey });
  }

  charge(input: { site: ProcessorSite; profileRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<ChargeOutcome> {
    return this.engine.charge({ subDomain: input.site.subDomain, profileRef: input.profileRef, amountCents: input.amountCents, currency: input.currency, idempotencyKey: input.idempotencyKey, memo: input.memo });
  }

  refund(input: { site: ProcessorSite; chargeRef: string; amountCents: number; currency: string; idempotencyKey: string; memo: string }): Promise<RefundOutcome> {
    return this.engine.refund({ subDomain: input.site.subDomain, chargeRef: input.chargeRef, amountCents: input.amountCents, currency: input.currency, idempotencyKey: input.idempotencyKey, memo: input.memo });
  }

  findCharge(input: { site: ProcessorSite; idempotencyKey: string }): Promise<ChargeLookup> {
    return this.engine.findCharge(input.site.subDomain, input.idempotencyKey);
  }

  deletePaymentProfile(input: { site: ProcessorSite; profileRef: string }): Promise<void> {
    return this.engine.deleteProfile(input.site.subDomain, input.profileRef);
  }

  verifyReturn(_site: ProcessorSite, params: { token: string; state: string; signature: string }): boolean {
    return this.engine.verify(params.token, params.state, params.signature);
  }
}
