import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAppError } from '#src/core/errors.ts';
import { queryOf } from '#src/lib/form.ts';
import { DirectoryView, type DirectoryForm, type DirectoryMode } from '#src/features/members/views/Directory.tsx';
import { filterOptions, listDirectory, listSuggestions, parseDirectoryQuery, type DirectoryDeps, type DirectoryInput } from './directory.ts';

export function directoryDeps(request: FastifyRequest): DirectoryDeps {
  return { db: request.server.db, community: request.community, clock: request.server.clock };
}

/**
 * The directory's query string: each parameter as typed, or none when it is not text (a parameter
 * given twice); the service refuses what is too long or unknown, naming the field.
 */
const param = z.string().optional().catch(undefined);
const DirectoryQueryString = z.object({ tab: param, q: param, location: param, industry: param, size: param, founding: param, letter: param, after: param, before: param });
type DirectoryQueryString = z.infer<typeof DirectoryQueryString>;

const one = (v: string | undefined): string => v ?? '';

/** What was typed, to show again (also when it is refused). */
function typedOf(query: DirectoryQueryString, mode: DirectoryMode): DirectoryForm {
  const founding = one(query.founding);
  return {
    q: mode === 'browse' ? '' : one(query.q).slice(0, 1000),
    location: one(query.location).slice(0, 1000),
    industry: one(query.industry).slice(0, 1000),
    size: one(query.size).slice(0, 20),
    founding: founding === 'true' || founding === 'on' || founding === '1',
    letter: mode === 'browse' ? one(query.letter).toUpperCase().slice(0, 1) : '',
  };
}

/**
 * The member directory (spec section 2): /members (the Directory tab, and the Discover tab at
 * /members?tab=discover), /members/results (a search, its query in the address) and /members/browse
 * (by last-name initial and filters). Plain GET pages: they work without JavaScript and can be shared.
 */
export default async function directoryRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  async function render(request: FastifyRequest, reply: FastifyReply, mode: Exclude<DirectoryMode, 'discover'>) {
    const { tab: _tab, ...raw } = queryOf(DirectoryQueryString, request);
    const deps = directoryDeps(request);
    const form = typedOf(raw, mode);
    const input: DirectoryInput = { ...raw, q: form.q, letter: form.letter };
    if (mode === 'directory') {
      // The first tab lists everyone; its search form leads to /members/results.
      input.q = '';
      input.location = input.industry = input.size = input.founding = undefined;
    }
    const title = t(mode === 'results' ? 'directory.resultsTitle' : mode === 'browse' ? 'directory.browseTitle' : 'directory.title');
    try {
      const query = parseDirectoryQuery(input);
      const [options, page] = await Promise.all([filterOptions(deps), listDirectory(deps, query)]);
      return reply.page({ title, body: <DirectoryView mode={mode} form={form} options={options} page={page} /> });
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      // A refused query: the page again, the message next to the field, what was typed kept.
      const errors = Object.fromEntries(Object.entries(e.fields).map(([field, f]) => [field === 'after' ? 'q' : field, t(f.key)]));
      const options = await filterOptions(deps);
      return reply.page({ title, body: <DirectoryView mode={mode} form={form} options={options} page={null} errors={errors} />, status: e.status });
    }
  }

  app.get('/members', member, async (request, reply) => {
    const query = queryOf(DirectoryQueryString, request);
    if (query.tab === 'discover') {
      const deps = directoryDeps(request);
      const suggestions = await listSuggestions(deps, request.guardian.userId!);
      return reply.page({
        title: t('directory.discoverTitle'),
        body: <DirectoryView mode="discover" form={typedOf({}, 'discover')} options={{ locations: [], industries: [], sizes: [] }} suggestions={suggestions} />,
      });
    }
    return render(request, reply, 'directory');
  });

  app.get('/members/results', member, async (request, reply) => render(request, reply, 'results'));
  app.get('/members/browse', member, async (request, reply) => render(request, reply, 'browse'));
}
