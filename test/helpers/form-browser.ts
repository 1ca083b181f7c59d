import type { FastifyInstance } from 'fastify';

/** A browser without JavaScript: a cookie jar, form posts with the page's CSRF token. */
export class FormBrowser {
  cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '203.0.113.20',
    private readonly host?: string,
  ) {}
  get jar() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  private keep(res: { cookies: Array<{ name: string; value: string; expires?: Date; maxAge?: number }> }) {
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  async get(url: string) {
    const res = await this.app.inject({ url, remoteAddress: this.ip, headers: { accept: 'text/html', cookie: this.jar, ...(this.host ? { host: this.host } : {}) } });
    this.keep(res);
    return res;
  }
  async post(url: string, fields: Record<string, string>, from = '/login') {
    const page = await this.get(from);
    const token = /<meta name="csrf-token" content="([^"]+)"/.exec(page.body)![1]!;
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: { accept: 'text/html', cookie: this.jar, 'content-type': 'application/x-www-form-urlencoded', ...(this.host ? { host: this.host } : {}) },
      payload: new URLSearchParams({ _csrf: token, ...fields }).toString(),
    });
    this.keep(res);
    return res;
  }
}

