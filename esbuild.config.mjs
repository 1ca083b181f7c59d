// Bundles islands/*.tsx (one entry per island, shared chunks split out, hashed names) and the
// stylesheet static/css/app.css (minified, hashed) into static/build/, writes
// static/build/manifest.json, and copies htmx. Every .js and .css it writes gets a brotli (.br,
// quality 11) and a gzip (.gz, level 9) copy beside it, which @fastify/static serves as they are
// (`preCompressed`). `--watch` rebuilds on change.
import { build, context } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

const root = path.dirname(fileURLToPath(import.meta.url));
const islandsDir = path.join(root, 'islands');
const outdir = path.join(root, 'static', 'build');
const watch = process.argv.includes('--watch');

const islands = readdirSync(islandsDir)
  .filter((f) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(f))
  .map((f) => path.basename(f, '.tsx'));

// Each island gets a small virtual entry that hydrates its server-rendered instances with React; or,
// when the island has a `<Name>.client.ts` beside it, that enhances them without React (its default
// export is called with each instance's element and props: for islands too small to be worth React).
const virtualEntries = {
  name: 'island-entries',
  setup(b) {
    b.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice('island:'.length), namespace: 'island' }));
    b.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({
      resolveDir: islandsDir,
      loader: 'ts',
      contents: existsSync(path.join(islandsDir, `${args.path}.client.ts`))
        ? `import enhance from './${args.path}.client.ts';\nfor (const el of document.querySelectorAll(${JSON.stringify(`[data-island="${args.path}"]`)})) enhance(el, JSON.parse(el.dataset.props ?? '{}'));\n`
        : `import Component from './${args.path}.tsx';\nimport { hydrateIslands } from './hydrate.ts';\nhydrateIslands(${JSON.stringify(args.path)}, Component);\n`,
    }));
  },
};

const stylesheet = path.join(root, 'static', 'css', 'app.css');

/** Writes file.br and file.gz beside a built file, unless they are already there (hashed names never change content). */
function precompress(file) {
  if (!/\.(js|css)$/.test(file)) return;
  const body = readFileSync(file);
  if (!existsSync(`${file}.br`)) {
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
  }
  if (!existsSync(`${file}.gz`)) writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

const htmxVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/htmx.org/package.json'), 'utf8')).version;

const writeManifest = {
  name: 'manifest',
  setup(b) {
    b.onEnd((result) => {
      if (result.errors.length || !result.metafile) return;
      const manifest = { islands: {}, htmx: `vendor/htmx-${htmxVersion}.min.js`, css: null };
      for (const [file, meta] of Object.entries(result.metafile.outputs)) {
        precompress(path.join(root, file));
        if (meta.entryPoint && path.resolve(root, meta.entryPoint) === stylesheet) {
          manifest.css = path.relative(outdir, path.join(root, file));
          continue;
        }
        if (!meta.entryPoint?.startsWith('island:')) continue;
        const name = meta.entryPoint.slice('island:'.length);
        manifest.islands[name] = {
          file: path.relative(outdir, path.join(root, file)),
          imports: meta.imports.filter((i) => i.kind === 'import-statement').map((i) => path.relative(outdir, path.join(root, i.path))),
        };
      }
      mkdirSync(path.join(outdir, 'vendor'), { recursive: true });
      copyFileSync(path.join(root, 'node_modules/htmx.org/dist/htmx.min.js'), path.join(outdir, manifest.htmx));
      precompress(path.join(outdir, manifest.htmx));
      writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2));
      console.log(`islands built: ${islands.join(', ') || 'none'}`);
    });
  },
};

const options = {
  entryPoints: [...islands.map((name) => `island:${name}`), stylesheet],
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2020'],
  outdir,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  minify: true,
  sourcemap: false,
  metafile: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [virtualEntries, writeManifest],
};

rmSync(outdir, { recursive: true, force: true });
if (watch) {
  const ctx = await context(options);
  await ctx.watch();
  console.log('watching islands/ for changes');
} else {
  await build(options);
}
