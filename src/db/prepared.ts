import type pg from 'pg';

/**
 * Named prepared statements for the PostgreSQL pool (decision 0034).
 *
 * Kysely sends every query as an unnamed statement, so PostgreSQL parses and plans it again on every
 * request: on the forum's post page that was about 85 % of the server's time for the page's SQL
 * (parse and bind 2.6 ms, execution 0.3 ms). A query with parameters is sent instead under a name
 * that stands for its text on that connection: PostgreSQL parses it once per connection, and after
 * five executions keeps a generic plan when that costs no more than planning each time (its
 * `plan_cache_mode = auto`). Parameterless SQL (migrations, several statements at once) stays on
 * the simple protocol, unnamed.
 *
 * Bounded: at most MAX_PER_CONNECTION texts are named per connection (first come; later texts run
 * unnamed, as before), so the server's memory for plans stays bounded whatever SQL the app builds. A
 * connection the server closes takes its statements with it; the pool opens a new one with none.
 *
 * A table changed under a prepared statement (a deploy's migration while another process runs) can
 * make PostgreSQL refuse it ("cached plan must not change result type", SQLSTATE 0A000): the
 * connection then starts a new generation of names and the query is sent once more (outside a
 * transaction it succeeds; inside one, the transaction is already aborted and fails as it would
 * have).
 */
export const MAX_PER_CONNECTION = 256;

type Names = { generation: number; byText: Map<string, string> };

const PLAN_CHANGED = '0A000';

function nameFor(names: Names, text: string): string | null {
  const known = names.byText.get(text);
  if (known) return known;
  if (names.byText.size >= MAX_PER_CONNECTION) return null;
  const name = `k${names.generation}_${names.byText.size}`;
  names.byText.set(text, name);
  return name;
}

/** Makes each client the pool opens send parameterised queries as named prepared statements. */
export function prepareStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const names: Names = { generation: 0, byText: new Map() };
    const original = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
    const named = (text: string, values: unknown[]) => {
      const name = nameFor(names, text);
      return name ? original({ name, text, values }) : original(text, values);
    };
    const query = (config: unknown, values?: unknown, callback?: unknown): unknown => {
      if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined) {
        return original(config, values, callback);
      }
      return named(config, values).catch((err: unknown) => {
        if ((err as { code?: string }).code !== PLAN_CHANGED) throw err;
        names.generation += 1;
        names.byText.clear();
        return named(config, values);
      });
    };
    (client as unknown as { query: typeof query }).query = query;
  });
}
