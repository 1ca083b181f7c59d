import type { FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, type AppError, type ErrorCode } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';

/** A staff form as its page shows it again after a refusal: which form, what was typed, the messages. */
export type StaffActionForm = { key: string; values: Record<string, string>; errors: Record<string, string> };

/** What a staff form action did: the notice to show (`?done=<done>`) and the page to go back to. */
export type StaffActionDone<Done extends string> = { done: Done; path: string };

/** The way back on a refusal: the form's key, what was typed (kept), and its page rendered with them. */
export type StaffActionAgain = { key: string; values: Record<string, string>; render: (form: StaffActionForm, status: number) => Promise<unknown> };

/** `path` with `done=<done>` added to its query, before any `#fragment`. */
export function withDone(path: string, done: string): string {
  const [base, hash] = path.split('#', 2) as [string, string | undefined];
  return `${base}${base.includes('?') ? '&' : '?'}done=${done}${hash ? `#${hash}` : ''}`;
}

/**
 * The staff areas' form action (the expert panels' and the forum's editors' pages), made once per
 * area with its messages (`t`) and the codes its forms show as their own message (`formLevel`).
 *
 * The action's run: done, a 303 back to its path with the notice. Refused with a message a form can
 * show (a field's, or one of `formLevel`'s), the form's page comes back with the messages, what was
 * typed and the error's status. Anything else (not found, forbidden, a malformed request, a 5xx)
 * goes on to the error handler. Staff only: the guardian is asked first.
 */
export function staffAction<Done extends string>(t: Translate, formLevel: readonly ErrorCode[]) {
  const fieldsOf = (e: AppError) => Object.fromEntries(Object.entries(e.fields ?? {}).map(([f, v]) => [f, t(v.key, v.values)]));
  return async function act(request: FastifyRequest, reply: FastifyReply, run: () => Promise<StaffActionDone<Done>>, again: StaffActionAgain): Promise<unknown> {
    request.guardian.ensureAdmin();
    try {
      const { done, path } = await run();
      return await reply.redirectTo(withDone(path, done));
    } catch (e) {
      if (!isAppError(e)) throw e;
      const known = e.fields && Object.keys(e.fields).length > 0;
      if (!known && !formLevel.includes(e.code)) throw e;
      const errors = known ? fieldsOf(e) : { form: t(e.key, e.values) };
      return again.render({ key: again.key, values: again.values, errors }, e.status);
    }
  };
}
