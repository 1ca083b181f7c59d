import type { Tenant } from '#src/db/tenancy.ts';
import type { Selectable } from 'kysely';
import type { Community, NotificationChannel, NotificationsTable } from '#src/db/types.ts';

export type Choices = Record<NotificationChannel, boolean>;
export type MemberRef = { communityId: number; userId: number };

/** The community a member reference points into, as the one tenant value. */
export const tenantOf = (member: MemberRef): Tenant => ({ id: member.communityId });

export type NotificationRow = Selectable<NotificationsTable>;

/** Everything a channel needs to deliver one notification. */
export type Delivery = {
  notification: NotificationRow;
  member: { communityId: number; userId: number; email: string; firstName: string };
  community: Community;
  choices: Choices;
  emailDigest: boolean;
};

/** One channel beyond the list (web): it delivers a notification the member wants on it. */
export type ChannelSender = { channel: Exclude<NotificationChannel, 'web'>; send(delivery: Delivery): Promise<void> };

