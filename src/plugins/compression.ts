import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants as zlib, deflateSync, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

// The media types list @fastify/compress itself decides with (its own copy of mime-db).
const fromCompress = createRequire(createRequire(import.meta.url).resolve('@fastify/compress'));
const mimeDb = fromCompress('mime-db') as Record<string, { compressible?: boolean }>;
const negotiator = fromCompress('@fastify/accept-negotiator') as { negotiate: (header: string, supported: string[]) => string | undefined };

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

const ENCODINGS: ('br' | 'gzip' | 'deflate')[] = ['br', 'gzip', 'deflate'];
const BROTLI_OPTIONS: BrotliOptions = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };
const ZLIB_OPTIONS: ZlibOptions = { level: 6 };

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
 * A whole body (a page, a fragment, JSON: a string or a Buffer) is compressed here, in one call,
 * before @fastify/compress's own hook sees it (which then leaves it, as it has a Content-Encoding):
 * the same encodings and settings, without the stream plumbing it builds for every answer (a
 * readable, a peek stream, a pump), which cost more than the compression of a page itself.
 * Streams are still compressed by @fastify/compress. A route with `compress: false` gets neither.
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
      // Before @fastify/compress's onSend (it appends its own to the route's hooks after this one).
      if (route.compress !== false && route.config?.compress !== false) {
        route.onSend = [...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []), compressWhole];
      }
    });
    await app.register(compress, {
      global: true,
      encodings: ENCODINGS,
      threshold: COMPRESSION_THRESHOLD,
      brotliOptions: BROTLI_OPTIONS,
      zlibOptions: ZLIB_OPTIONS,
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (wouldCompress(reply, payload)) addVary(reply);
      return payload;
    });
  },
  { name: 'compression' },
);

/** Compresses a whole string or Buffer body at once, as @fastify/compress would have (see above). */
async function compressWhole(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (!wouldCompress(reply, payload) || request.headers['x-no-compression'] !== undefined) return payload;
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return payload;
  // As @fastify/compress reads it: no preference and x-gzip count as gzip.
  const encoding = negotiator.negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
  if (!encoding || encoding === 'identity') return payload;
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(body, { ...BROTLI_OPTIONS, params: { ...BROTLI_OPTIONS.params, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : encoding === 'gzip'
        ? gzipSync(body, ZLIB_OPTIONS)
        : deflateSync(body, ZLIB_OPTIONS);
  addVary(reply);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return compressed;
}

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
