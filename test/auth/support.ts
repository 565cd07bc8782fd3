// Shared by the auth and idempotency tests: a temporary directory and signed-request builders.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { SignRequestInput } from '../../sdk/typescript/signer';
import { signRequest } from '../../sdk/typescript/signer';

export const ALICE_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
export const ALICE = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
export const BOB_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123';

/** 2023-11-14T22:13:20Z, a whole second, so `created` is exact. */
export const NOW = 1_700_000_000_000;

/** A fresh directory under the OS temp dir, removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `oc-${prefix}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let counter = 0;
/** A distinct, valid nonce per call, deterministic across runs. */
export function nextNonce(): string {
  counter += 1;
  return `test-nonce-${String(counter).padStart(8, '0')}`;
}

export type SignedInit = { method: string; headers: Record<string, string>; body?: string };

/** RequestInit for `app.request(url, init)` signed by `privateKey` (Alice by default) at NOW. */
export function signed(
  method: string,
  url: string,
  options: Partial<Omit<SignRequestInput, 'method' | 'url'>> & {
    body?: string;
    headers?: Record<string, string>;
  } = {},
): SignedInit {
  const { headers = {}, ...signing } = options;
  const signature = signRequest({
    privateKey: ALICE_KEY,
    now: NOW,
    nonce: nextNonce(),
    ...signing,
    method,
    url,
  });
  return {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...signature,
      ...headers,
    } as Record<string, string>,
    ...(options.body === undefined ? {} : { body: options.body }),
  };
}
