import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { paramsOf } from '#src/lib/form.ts';
import { readAssetFile } from './assets.ts';

const FileParams = z.object({ key: z.string().max(100), name: z.string().max(200) });

/**
 * An asset's file, for the signed-in members of its community (staff link assets in team messages and
 * offers, which members open): `/content-bank/assets/{key}/{name}`, under a random key that never
 * changes. Served with the type its bytes were checked as, never sniffed again by the browser, an
 * image shown in place, a PDF downloaded; another community's key, a wrong name, anything else: 404.
 */
export default async function contentBankRoutes(app: FastifyInstance) {
  app.get('/content-bank/assets/:key/:name', { config: { access: 'member' as const } }, async (request, reply) => {
    const notFound = () => new AppError('ContentBank.NotFound');
    const { key, name } = paramsOf(FileParams, request, notFound);
    const file = await readAssetFile({ db: request.server.db, community: request.community }, key, name);
    if (!file) throw notFound();
    const disposition = file.kind === 'image' ? 'inline' : 'attachment';
    return reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `${disposition}; filename="${file.filename}"`)
      .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(file.bytes);
  });
}
