// One webhook POST in the Standard Webhooks format, signed with the `standardwebhooks` library. The
// connection goes to an address checked by ./target.ts (the request's own DNS lookup is
// replaced by the checked one), redirects are not followed, and the answer must be 2xx.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { parseWebhookUrl, resolveTarget, systemResolve, type Resolve } from './target';
import { WebhookDeliveryFailed, webhookErrorCode } from './errors';

export interface WebhookMessage {
  /** `webhook-id`: the feed entry's id, the receiver's deduplication key. */
  id: string;
  timestamp: Date;
  payload: string;
}

export { WebhookDeliveryFailed } from './errors';

/** The three Standard Webhooks headers for `message`, signed with `secret` (`whsec_…`). */
export function signedHeaders(secret: string, message: WebhookMessage): Record<string, string> {
  const seconds = Math.floor(message.timestamp.getTime() / 1000);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': new Webhook(secret).sign(message.id, new Date(seconds * 1000), message.payload),
  };
}

export async function postWebhook(
  target: string,
  secret: string,
  message: WebhookMessage,
  options: {
    allowPrivate: boolean;
    timeoutMs?: number;
    resolve?: Resolve;
    /** Called with the checked address before connecting; throws to send nothing (e.g. the host's rate). */
    beforeConnect?: (address: string) => Promise<void>;
  },
): Promise<number> {
  const url = parseWebhookUrl(target, options.allowPrivate);
  const [checked] = await resolveTarget(url.hostname, options.allowPrivate, options.resolve ?? systemResolve);
  await options.beforeConnect?.(checked!.address);
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [checked!]);
    else callback(null, checked!.address, checked!.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        lookup,
        timeout: options.timeoutMs ?? 10_000,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'OpenContract-Webhooks/1',
          ...signedHeaders(secret, message),
        },
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(status);
        else reject(new WebhookDeliveryFailed(`http_${status}`));
      },
    );
    req.on('timeout', () => req.destroy(new WebhookDeliveryFailed('timeout')));
    req.on('error', (err) => reject(new WebhookDeliveryFailed(webhookErrorCode(err))));
    req.end(message.payload);
  });
}
