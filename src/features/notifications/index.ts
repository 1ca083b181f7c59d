/**
 * The notifications area's public face: the only module other areas, views and the app's plugins
 * import from. Its routes, GraphQL parts, jobs and seed are registered through register.ts.
 */
export { Notifier } from './notifier.ts';
export type { NotifyInput } from './notifier.ts';
export type { PreferenceEntry, PreferencesView } from './preferences.ts';
export { buildPushServices } from './push/services.ts';
export type { PushDeviceView } from './push/tokens.ts';
export type { PushServices } from './push/types.ts';
export { hasUnviewed } from './queries.ts';
