import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius';
import { GraphQLError, NoSchemaIntrospectionCustomRule, validate, type DocumentNode, type GraphQLSchema, type ValidationContext } from 'graphql';
import { createComplexityRule, simpleEstimator } from 'graphql-query-complexity';
import { z } from 'zod';
import { AppError, asClientError, isAppError } from '#src/core/errors.ts';
import { formOf } from '#src/lib/form.ts';
import { isDatabaseUnavailable } from '#src/db/faults.ts';
import { createLoaders } from '#src/lib/graphql/loaders.ts';
import { adminSchema, adminResolvers, memberSchema, memberResolvers } from './schema.ts';
import '#src/lib/graphql/context.ts';

export const MAX_DEPTH = 8;
export const MAX_COMPLEXITY = 300;

function options(app: FastifyInstance, path: string, schema: string, resolvers: IResolvers, graphiql: boolean) {
  return {
    schema,
    resolvers,
    path,
    graphiql,
    queryDepth: MAX_DEPTH,
    // The complexity rule needs each request's variables, which rules out mercurius's query cache.
    cache: false,
    validationRules: ({ variables }: { variables?: Record<string, unknown> }) => [
      createComplexityRule({
        maximumComplexity: MAX_COMPLEXITY,
        variables: variables ?? {},
        estimators: [simpleEstimator({ defaultComplexity: 1 })],
        createError: (max: number, actual: number) =>
          new GraphQLError(`Query is too complex: ${actual}. Maximum allowed complexity: ${max}`, {
            extensions: { code: 'BadRequest.Validation' },
          }),
      }) as unknown as (context: ValidationContext) => never,
    ],
    context: (request: FastifyRequest) => ({
      request,
      db: app.db,
      identity: request.identity,
      community: request.community,
      guardian: request.guardian,
      loaders: createLoaders(app.db, request.community),
    }),
    errorFormatter: (execution: { data?: unknown; errors: readonly GraphQLError[] }, context: { reply?: FastifyReply }) => {
      let status = 200;
      const errors = execution.errors.map((error) => {
        const thrown = isAppError(error) ? error : error.originalError;
        const original = asClientError(thrown) ?? thrown;
        if (isAppError(original)) {
          if (!execution.data) status = original.status;
          // Field errors go along as in REST answers: { field: { code, key } }, the key a locale key.
          const fields = original.fields ? { fields: original.fields } : {};
          return { message: app.t(original.key, original.values), path: error.path, extensions: { code: original.publicCode, ...fields } };
        }
        const nested = (original as { errors?: GraphQLError[] } | undefined)?.errors;
        if (Array.isArray(nested)) {
          status = 400;
          return nested.map((e) => ({ message: e.message, locations: e.locations, extensions: { code: 'BadRequest.Validation' } }));
        }
        const clientStatus = (original as { statusCode?: unknown } | undefined)?.statusCode;
        if (original && !(original instanceof GraphQLError) && typeof clientStatus === 'number' && clientStatus >= 400 && clientStatus < 500) {
          // Refused by Fastify before GraphQL ran (unsupported body type, malformed JSON): the client's fault.
          status = clientStatus;
          return { message: original.message, extensions: { code: 'BadRequest.Validation' } };
        }
        if (isDatabaseUnavailable(original)) {
          // The database is out of reach (a restart): to be retried, not a crash.
          if (!execution.data) status = 503;
          context.reply?.log.warn({ err: original }, 'GraphQL: database unavailable');
          return { message: app.t('errors.server.unavailable'), path: error.path, extensions: { code: 'ServiceUnavailable.Database' } };
        }
        if (original && !(original instanceof GraphQLError)) {
          // A resolver crashed: log it, tell the client nothing of it.
          context.reply?.log.error({ err: original }, 'GraphQL resolver failed');
          return { message: app.t('errors.generic.text'), path: error.path, extensions: { code: 'UnknownError' } };
        }
        if (!execution.data) status = 400;
        return { message: error.message, locations: error.locations, path: error.path, extensions: { code: 'BadRequest.Validation', ...error.extensions } };
      });
      return { statusCode: status, response: { data: execution.data ?? null, errors: errors.flat() } };
    },
  };
}

/**
 * In production the schema is not described to callers who are not signed in: the public sees the
 * sign-in operations work, not a map of the whole API. Members (and our islands) keep introspection.
 */
async function refuseIntrospectionWhenSignedOut(schema: GraphQLSchema, document: DocumentNode, context: MercuriusContext) {
  if (context.identity?.loggedIn) return;
  const errors = validate(schema, document, [NoSchemaIntrospectionCustomRule]);
  if (errors.length > 0) throw Object.assign(new Error('GraphQL introspection is not allowed'), { errors });
}

/** A GraphQL request's body: its query, when given, is text (the rest is mercurius's to read). */
const GraphQLBody = z.object({ query: z.string().optional() });

/**
 * Two schemas, each in its own encapsulated context: the member schema at /graphql and the admin
 * schema at /graphqlAdmin (ADMIN only, enforced by the route access and again in the resolvers).
 */
export default async function graphqlPlugin(app: FastifyInstance) {
  const base = app.config.basePath;
  // Only JSON (or application/graphql) bodies: a cross-site HTML form, which can send neither and
  // carries no SameSite cookie (so no CSRF token is asked), must not run a mutation such as login.
  const jsonOnly = (scope: FastifyInstance) => {
    scope.removeContentTypeParser(['application/x-www-form-urlencoded', 'text/plain']);
    // A query that is not text (`{"query": 123}`) crashes graphql-js's validation inside mercurius:
    // it is the client's mistake, refused before it gets there.
    scope.addHook('preValidation', async (request) => {
      const body = request.body;
      if (body && typeof body === 'object' && !Array.isArray(body)) formOf(GraphQLBody, request);
    });
  };
  await app.register(async (scope) => {
    jsonOnly(scope);
    await scope.register(mercurius, options(app, `${base}/graphql`, memberSchema, memberResolvers, !app.config.isProduction) as never);
    if (app.config.isProduction) scope.graphql.addHook('preValidation', refuseIntrospectionWhenSignedOut);
  });
  await app.register(async (scope) => {
    jsonOnly(scope);
    await scope.register(mercurius, options(app, `${base}/graphqlAdmin`, adminSchema, adminResolvers, false) as never);
  });
}
