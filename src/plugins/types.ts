import type { ReactNode } from 'react';
import type { Config } from '#src/config.ts';
import type { Clock } from '#src/core/clock.ts';
import type { Access, Guardian } from '#src/core/guardian/index.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Identity } from '#src/core/identity.ts';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { CommunityResolver } from '#src/features/communities/index.ts';
import type { SessionTokens } from '#src/features/auth/index.ts';
import type { Assets } from '#src/lib/assets.ts';
import type { Mailer, Outbox } from '#src/lib/messaging/mail.ts';
import type { SmsSender } from '#src/lib/messaging/sms.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import type { Messages } from '#src/lib/messaging/outgoing.ts';
import type { PushServices } from '#src/features/notifications/index.ts';
import type { CopyScanner } from '#src/features/articles/index.ts';
import type { CardProcessor } from '#src/features/payments/index.ts';

export type PageOptions = {
  /** The page name; the title is built from it and the community's app name. */
  title: string;
  body: ReactNode;
  status?: number;
  /** Load htmx for partial updates on this page. */
  htmx?: boolean;
  /** Render without the signed-in shell (header, ads), e.g. for error pages before a community is known. */
  bare?: boolean;
  /** The side ad rail beside the page (default true); pages that need the width (the editor) leave it off. */
  rail?: boolean;
  /**
   * An alert (src/lib/alerts.ts) on a page a POST renders itself, instead of the `?alert=` a redirect
   * carries: shown once, dismissed after its ttl like every alert.
   */
  alert?: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    clock: Clock;
    t: Translate;
    communities: CommunityResolver;
    sessionTokens: SessionTokens;
    assets: Assets;
    outbox: Outbox;
    mailer: Mailer;
    sms: SmsSender;
    /** Mobile push (provider or outbox) and Web Push (null without VAPID keys): src/features/notifications/push. */
    push: PushServices;
    copyScanner: CopyScanner;
    /** The card processor (src/features/payments/processor/): the sandbox by default. */
    cardProcessor: CardProcessor;
    jobs: JobQueue;
    messages: Messages;
    /** The one way anything notifies a member (src/features/notifications/notifier.ts). */
    notifications: Notifier;
  }
  interface FastifyRequest {
    community: Community;
    identity: Identity;
    guardian: Guardian;
    /** The path without the prefix, e.g. "/members". */
    appPath: string;
  }
  interface FastifyReply {
    page(options: PageOptions): FastifyReply;
    fragment(node: ReactNode, status?: number): FastifyReply;
    /** Redirect to an application path, through the path prefix. */
    redirectTo(path: string, status?: number): FastifyReply;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** Skip community and identity resolution (static files, health checks). */
    bare?: boolean;
    /** A member whose gate is onboarding may still use this route. */
    allowDuringOnboarding?: boolean;
    /**
     * No CSRF token for a call that carries none of our cookies (sign-in calls, GraphQL), provided it
     * is JSON and not cross-site (Sec-Fetch-Site, Origin). With our cookies the token is required.
     *
     * 'signed-link': no CSRF token at all, cookies or not. Only for a route whose one authority is a
     * signed token in its own address, which acts on that token's subject and never on the caller's
     * session: the one-click unsubscribe (RFC 8058) that mail providers POST without cookies or a
     * page. A request without a valid token is refused by the route itself (4xx).
     */
    csrf?: false | 'signed-link';
  }
}
