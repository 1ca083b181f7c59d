/**
 * An area's part of a GraphQL schema: SDL that extends Query and Mutation (and may extend shared
 * types such as Me), and resolvers keyed by type name, merged field by field across areas. A module
 * of its own (types only), so that an area's GraphQL file and the list of areas do not import each
 * other.
 */
export type GraphQLPart = { typeDefs: string; resolvers: Record<string, Record<string, unknown>> };
