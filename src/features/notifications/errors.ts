import type { Codes, ErrorSpec } from '#src/core/errors.ts';

/** This area's error codes (spec section 8 and ours): registered from src/features/areas.ts. */
export const notificationErrors = {
  'Notifications.UnknownPreference': { status: 400, key: 'preferences.errors.unknownPreference' },
  'Notifications.InvalidUnsubscribeLink': { status: 400, key: 'preferences.errors.invalidUnsubscribeLink' },
  'Notifications.BadRequest': { status: 400, key: 'notifications.errors.badRequest' },
  'Push.InvalidToken': { status: 400, key: 'push.errors.invalidToken' },
  'Push.InvalidSubscription': { status: 400, key: 'push.errors.invalidSubscription' },
} as const satisfies Record<string, ErrorSpec>;

declare module '#src/core/errors.ts' {
  interface AreaErrorCodes extends Codes<typeof notificationErrors> {}
}
