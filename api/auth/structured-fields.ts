// The subset of RFC 8941 Structured Field Values that HTTP Message Signatures need: dictionaries
// whose members are items or inner lists, with integer, string, token, byte-sequence and boolean
// values. Decimals are refused. Strict where the RFC lets a parser be lenient (duplicate keys).

export type BareItem =
  | { type: 'integer'; value: number }
  | { type: 'string'; value: string }
  | { type: 'token'; value: string }
  | { type: 'bytes'; value: Uint8Array }
  | { type: 'boolean'; value: boolean };

export type Parameters = Array<[key: string, value: BareItem]>;
export interface Item {
  kind: 'item';
  value: BareItem;
  params: Parameters;
}
export interface InnerList {
  kind: 'innerList';
  items: Item[];
  params: Parameters;
}
export type Dictionary = Map<string, Item | InnerList>;

export class StructuredFieldError extends Error {
  override readonly name = 'StructuredFieldError';
}

const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TOKEN_START = /[A-Za-z*]/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

class Parser {
  private pos = 0;
  constructor(private readonly input: string) {}

  private peek(): string | undefined {
    return this.input[this.pos];
  }
  private fail(what: string): never {
    throw new StructuredFieldError(`${what} at offset ${this.pos}`);
  }
  private skip(chars: RegExp): void {
    while (this.pos < this.input.length && chars.test(this.input[this.pos] ?? '')) this.pos++;
  }
  private expect(char: string): void {
    if (this.peek() !== char) this.fail(`expected '${char}'`);
    this.pos++;
  }

  dictionary(): Dictionary {
    const dict: Dictionary = new Map();
    this.skip(/ /);
    while (this.pos < this.input.length) {
      const key = this.key();
      if (dict.has(key)) this.fail(`duplicate key '${key}'`);
      if (this.peek() === '=') {
        this.pos++;
        dict.set(key, this.peek() === '(' ? this.innerList() : this.item());
      } else {
        dict.set(key, { kind: 'item', value: { type: 'boolean', value: true }, params: this.parameters() });
      }
      this.skip(/[ \t]/);
      if (this.pos >= this.input.length) return dict;
      this.expect(',');
      this.skip(/[ \t]/);
      if (this.pos >= this.input.length) this.fail('trailing comma');
    }
    return dict;
  }

  private key(): string {
    const start = this.pos;
    if (!KEY_START.test(this.peek() ?? '')) this.fail('expected a key');
    this.pos++;
    this.skip(KEY_CHAR);
    return this.input.slice(start, this.pos);
  }

  private innerList(): InnerList {
    this.expect('(');
    const items: Item[] = [];
    for (;;) {
      this.skip(/ /);
      if (this.peek() === ')') {
        this.pos++;
        return { kind: 'innerList', items, params: this.parameters() };
      }
      items.push(this.item());
      const next = this.peek();
      if (next !== ' ' && next !== ')') this.fail("expected ' ' or ')' in inner list");
    }
  }

  private item(): Item {
    return { kind: 'item', value: this.bareItem(), params: this.parameters() };
  }

  private parameters(): Parameters {
    const params: Parameters = [];
    while (this.peek() === ';') {
      this.pos++;
      this.skip(/ /);
      const key = this.key();
      if (params.some(([k]) => k === key)) this.fail(`duplicate parameter '${key}'`);
      let value: BareItem = { type: 'boolean', value: true };
      if (this.peek() === '=') {
        this.pos++;
        value = this.bareItem();
      }
      params.push([key, value]);
    }
    return params;
  }

  private bareItem(): BareItem {
    const c = this.peek() ?? '';
    if (c === '-' || /[0-9]/.test(c)) return this.integer();
    if (c === '"') return this.string();
    if (c === ':') return this.bytes();
    if (c === '?') return this.boolean();
    if (TOKEN_START.test(c)) return this.token();
    return this.fail('expected a value');
  }

  private integer(): BareItem {
    const match = /^-?[0-9]{1,15}/.exec(this.input.slice(this.pos));
    if (!match) return this.fail('expected an integer');
    this.pos += match[0].length;
    if (this.peek() === '.') this.fail('decimals are not supported');
    return { type: 'integer', value: Number(match[0]) };
  }

  private string(): BareItem {
    this.expect('"');
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('unterminated string');
      this.pos++;
      if (c === '"') return { type: 'string', value: out };
      if (c === '\\') {
        const escaped = this.peek();
        if (escaped !== '"' && escaped !== '\\') this.fail('bad escape in string');
        this.pos++;
        out += escaped;
        continue;
      }
      const code = c.charCodeAt(0);
      if (code < 0x20 || code > 0x7e) this.fail('non-printable character in string');
      out += c;
    }
  }

  private bytes(): BareItem {
    this.expect(':');
    const end = this.input.indexOf(':', this.pos);
    if (end < 0) this.fail('unterminated byte sequence');
    const b64 = this.input.slice(this.pos, end);
    if (!BASE64.test(b64)) this.fail('invalid base64 in byte sequence');
    this.pos = end + 1;
    return { type: 'bytes', value: new Uint8Array(Buffer.from(b64, 'base64')) };
  }

  private boolean(): BareItem {
    this.expect('?');
    const c = this.peek();
    if (c !== '0' && c !== '1') this.fail('expected ?0 or ?1');
    this.pos++;
    return { type: 'boolean', value: c === '1' };
  }

  private token(): BareItem {
    const start = this.pos;
    this.pos++;
    this.skip(TOKEN_CHAR);
    return { type: 'token', value: this.input.slice(start, this.pos) };
  }
}

/** Parses a Dictionary header value (RFC 8941 §4.2.2); throws StructuredFieldError. */
export function parseDictionary(input: string): Dictionary {
  return new Parser(input.replace(/^ +| +$/g, '')).dictionary();
}

export function serializeString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new StructuredFieldError('string holds a non-printable character');
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function serializeBytes(value: Uint8Array): string {
  return `:${Buffer.from(value).toString('base64')}:`;
}

function serializeBareItem(value: BareItem): string {
  switch (value.type) {
    case 'integer':
      if (!Number.isSafeInteger(value.value) || Math.abs(value.value) > 999_999_999_999_999) {
        throw new StructuredFieldError('integer out of range');
      }
      return String(value.value);
    case 'string':
      return serializeString(value.value);
    case 'token':
      return value.value;
    case 'bytes':
      return serializeBytes(value.value);
    case 'boolean':
      return value.value ? '?1' : '?0';
  }
}

function serializeParameters(params: Parameters): string {
  return params
    .map(([key, value]) =>
      value.type === 'boolean' && value.value ? `;${key}` : `;${key}=${serializeBareItem(value)}`,
    )
    .join('');
}

function serializeItem(item: Item): string {
  return serializeBareItem(item.value) + serializeParameters(item.params);
}

/** Serializes an inner list (RFC 8941 §4.1.1.1), as used for `@signature-params`. */
export function serializeInnerList(list: InnerList): string {
  return `(${list.items.map(serializeItem).join(' ')})${serializeParameters(list.params)}`;
}
