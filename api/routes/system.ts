// GET /health (Temporal connectivity) and GET /docs (a page rendered from the OpenAPI document).
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute, PUBLIC_ACCESS, SIGNING_GUIDE_PATH } from '../http/route-access';
import type { ApiContext } from '../deps';
import { healthSchema, json } from '../openapi/schemas';

export function healthApp(ctx: ApiContext) {
  const app = new OpenAPIHono();
  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/',
      summary: 'Liveness: 200 when the Temporal server answers, 503 otherwise',
      responses: {
        200: json(healthSchema, 'up'),
        503: json(healthSchema, 'the Temporal server does not answer'),
      },
    }),
    async (c) =>
      (await ctx.contracts.ping())
        ? c.json({ status: 'ok', temporal: 'up' } as const, 200)
        : c.json({ status: 'unavailable', temporal: 'down' } as const, 503),
  );
  return app;
}

const escape = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

interface OperationDoc {
  summary?: string;
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}

/** A self-contained page (no script, no CDN): every operation with its body schema and answers. */
export function docsPage(document: { info: { title: string; version: string }; paths?: object }): string {
  const paths = (document.paths ?? {}) as Record<string, Record<string, OperationDoc>>;
  const sections = Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><code>${escape(status)}</code> ${escape(r.description ?? '')}</li>`)
        .join('');
      return `<section><h2><code>${method.toUpperCase()} ${escape(path)}</code></h2>
<p>${escape(op.summary ?? '')}</p>
${body ? `<details><summary>request body</summary><pre>${escape(JSON.stringify(body, null, 2))}</pre></details>` : ''}
<ul>${responses}</ul></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.5rem;overflow:auto}section{border-top:1px solid #ddd}</style>
</head><body><h1>${escape(document.info.title)} ${escape(document.info.version)}</h1>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. Signed requests: HTTP Message Signatures (RFC 9421) over EIP-191, see the <a href="${SIGNING_GUIDE_PATH}">signing guide</a> and its <a href="${SIGNING_GUIDE_PATH}/vectors.json">test vectors</a>.</p>
${sections.join('\n')}</body></html>`;
}
