import type { FastifyInstance } from 'fastify';
import type { ChannelSender } from './types.ts';

/** Mobile and Web Push delivery: built by the push slice of issue 12. */
export function pushSender(_app: FastifyInstance): ChannelSender {
  return {
    channel: 'push',
    async send() {
      throw new Error('push delivery is not built yet');
    },
  };
}
