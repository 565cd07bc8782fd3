import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDictionary, serializeInnerList } from '../../api/auth/structured-fields';
import type { InnerList } from '../../api/auth/structured-fields';

describe('structured fields (RFC 8941 subset)', () => {
  test('parses a Signature-Input dictionary and re-serializes the member exactly', () => {
    const member = 'sig1=("@method" "@path");created=1700000000;expires=1700000060;nonce="abc";keyid="0x12"';
    const dict = parseDictionary(member);
    const list = dict.get('sig1') as InnerList;
    assert.equal(list.kind, 'innerList');
    assert.deepEqual(
      list.items.map((i) => i.value),
      [
        { type: 'string', value: '@method' },
        { type: 'string', value: '@path' },
      ],
    );
    assert.equal(serializeInnerList(list), member.slice('sig1='.length));
  });

  test('canonicalizes spacing and keeps parameter order', () => {
    const list = parseDictionary('sig1=(  "a"   "b" );keyid="k";created=1 ,  other=:AAE=:').get(
      'sig1',
    ) as InnerList;
    assert.equal(serializeInnerList(list), '("a" "b");keyid="k";created=1');
  });

  test('parses byte sequences, tokens, booleans, escapes', () => {
    const dict = parseDictionary('a=:AQID:, b=tok/en, c, d=?0, e="q\\"uo\\\\te"');
    assert.deepEqual(dict.get('a'), {
      kind: 'item',
      value: { type: 'bytes', value: Uint8Array.of(1, 2, 3) },
      params: [],
    });
    assert.deepEqual(dict.get('b'), { kind: 'item', value: { type: 'token', value: 'tok/en' }, params: [] });
    assert.deepEqual(dict.get('c'), { kind: 'item', value: { type: 'boolean', value: true }, params: [] });
    assert.deepEqual(dict.get('d'), { kind: 'item', value: { type: 'boolean', value: false }, params: [] });
    assert.deepEqual(dict.get('e'), {
      kind: 'item',
      value: { type: 'string', value: 'q"uo\\te' },
      params: [],
    });
  });

  for (const bad of [
    'sig1=("a"',
    'sig1=("a")x',
    'sig1=1, sig1=2',
    'sig1=1,',
    'Sig1=1',
    'sig1=1.5',
    'sig1=:not base64!:',
    'sig1="unterminated',
    'sig1=("a");k=1;k=2',
    'sig1="bad \\n escape"',
  ]) {
    test(`refuses ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parseDictionary(bad), { name: 'StructuredFieldError' });
    });
  }
});
