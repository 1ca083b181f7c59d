import { registerErrorCodes } from '#src/core/errors.ts';
import { registerNotificationKinds } from '#src/lib/notification-kinds.ts';
import type { Area } from './area.ts';
import { area as system } from './system/register.ts';
import { area as home } from './home/register.ts';
import { area as auth } from './auth/register.ts';
import { area as dev } from './dev/register.ts';
import { area as communities } from './communities/register.ts';
import { area as members } from './members/register.ts';
import { area as notifications } from './notifications/register.ts';
import { area as settings } from './settings/register.ts';
import { area as payments } from './payments/register.ts';
import { area as articles } from './articles/register.ts';
import { area as forum } from './forum/register.ts';
import { area as expertPanels } from './expert-panels/register.ts';
import { area as ads } from './ads/register.ts';
import { area as badges } from './badges/register.ts';
import { area as offers } from './offers/register.ts';
import { area as contact } from './contact/register.ts';
import { area as groups } from './groups/register.ts';
import { area as messages } from './messages/register.ts';
import { area as conversations } from './conversations/register.ts';
import { area as feeds } from './feeds/register.ts';
import { area as contentBank } from './content-bank/register.ts';
import { area as syndication } from './syndication/register.ts';
import { area as insights } from './insights/register.ts';

export type { Area } from './area.ts';

/**
 * The one list of areas: adding an area adds one line here. Each brings its routes, GraphQL parts,
 * jobs, demo seed (run in this order: an area's demo may use the people and places of those before
 * it), error codes and kinds of notification; its messages live in its own locales/ folder.
 */
export const AREAS: readonly Area[] = [system, home, auth, dev, communities, members, notifications, settings, payments, articles, forum, expertPanels, ads, badges, offers, contact, groups, messages, conversations, feeds, syndication, contentBank, insights];

for (const area of AREAS) {
  if (area.errors) registerErrorCodes(area.errors);
  if (area.notificationKinds) registerNotificationKinds(area.notificationKinds);
}
