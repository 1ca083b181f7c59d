import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { paramsOf, queryOf } from '#src/lib/form.ts';
import { BillingPage } from '#src/features/payments/views/Billing.tsx';
import { findStatement, listStatements, statementFileName, type StatementPage } from './billing.ts';
import { renderStatementPdf } from './statement-pdf.ts';
import { statementRows } from './view-models.ts';

/** The statements' page: a cursor as sent (not ours: the first page); anything but text, none. */
const BillingQuery = z.object({ after: z.string().optional().catch(undefined) });
/** `/statements/:file`: `<id>.pdf` (anything else names no statement: 404). */
const StatementParams = z.object({
  file: z.string().transform((file, ctx) => {
    const statementId = parseId(/^(\d+)\.pdf$/.exec(file)?.[1]);
    if (statementId === null) {
      ctx.addIssue({ code: 'custom', message: 'not a statement' });
      return z.NEVER;
    }
    return statementId;
  }),
});

/**
 * Settings → Billing (/settings/billing): the member's statements, 20 a page, newest first, and each
 * statement's PDF (/settings/billing/statements/{id}.pdf for the page, /rest/statements/{id}.pdf for API
 * clients with a bearer token). Only one's own statements in the community
 * one is in: any other id is a 404, as is an id that is not a number.
 */
export default async function billingRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  app.get('/settings/billing', member, async (request, reply) => {
    const { after } = queryOf(BillingQuery, request);
    let page: StatementPage | null = null;
    try {
      page = await listStatements(request.server.db, request.community, request.guardian.userId!, { after: typeof after === 'string' ? after : null });
    } catch (e) {
      // A cursor that is not ours is the client's mistake: the first page, not an error.
      if (isAppError(e) && e.code === 900) return reply.redirectTo('/settings/billing');
      // Anything else: the page still loads, with the statements error message (spec section 8).
      request.log.error({ err: e }, 'statements could not be loaded');
    }
    return reply.page({
      title: t('settings.sections.billing'),
      body: <BillingPage statements={page ? statementRows(page.statements) : null} olderCursor={page?.nextCursor ?? null} paged={typeof after === 'string' && after !== '' && page !== null} />,
    });
  });

  // The page's link, and the API's address (GraphQL statementUrl): a bearer token counts on /rest only.
  const downloadStatement = async (request: FastifyRequest, reply: FastifyReply) => {
    const { file: statementId } = paramsOf(StatementParams, request);
    const statement = await findStatement(request.server.db, request.community, request.guardian.userId!, statementId);
    const pdf = await renderStatementPdf(statement, t);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${statementFileName(statement)}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(pdf);
  };
  app.get('/settings/billing/statements/:file', member, downloadStatement);
  app.get('/rest/statements/:file', member, downloadStatement);
}
