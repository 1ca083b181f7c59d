import type { FastifyInstance } from 'fastify';
import type { ChannelSender } from './types.ts';

/** Email delivery (at once or into the daily digest): built by the delivery slice of issue 12. */
export function emailSender(_app: FastifyInstance): ChannelSender {
  return {
    channel: 'email',
    async send() {
      throw new Error('email delivery is not built yet');
    },
  };
}
