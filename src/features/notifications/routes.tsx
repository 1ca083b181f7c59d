import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from '#src/core/errors.ts';
import { formatRelative } from '#shared/format.ts';
import { formOf, idParams, paramsOf, queryOf } from '#src/lib/form.ts';
import { withAlert } from '#src/lib/alerts.ts';
import { NotificationsPage, type ListPlace } from '#src/features/notifications/views/NotificationsPage.tsx';
import { hasUnreadNotifications, LIST_PAGE_SIZE, listNotifications, markAllRead, markRead, openNotification, parseCursor, parseOption, type ListDeps } from './list.ts';

/**
 * The list's query string: the option and the cursors as text, each then parsed by the list (an unknown
 * option is 404, a malformed cursor 400); a parameter given twice is a misfit (400).
 */
const ListQuery = z.object({ option: z.string().optional(), after: z.string().optional(), before: z.string().optional() });
/** The place in the list a form came from: what is not text is dropped, as a bad value is (placeOf). */
const dropped = z.string().optional().catch(undefined);
const PlaceForm = z.object({ option: dropped, after: dropped, before: dropped });

/**
 * The notifications list (/notifications, access member) and its actions, all plain links and forms
 * that work without JavaScript: open one (marks it read, then goes to its link), mark one read, mark
 * all read (POST, then a 303 back to the same place in the list with an alert).
 *
 * `?option=<kind>` narrows the list to one preference option; an option that is not in the catalogue
 * answers 404 (a list narrowed to nothing would pretend the option exists). A malformed `after` /
 * `before` cursor answers 400 (Notifications.BadRequest).
 */
export default async function notificationRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };
  const depsOf = (request: FastifyRequest): ListDeps => ({ db: app.db, clock: app.clock, community: request.community });
  const idParam = (request: FastifyRequest) => paramsOf(idParams, request).id;

  /** A value from a form, or undefined where it does not parse (a bad value is dropped, not trusted). */
  const orNone = <T,>(parse: () => T) => {
    try {
      return parse() ?? undefined;
    } catch {
      return undefined;
    }
  };

  /** The list's address for a place in it. */
  const listPath = (place: ListPlace) => {
    const q = new URLSearchParams();
    if (place.option) q.set('option', place.option);
    if (place.after) q.set('after', place.after);
    else if (place.before) q.set('before', place.before);
    const s = q.toString();
    return s ? `/notifications?${s}` : '/notifications';
  };

  /** The place in the list a form came from, checked again. */
  const placeOf = (request: FastifyRequest) => {
    const body = formOf(PlaceForm, request);
    const after = orNone(() => parseCursor(body.after));
    const before = orNone(() => parseCursor(body.before));
    return { option: orNone(() => parseOption(body.option)), after: after ? String(after) : undefined, before: before ? String(before) : undefined };
  };

  app.get('/notifications', member, async (request, reply) => {
    const q = queryOf(ListQuery, request);
    const kind = parseOption(q.option);
    const after = parseCursor(q.after);
    const before = after === null ? parseCursor(q.before) : null;
    const me = request.guardian.userId!;
    const page = await listNotifications(depsOf(request), me, before !== null ? { last: LIST_PAGE_SIZE, before, kind } : { first: LIST_PAGE_SIZE, after, kind });
    const now = app.clock.now();
    const items = page.items.map((n) => ({
      id: n.id,
      message: n.message,
      when: formatRelative(n.createdAt, now, t).text,
      isoTime: n.createdAt.toISOString(),
      unread: !n.hasRead,
    }));
    const hasUnread = items.some((i) => i.unread) || (await hasUnreadNotifications(depsOf(request), me, kind));
    const place: ListPlace = { option: kind, after: after ? String(after) : undefined, before: before ? String(before) : undefined };
    return reply.page({
      title: t('notifications.list.title'),
      body: (
        <NotificationsPage
          items={items}
          option={kind ? { id: kind, name: t(`notifications.kinds.${kind}.name`) } : null}
          place={place}
          newerHref={page.hasPreviousPage && page.startCursor ? listPath({ option: kind, before: page.startCursor }) : null}
          olderHref={page.hasNextPage && page.endCursor ? listPath({ option: kind, after: page.endCursor }) : null}
          hasUnread={hasUnread}
        />
      ),
    });
  });

  app.get('/notifications/:id/open', member, async (request, reply) => {
    // A GET that marks read: only a top-level navigation may (a click, in the list, the bell or
    // anywhere else). An image, script or fetch pointed here from another page changes nothing.
    const dest = request.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'document') return reply.redirectTo('/notifications', 303);
    const url = await openNotification(depsOf(request), request.guardian.userId!, idParam(request));
    return reply.redirectTo(url, 303);
  });

  app.post('/notifications/:id/read', member, async (request, reply) => {
    const id = idParam(request);
    const [item] = await markRead(depsOf(request), request.guardian.userId!, [String(id)]);
    if (!item) throw notFound();
    return reply.redirectTo(withAlert(listPath(placeOf(request)), 'notification-read'));
  });

  app.post('/notifications/read-all', member, async (request, reply) => {
    const place = placeOf(request);
    await markAllRead(depsOf(request), request.guardian.userId!, place.option);
    return reply.redirectTo(withAlert(listPath(place), 'notifications-read'));
  });
}
