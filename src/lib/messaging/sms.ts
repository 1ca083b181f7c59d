import type { Outbox } from './mail.ts';

export type OutgoingSms = { to: string; body: string };

export interface SmsSender {
  send(sms: OutgoingSms): Promise<void>;
}

export class SmsDeliveryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsDeliveryError';
  }
}

/** The local SMS outbox: messages kept in memory and as .txt files beside the mail. */
export class OutboxSms implements SmsSender {
  private counter = 0;
  constructor(private readonly outbox: Outbox) {}
  async send(sms: OutgoingSms): Promise<void> {
    const id = `${Date.now().toString(36)}${(this.counter++).toString(36)}`;
    await this.outbox.keep({ id, channel: 'sms', to: sms.to, text: sms.body, at: new Date() }, `To: ${sms.to}\n\n${sms.body}\n`, 'txt');
  }
}

/**
 * A hosted SMS provider with the widely used Twilio-style REST API: POST a form (To, From, Body) to
 * `{base}/2010-04-01/Accounts/{sid}/Messages.json` with HTTP basic auth; 201 on success.
 */
export class HttpSmsSender implements SmsSender {
  constructor(
    private readonly options: { baseUrl: string; accountSid: string; authToken: string; from: string; timeoutMs?: number },
  ) {}

  async send(sms: OutgoingSms): Promise<void> {
    const { baseUrl, accountSid, authToken, from, timeoutMs = 10_000 } = this.options;
    const url = `${baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: sms.to, From: from, Body: sms.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new SmsDeliveryError(`SMS provider unreachable: ${(e as Error).message}`);
    }
    if (res.status !== 201 && res.status !== 200) {
      const detail = await res.text().catch(() => '');
      throw new SmsDeliveryError(`SMS provider answered ${res.status}: ${detail.slice(0, 200)}`, res.status);
    }
  }
}
