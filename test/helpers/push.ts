import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import webpush from 'web-push';

/** One request a fake push server received. */
export type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer };

type Answer = (r: Received) => { status: number; body?: string } | Promise<{ status: number; body?: string }>;

async function listen(t: Test, server: ReturnType<typeof createHttpServer>, answer: { current: Answer }, received: Received[]) {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      const a = await answer.current(r);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** A local fake mobile push provider (plain HTTP on port 0): records requests, answers as told. */
export async function fakePushServer(t: Test, initial: Answer = () => ({ status: 200, body: '{"name":"ok"}' })) {
  const received: Received[] = [];
  const answer = { current: initial };
  const port = await listen(t, createHttpServer(), answer, received);
  return { url: `http://127.0.0.1:${port}/send`, received, answer: (a: Answer) => void (answer.current = a) };
}

/**
 * A local fake Web Push service: HTTPS (web-push only speaks https) with a self-signed certificate
 * made for 127.0.0.1 by openssl in a temporary folder, and the agent that trusts it.
 */
export async function fakeWebPushService(t: Test, initial: Answer = () => ({ status: 201 })) {
  const dir = mkdtempSync(path.join(tmpdir(), 'push-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const tls = { key: readFileSync(key), cert: readFileSync(cert) };
  rmSync(dir, { recursive: true, force: true });
  const received: Received[] = [];
  const answer = { current: initial };
  const port = await listen(t, createHttpsServer(tls) as unknown as ReturnType<typeof createHttpServer>, answer, received);
  const agent = new Agent({ ca: tls.cert });
  t.teardown(() => agent.destroy());
  return { origin: `https://127.0.0.1:${port}`, received, agent, answer: (a: Answer) => void (answer.current = a) };
}

/** A browser's subscription keys: a real P-256 public key (p256dh) and a 16-byte auth secret. */
export function browserKeys(): { p256dh: string; auth: string } {
  const { publicKey } = webpush.generateVAPIDKeys(); // an uncompressed P-256 point, base64url: what browsers send
  return { p256dh: publicKey, auth: Buffer.from(Array.from({ length: 16 }, (_, i) => i * 7)).toString('base64url') };
}
