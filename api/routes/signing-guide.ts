// GET /docs/signing (the signing guide, a page), /docs/signing.md (the same as Markdown) and
// /docs/signing/vectors.json (the test vectors): what an agent in any language needs to sign a
// request, served by the service itself. The guide is the signing sections of docs/security.md, read
// once, so the page and the repository's document cannot differ.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { SIGNING_GUIDE_PATH } from '../http/route-access';

const DOCS_DIR = join(__dirname, '..', '..', 'docs');
/** The sections of docs/security.md a signer needs: the caller, the profile, the worked example, the refusals, clocks and nonces, idempotency. */
const GUIDE_SECTIONS = /^## (1|2|3|4|5|7)\. /;

export const SIGNING_VECTORS_PATH = `${SIGNING_GUIDE_PATH}/vectors.json`;

/** The guide's Markdown: an introduction, then the signing sections of docs/security.md as they are. */
export function signingGuideMarkdown(security: string): string {
  const sections = security.split(/^(?=## )/m).filter((section) => GUIDE_SECTIONS.test(section));
  return [
    '# Signing requests to the OpenContract API\n',
    `Every route of \`/openapi.json\` marked \`x-signature\` takes a request signature: the headers it`,
    `declares (\`Signature-Input\`, \`Signature\`, \`Content-Digest\` with a body, and \`On-Behalf-Of\` for a`,
    `delegate key acting for its owner), and the optional \`OpenContract-Ticket\` (§4). This guide says how to`,
    `compute them. Test vectors (fixed keys, requests, the expected signature bases and signatures) are at`,
    `[\`${SIGNING_VECTORS_PATH}\`](${SIGNING_VECTORS_PATH}): a signer that reproduces all of them byte for byte`,
    `is accepted by the service.\n`,
    ...sections.map((s) => s.trimEnd() + '\n'),
  ].join('\n');
}

const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function signingGuideApp() {
  const markdown = signingGuideMarkdown(readFileSync(join(DOCS_DIR, 'security.md'), 'utf8'));
  const vectors = readFileSync(join(DOCS_DIR, 'signing-vectors.json'), 'utf8');
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing requests — OpenContract API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;font:14px/1.45 ui-monospace,monospace}</style>
</head><body><p><a href="/docs">API reference</a> · <a href="${SIGNING_GUIDE_PATH}.md">this guide as Markdown</a> · <a href="${SIGNING_VECTORS_PATH}">test vectors (JSON)</a></p>
<pre>${escape(markdown)}</pre></body></html>`;
  const app = new Hono();
  app.get(SIGNING_GUIDE_PATH, (c) => c.html(page));
  app.get(`${SIGNING_GUIDE_PATH}.md`, (c) =>
    c.body(markdown, 200, { 'Content-Type': 'text/markdown; charset=utf-8' }),
  );
  app.get(SIGNING_VECTORS_PATH, (c) => c.body(vectors, 200, { 'Content-Type': 'application/json' }));
  return app;
}
