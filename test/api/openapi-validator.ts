// Validates real answers against the response schemas that GET /openapi.json publishes. The document
// is OpenAPI 3.1, whose schemas are JSON Schema (3.0's `nullable` still handled); each one is turned into JSON Schema for ajv:
// `$ref` inlined, `nullable` as a union with null, `allOf` of objects merged, and every object with
// declared properties closed (`additionalProperties: false`), so an undeclared field is refused.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

function isObjectSchema(s: Schema): boolean {
  return s.type === 'object' || s.properties !== undefined;
}

/** `allOf` of object schemas as one object: the properties and requirements of all of them. */
function mergeObjects(members: Schema[]): Schema {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  for (const m of members) {
    Object.assign(properties, m.properties);
    for (const r of (m.required as string[] | undefined) ?? []) required.add(r);
  }
  return { type: 'object', properties, required: [...required] };
}

export function toJsonSchema(node: Schema, components: Record<string, Schema>, depth = 0): Schema {
  if (depth > 50) throw new Error('schema too deep (a recursive $ref?)');
  const convert = (n: Schema) => toJsonSchema(n, components, depth + 1);
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (target === undefined) throw new Error(`unresolved ${node.$ref}`);
    return convert(target);
  }
  const { nullable, allOf, ...rest } = node;
  if (nullable === true) {
    const inner = convert({ ...rest, ...(allOf === undefined ? {} : { allOf }) });
    return Object.keys(inner).length === 0 ? {} : { anyOf: [inner, { type: 'null' }] };
  }
  if (Array.isArray(allOf)) {
    const members = (allOf as Schema[]).map(convert);
    const merged = members.every(isObjectSchema) ? mergeObjects(members) : { allOf: members };
    return convert({ ...rest, ...merged });
  }
  const out: Schema = { ...rest };
  delete out.example;
  if (rest.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(rest.properties as Record<string, Schema>).map(([k, v]) => [k, convert(v)]),
    );
    out.additionalProperties ??= false;
  }
  if (typeof rest.additionalProperties === 'object')
    out.additionalProperties = convert(rest.additionalProperties as Schema);
  if (rest.items !== undefined) out.items = convert(rest.items as Schema);
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(rest[key])) out[key] = (rest[key] as Schema[]).map(convert);
  return out;
}

/** One compiled validator per documented (path, method, status) with a JSON body. */
export function responseValidators(document: OpenApiDocument) {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  const cache = new Map<string, ValidateFunction>();
  return {
    /** The validator of that answer, or undefined when the document declares no JSON body for it. */
    for(path: string, method: string, status: number): ValidateFunction | undefined {
      const key = `${method} ${path} ${status}`;
      if (!cache.has(key)) {
        const schema =
          document.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
        if (schema === undefined) return undefined;
        cache.set(key, ajv.compile(toJsonSchema(schema, document.components.schemas)));
      }
      return cache.get(key);
    },
    errorsText: (v: ValidateFunction) =>
      (v.errors ?? [])
        .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)
        .join('\n'),
  };
}

/** The documented path template (`/contracts/{id}/votes`) a concrete path belongs to. */
export function templateOf(document: OpenApiDocument, path: string): string | undefined {
  const bare = path.split('?')[0]!;
  const matching = Object.keys(document.paths).filter((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
  // A literal segment beats a parameter (`/operator/payouts` before `/operator/{x}`).
  return matching.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}
