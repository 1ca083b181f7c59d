import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { createRequire } from 'node:module';
import { constants as zlib } from 'node:zlib';

// The media types list @fastify/compress itself decides with (its own copy of mime-db).
const fromCompress = createRequire(createRequire(import.meta.url).resolve('@fastify/compress'));
const mimeDb = fromCompress('mime-db') as Record<string, { compressible?: boolean }>;

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Compresses answers on the fly: HTML pages and htmx fragments, JSON (REST, GraphQL), text. Brotli
 * when the client takes it (quality 4: dynamic answers cannot wait for quality 11), else gzip, else
 * deflate; nothing under COMPRESSION_THRESHOLD bytes, no empty answers (redirects, 204).
 *
 * The built bundles and the stylesheet are compressed once, at build (esbuild.config.mjs writes .br
 * and .gz beside each file), and @fastify/static serves those files with their Content-Encoding: an
 * answer that already has one is never compressed again.
 *
 * `Vary: Accept-Encoding` goes on every answer whose bytes depend on the request's Accept-Encoding:
 * the compressed ones, and the uncompressed ones that would have been compressed had the client
 * asked (a shared cache must not hand those to a client that takes brotli, nor the other way round).
 *
 * Request bodies are not decompressed: nothing of ours sends compressed bodies, and a
 * Content-Encoding on a request stays what it was before (ignored), not a new way to make the
 * server inflate a small upload into a large one.
 */
export default fp(
  async function compression(app: FastifyInstance) {
    // Before @fastify/compress's own onRoute hook, so that it sees `decompress: false` on every route.
    app.addHook('onRoute', (route) => {
      if (route.decompress === undefined && route.config?.decompress === undefined) route.decompress = false;
    });
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip', 'deflate'],
      threshold: COMPRESSION_THRESHOLD,
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } },
      zlibOptions: { level: 6 },
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (wouldCompress(reply, payload)) addVary(reply);
      return payload;
    });
  },
  { name: 'compression' },
);

/** Whether @fastify/compress compresses this answer for a client that takes brotli. */
function wouldCompress(reply: FastifyReply, payload: unknown): boolean {
  if (payload === null || payload === undefined) return false;
  const encoding = reply.getHeader('content-encoding');
  if (encoding && encoding !== 'identity') return false; // precompressed: @fastify/static sets Vary itself
  const type = String(reply.getHeader('content-type') ?? 'application/json');
  if (!isCompressible(type)) return false;
  // A string's UTF-8 length is at least its length: a page need not be measured.
  if (typeof payload === 'string') return payload.length >= COMPRESSION_THRESHOLD || Buffer.byteLength(payload) >= COMPRESSION_THRESHOLD;
  if (Buffer.isBuffer(payload)) return payload.length >= COMPRESSION_THRESHOLD;
  return true; // a stream: compressed whatever its length
}

/** The same test as @fastify/compress's: mime-db says the type is compressible. */
const isCompressible = (type: string) => mimeDb[type.split(';', 1)[0]!.trim().toLowerCase()]?.compressible === true;

function addVary(reply: FastifyReply) {
  const current = reply.getHeader('vary');
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.includes('*') || values.some((v) => v.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...values, 'accept-encoding'].join(', '));
}
