import type { FastifyRequest } from 'fastify';
import type { MercuriusContext } from 'mercurius';
import type { Guardian } from '#src/core/guardian/index.ts';
import type { Identity } from '#src/core/identity.ts';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import type { Loaders } from './loaders.ts';

/** What every resolver receives (types only, so areas import it without importing the plugin). */
declare module 'mercurius' {
  interface MercuriusContext {
    request: FastifyRequest;
    db: Db;
    identity: Identity;
    community: Community;
    guardian: Guardian;
    loaders: Loaders;
  }
}

export type GraphQLContext = MercuriusContext;
