import type { Clock } from '#src/core/clock.ts';
import type { Config } from '#src/config.ts';
import type { Db } from '#src/db/index.ts';
import { SandboxEngine } from './sandbox/engine.ts';
import { SandboxProcessor } from './sandbox/processor.ts';
import type { CardProcessor } from './types.ts';

/** The processor configuration names (PAYMENT_PROCESSOR): the sandbox by default. */
export function buildCardProcessor(config: Config, db: Db, clock: Clock): CardProcessor {
  if (config.payments.processor === 'maxio') throw new Error('PAYMENT_PROCESSOR=maxio: the adapter is not built yet');
  return new SandboxProcessor(new SandboxEngine(db, clock, config.payments.signingSecret), config.basePath);
}
