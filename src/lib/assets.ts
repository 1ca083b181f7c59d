import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STATIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../static');
export const BUILD_DIR = path.join(STATIC_DIR, 'build');

export type Manifest = {
  islands: Record<string, { file: string; imports: string[] }>;
  htmx: string;
  /** The minified stylesheet under a hashed name (static/css/app.css built); absent from older builds. */
  css?: string | null;
};

/**
 * The built islands and the versioned stylesheet. In production they are read once; in development
 * they are re-read when the files change (esbuild's watch rewrites the manifest).
 */
export class Assets {
  private manifest: { value: Manifest; mtime: number } | null = null;
  private css: { href: string; mtime: number } | null = null;

  constructor(
    private readonly basePath: string,
    private readonly watch: boolean,
  ) {}

  private mtime(file: string): number {
    return this.watch ? statSync(file).mtimeMs : 0;
  }

  getManifest(): Manifest {
    const file = path.join(BUILD_DIR, 'manifest.json');
    if (!this.manifest || (this.watch && this.mtime(file) !== this.manifest.mtime)) {
      let value: Manifest;
      try {
        value = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      } catch (e) {
        throw new Error(`The island bundles are not built (${file} is missing): run "npm run build" first.`, { cause: e });
      }
      this.manifest = { value, mtime: this.mtime(file) };
    }
    return this.manifest.value;
  }

  buildUrl(file: string): string {
    return `${this.basePath}/static/build/${file}`;
  }

  /** Scripts for the given islands: their entries, and the shared chunks to preload. */
  islandScripts(names: Set<string>): { entries: string[]; preloads: string[] } {
    if (names.size === 0) return { entries: [], preloads: [] };
    const manifest = this.getManifest();
    const entries: string[] = [];
    const preloads = new Set<string>();
    for (const name of names) {
      const island = manifest.islands[name];
      if (!island) throw new Error(`Island "${name}" is not in the build manifest: run "npm run build".`);
      entries.push(this.buildUrl(island.file));
      for (const chunk of island.imports) preloads.add(this.buildUrl(chunk));
    }
    return { entries, preloads: [...preloads] };
  }

  htmxUrl(): string {
    return this.buildUrl(this.getManifest().htmx);
  }

  /**
   * The built stylesheet (hashed name, precompressed, cached for a year); without a build, the source
   * file with its hash in the query (cached for an hour).
   */
  stylesheetHref(): string {
    let built: string | null | undefined;
    try {
      built = this.getManifest().css;
    } catch {
      built = null;
    }
    if (built) return this.buildUrl(built);
    const file = path.join(STATIC_DIR, 'css', 'app.css');
    if (!this.css || (this.watch && this.mtime(file) !== this.css.mtime)) {
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 10);
      this.css = { href: `${this.basePath}/static/css/app.css?v=${hash}`, mtime: this.mtime(file) };
    }
    return this.css.href;
  }
}

/** Community-configured images (absolute URLs as they are, anything else under /static/): one home, the view kit. */
