import type { TeamMessageAudience, TeamMessageStatus } from '#src/db/types.ts';

/** What the messages area's views and other areas see (views import types only). */

export type { TeamMessageAudience, TeamMessageStatus };

export const AUDIENCE_KINDS = ['community', 'group', 'filter', 'emails'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

/** The staff's message form as typed: every field text, kept when a save is refused. */
export type StaffMessageForm = {
  subject: string;
  body: string;
  audienceKind: string;
  groupId: string;
  tier: string;
  founding: string;
  industry: string;
  location: string;
  standing: string;
  emails: string;
  /** 'YYYY-MM-DDTHH:MM' (UTC), for a scheduled send. */
  scheduledAt: string;
};

/** What the form's audience choices offer (groups: none until the groups area is wired). */
export type AudienceOptions = { groups: { id: number; name: string; memberCount: number }[]; tiers: string[]; standings: string[]; industries: readonly string[] };

export type DeliveryFigures = { recipients: number; delivered: number; read: number; emailed: number; pushed: number };

export type StaffMessageRow = {
  id: number;
  subject: string;
  senderName: string | null;
  audienceKind: AudienceKind;
  audienceCount: number;
  createdAt: Date;
  status: TeamMessageStatus;
  scheduledAt: Date | null;
  sentAt: Date | null;
  figures: DeliveryFigures;
};

export type MessageEventRow = { from: TeamMessageStatus | null; to: TeamMessageStatus; at: Date; actorName: string | null; note: string | null };

export type StaffMessageDetail = StaffMessageRow & { bodyHtml: string; audience: TeamMessageAudience; form: StaffMessageForm; events: MessageEventRow[] };

/** A member's message from the team, in their list. */
export type InboxItem = { id: number; subject: string; senderName: string | null; sentAt: Date; read: boolean; cursor: string };
export type InboxPage = { items: InboxItem[]; next: string | null; unread: number };
export type InboxMessage = { id: number; subject: string; bodyHtml: string; senderName: string | null; sentAt: Date; readAt: Date | null };
