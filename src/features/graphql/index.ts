/** The GraphQL endpoint's public face: the shared `me` resolver (the app registers plugin.ts itself). */
export { me } from './me.ts';
