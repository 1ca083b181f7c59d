import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, type ErrorCode } from '#src/core/errors.ts';
import { epDeps, epViewer, type EpDeps, type EpViewer } from '../deps.ts';

/** A refused form as its page shows it again: what was typed (undefined: the page shows what is saved) and the messages. */
export type Refused = { values?: Record<string, string>; errors: Record<string, string> };

/**
 * One form POST of the editors' pages. The route reads the request first, through the zod schemas
 * declared beside it (formOf, paramsOf from #src/lib/form.ts: a malformed id or field is refused
 * before anything runs), then says what was typed, the page that comes back
 * when refused, and what the action does: its notice and the way back.
 */
export type FormAction<Done extends string> = {
  values?: Record<string, string>;
  page: (refused: Refused, status: number) => Promise<unknown>;
  run: (deps: EpDeps, viewer: EpViewer) => Promise<readonly [Done, string]>;
};

/**
 * The expert panels' editors' form POSTs (panels, batches, answers, roundups), staff only: done, a
 * 303 to the action's path with its notice (`back`: `?done=` or `?alert=`); refused with a message a
 * form can show (a field's, or one of `formLevel`'s), its page again with the messages, what was
 * typed and the error's status. Anything else (not found, forbidden, a malformed request, a 5xx)
 * goes on to the error handler.
 */
export function editorPosts<Done extends string>(app: FastifyInstance, options: { formLevel: readonly ErrorCode[]; back: (path: string, done: Done) => string }) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  return (url: string, action: (request: FastifyRequest, reply: FastifyReply) => FormAction<Done> | Promise<FormAction<Done>>) =>
    app.post(url, admin, async (request, reply) => {
      const a = await action(request, reply);
      request.guardian.ensureAdmin();
      try {
        const [done, path] = await a.run(epDeps(request), epViewer(request));
        return await reply.redirectTo(options.back(path, done));
      } catch (e) {
        if (!isAppError(e)) throw e;
        const known = e.fields && Object.keys(e.fields).length > 0;
        if (!known && !options.formLevel.includes(e.code)) throw e;
        const errors = known ? Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)])) : { form: t(e.key, e.values) };
        return a.page({ values: a.values, errors }, e.status);
      }
    });
}
