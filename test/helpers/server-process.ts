import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  port: number;
  base: string;
  proc: ChildProcess;
  /** What it has printed so far. */
  output: () => string;
  /** Its exit code once it exits. */
  exited: Promise<number | null>;
};

/**
 * `src/server.ts` as a process of its own, as a deployment runs it (NODE_ENV=test unless `env` says
 * otherwise), on a free port of 127.0.0.1; resolves once it listens, rejects with its output if it
 * exits or takes more than a minute.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  for (let i = 0; !output.includes('Listening on'); i++) {
    if (proc.exitCode !== null || i > 300) {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      throw new Error(`The server did not start:\n${output}`);
    }
    await sleep(200);
  }
  return { port, base: `http://127.0.0.1:${port}`, proc, output: () => output, exited };
}
