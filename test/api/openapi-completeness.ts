// What a generator needs from /openapi.json, checked over the whole document: every operation says
// who may call it, a signed one declares the headers its signature middleware reads and the refusals
// it answers, and every parameter and every property of every body and answer has a description
// and an example. Returns one line per gap, so a new route that skips any of it is named.
type Node = Record<string, unknown>;

interface Operation {
  security?: Node[];
  'x-signature'?: 'required' | 'optional';
  parameters?: Node[];
  requestBody?: { content?: Record<string, { schema?: Node }> };
  responses: Record<string, { content?: Record<string, { schema?: Node }> }>;
}

export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Node> };
}

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

function resolve(node: Node, doc: Document): Node {
  const ref = node.$ref;
  return typeof ref === 'string' ? (doc.components.schemas[ref.split('/').pop()!] ?? {}) : node;
}

/** The schema without its null branch: `anyOf [X, null]` is X for what it must describe. */
function nonNull(node: Node, doc: Document): Node {
  const members = (node.anyOf ?? node.oneOf) as Node[] | undefined;
  if (members?.length === 2 && members.some((m) => m.type === 'null')) {
    return resolve(
      members.find((m) => m.type !== 'null')!,
      doc,
    );
  }
  return resolve(node, doc);
}

const isStructured = (node: Node) =>
  node.type === 'object' ||
  node.properties !== undefined ||
  node.anyOf !== undefined ||
  node.oneOf !== undefined;

function has(node: Node, target: Node, key: 'description' | 'example'): boolean {
  const keys = key === 'example' ? ['example', 'examples', 'const'] : [key];
  return keys.some((k) => node[k] !== undefined || target[k] !== undefined);
}

function walkSchema(node: Node, doc: Document, where: string, gaps: string[], seen: Set<Node>): void {
  const target = resolve(node, doc);
  if (seen.has(target)) return;
  seen.add(target);
  for (const [name, raw] of Object.entries((target.properties ?? {}) as Record<string, Node>)) {
    const prop = nonNull(raw, doc);
    const at = `${where}.${name}`;
    if (!has(raw, prop, 'description')) gaps.push(`${at}: no description`);
    const items = prop.type === 'array' && prop.items ? nonNull(prop.items as Node, doc) : undefined;
    const structured = isStructured(prop) || (items !== undefined && isStructured(items));
    if (!structured && !has(raw, prop, 'example')) gaps.push(`${at}: no example`);
    walkSchema(raw, doc, at, gaps, seen);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, member] of ((target[key] ?? []) as Node[]).entries()) {
      walkSchema(member, doc, `${where}|${i}`, gaps, seen);
    }
  }
  if (target.items) walkSchema(target.items as Node, doc, `${where}[]`, gaps, seen);
  if (typeof target.additionalProperties === 'object')
    walkSchema(target.additionalProperties as Node, doc, `${where}{}`, gaps, seen);
}

function headerNames(op: Operation): Map<string, boolean> {
  return new Map(
    (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => [String(p.name), p.required === true]),
  );
}

function accessGaps(method: string, op: Operation, at: string): string[] {
  const gaps: string[] = [];
  const signature = op['x-signature'];
  const operator = op.security?.some((s) => 'operatorToken' in s) === true;
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  if (signature === undefined && !operator && !isPublic) {
    return [`${at}: says neither x-signature, operatorToken nor security: [] (use accessRoute)`];
  }
  const statuses = Object.keys(op.responses);
  if (!statuses.includes('429')) gaps.push(`${at}: no 429 answer`);
  if ((signature !== undefined || operator) && !statuses.includes('401')) gaps.push(`${at}: no 401 answer`);
  if (signature === undefined) return gaps;
  const headers = headerNames(op);
  for (const name of ['Signature-Input', 'Signature']) {
    if (!headers.has(name)) gaps.push(`${at}: no ${name} header`);
    else if (headers.get(name) !== (signature === 'required')) gaps.push(`${at}: ${name} required wrongly`);
  }
  if (op.requestBody !== undefined && !headers.has('Content-Digest'))
    gaps.push(`${at}: no Content-Digest header`);
  if (MUTATING.has(method) && !headers.has('Idempotency-Key')) gaps.push(`${at}: no Idempotency-Key header`);
  return gaps;
}

export function completenessGaps(doc: Document): string[] {
  const gaps: string[] = [];
  const seen = new Set<Node>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const at = `${method.toUpperCase()} ${path}`;
      gaps.push(...accessGaps(method, op, at));
      for (const p of op.parameters ?? []) {
        const schema = (p.schema ?? {}) as Node;
        if (p.description === undefined && schema.description === undefined)
          gaps.push(`${at} ${String(p.in)} ${String(p.name)}: no description`);
        if (!has(p, schema, 'example')) gaps.push(`${at} ${String(p.in)} ${String(p.name)}: no example`);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) walkSchema(body, doc, `${at} body`, gaps, seen);
      for (const [status, answer] of Object.entries(op.responses)) {
        const schema = answer.content?.['application/json']?.schema;
        if (Number(status) >= 400 && Number(status) < 500 && schema?.$ref !== '#/components/schemas/Error')
          gaps.push(`${at} ${status}: not the Error shape`);
        if (schema) walkSchema(schema, doc, `${at} ${status}`, gaps, seen);
      }
    }
  }
  return gaps;
}
