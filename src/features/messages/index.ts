/**
 * The team messages area's public face: the types its views read. Routes, GraphQL, jobs, the demo seed
 * and its errors are registered through register.ts, never imported from here.
 */
export type {
  AudienceKind,
  AudienceOptions,
  DeliveryFigures,
  InboxItem,
  InboxMessage,
  InboxPage,
  MessageEventRow,
  StaffMessageDetail,
  StaffMessageForm,
  StaffMessageRow,
  TeamMessageAudience,
  TeamMessageStatus,
} from './types.ts';
// Messages read by day, for the staff's insights (issue 29).
export { messagesReadByDay } from './figures.ts';
