import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#src/core/errors.ts';

/**
 * A form with one file (the upload path of avatars, partner logos and ads, made a
 * tool): registered in the routes plugin that takes uploads, it reads a multipart body into
 * `request.body` (fields as strings, the file as a Buffer) before the CSRF check, which for multipart
 * bodies runs once they are parsed (src/plugins/security.ts). A file over `maxBytes` is cut there and
 * the request marked: `uploadTooLarge(request)`.
 */

const tooLarge = new WeakSet<FastifyRequest>();

/** Whether the request's file was larger than the limit (the rest was not read). */
export const uploadTooLarge = (request: FastifyRequest) => tooLarge.has(request);

/** `fields`: how many text fields the form may have; `fieldSize`: the bytes each may hold. */
export async function acceptUploads(app: FastifyInstance, { maxBytes, fields = 12, fieldSize = 8 * 1024 }: { maxBytes: number; fields?: number; fieldSize?: number }): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: maxBytes, files: 1, fields, fieldSize, parts: fields + 2, headerPairs: 50 },
  });
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    const body: Record<string, unknown> = Object.create(null);
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.file.truncated) tooLarge.add(request);
          body[part.fieldname] = bytes;
        } else {
          body[part.fieldname] = part.value;
        }
      }
    } catch (e) {
      // The library's refusals (too many files or fields) carry their 4xx; a body that ends early or
      // is not multipart at all is the request's fault too.
      const status = (e as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) throw e;
      throw new AppError('BadRequest.Validation', { cause: e });
    }
    request.body = body;
  });
}
