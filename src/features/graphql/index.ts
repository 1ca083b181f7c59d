/** The GraphQL endpoint's public face: the plugin the app registers, and the shared `me` resolver. */
export { me } from './me.ts';
export { default as graphqlPlugin } from './plugin.ts';
