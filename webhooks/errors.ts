// What a failed webhook delivery reports (the subscription's `lastError`, the activity's failure): one
// word of a fixed vocabulary, never the receiver's answer, an address or a system message, so a
// subscription cannot be used to probe the service's network (which internal hosts exist, what
// they answer). The agent's own receiver logs say the rest.
import { WebhookTargetRefused } from './target';

export type WebhookErrorCode =
  | 'invalid_url'
  | 'dns'
  | 'private_target'
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'unreachable'
  | 'tls'
  | `http_${number}`
  | 'network';

export const WEBHOOK_ERROR_CODES = [
  'invalid_url',
  'dns',
  'private_target',
  'timeout',
  'refused',
  'reset',
  'unreachable',
  'tls',
  'http_<status>',
  'network',
] as const;

/** A failure the post itself raised: its code is already in the vocabulary. */
export class WebhookDeliveryFailed extends Error {
  constructor(readonly code: WebhookErrorCode) {
    super(code);
    this.name = 'WebhookDeliveryFailed';
  }
}

const BY_SYSTEM_CODE: Record<string, WebhookErrorCode> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
};

/** The vocabulary word for any error a delivery attempt threw. */
export function webhookErrorCode(error: unknown): WebhookErrorCode {
  if (error instanceof WebhookDeliveryFailed) return error.code;
  if (error instanceof WebhookTargetRefused) return error.code;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code in BY_SYSTEM_CODE) return BY_SYSTEM_CODE[code]!;
  if (/^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_OSSL)/.test(code))
    return 'tls';
  return 'network';
}
