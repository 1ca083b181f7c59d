import type { Clock } from '#src/core/clock.ts';
import type { Config } from '#src/config.ts';
import type { Db } from '#src/db/index.ts';
import { MaxioProcessor } from './maxio.ts';
import { SandboxEngine } from './sandbox/engine.ts';
import { SandboxProcessor } from './sandbox/processor.ts';
import type { CardProcessor } from './types.ts';

/** The processor configuration names (PAYMENT_PROCESSOR): the sandbox by default. */
export function buildCardProcessor(config: Config, db: Db, clock: Clock): CardProcessor {
  if (config.payments.processor === 'maxio') {
    // The configuration refuses maxio without its URL and key; this only says so again, in types.
    if (!config.payments.maxio) throw new Error('PAYMENT_PROCESSOR=maxio needs MAXIO_URL and MAXIO_API_KEY');
    return new MaxioProcessor({ url: config.payments.maxio.url, apiKey: config.payments.maxio.apiKey, signingSecret: config.payments.signingSecret }, clock);
  }
  return new SandboxProcessor(new SandboxEngine(db, clock, config.payments.signingSecret), config.basePath);
}
