/**
 * The dependency rules CI holds (`npm run deps`, after the type check in .ci/run). The layers and the
 * shape of an area: docs/architecture.md. Each rule says why; a breach fails the run with the import
 * that breaks it.
 *
 * Type-only imports count everywhere (tsPreCompilationDeps), except where a rule says otherwise.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only ones included: each file stands above all it imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'layers-below-areas',
      severity: 'error',
      comment: 'src/core, src/lib and src/db are below every area: they import no area, view or island.',
      from: { path: '^src/(core|lib|db)/' },
      to: { path: '^(src/features/|views/|islands/)' },
    },
    {
      name: 'areas-through-their-face',
      severity: 'error',
      comment:
        "An area uses another area only through its public face, src/features/<area>/index.ts. " +
        '(src/features/areas.ts, the registry, and src/features/area.ts, the shared types, are outside every area.)',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.tsx?$'] },
    },
    {
      name: 'plugins-through-faces',
      severity: 'error',
      comment: 'The plugins and the app use an area through its face too (the app also names the registry and the GraphQL plugin).',
      from: { path: '^src/(plugins/|app\\.ts$)' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/[^/]+/index\\.tsx?$', '^src/features/graphql/plugin\\.ts$'] },
    },
    {
      name: 'registry-only-from-graphql',
      severity: 'error',
      comment: 'An area does not import the registry (src/features/areas.ts), which imports every area; the GraphQL schema may, to gather the parts.',
      from: { path: '^src/features/[^/]+/', pathNot: '^src/features/graphql/' },
      to: { path: '^src/features/areas\\.ts$' },
    },
    {
      name: 'register-only-from-the-registry',
      severity: 'error',
      comment: "An area's register.ts is imported by the registry (src/features/areas.ts) alone.",
      from: { pathNot: '^src/features/areas\\.ts$' },
      to: { path: '^src/features/[^/]+/register\\.tsx?$' },
    },
    {
      name: 'views-take-only-types-from-src',
      severity: 'error',
      comment: 'views/ and islands/ take only types from src/: the values they show come from the routes, not from services.',
      from: { path: '^(views|islands)/' },
      to: { path: '^src/', dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'area-views-take-only-types',
      severity: 'error',
      comment: "An area's views (src/features/<area>/views/) take only types from src/ outside their own folder: the routes hand them plain data.",
      from: { path: '^src/features/([^/]+)/views/' },
      to: { path: '^src/', pathNot: ['^src/features/$1/views/'], dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'shared/ holds what the server, the views and the browser all use (formats, password rules, asset paths): it imports nothing of ours.',
      from: { path: '^shared/' },
      to: { path: '^(src|views|islands|scripts|test)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing package (and would hide a breach).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|static|\\.cache)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
