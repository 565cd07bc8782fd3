import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  BadSignatureError,
  addressFromPrivateKey,
  addressFromPublicKey,
  personalMessageHash,
  privateKeyBytes,
  randomPrivateKey,
  recoverPersonalMessageSigner,
  signPersonalMessage,
} from '../../api/auth/ethereum';

// The key and values of web3.js' `eth.accounts` documentation, reproduced by every Ethereum library.
const KNOWN_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const KNOWN_ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const SOME_DATA_SIGNATURE =
  'b91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd' +
  '6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a029' +
  '1c';

describe('Ethereum identities', () => {
  test('the address of a known private key', () => {
    assert.equal(addressFromPrivateKey(KNOWN_KEY), KNOWN_ADDRESS);
    assert.equal(addressFromPrivateKey(hexToBytes(KNOWN_KEY.slice(2))), KNOWN_ADDRESS);
  });

  test('EIP-191 hash of "hello" is the well-known value', () => {
    assert.equal(
      bytesToHex(personalMessageHash('hello')),
      '50b2c43fd39106bafbba0da34fc430e1f91e3c96ea2acee2bc34119f92b37750',
    );
  });

  test('EIP-191 length prefix counts UTF-8 bytes, not characters', () => {
    assert.deepEqual(personalMessageHash('é'), personalMessageHash(new Uint8Array([0xc3, 0xa9])));
    assert.notDeepEqual(personalMessageHash('é'), personalMessageHash(new Uint8Array([0xe9])));
  });

  test('signs exactly like web3.js accounts.sign("Some data") and recovers the signer', () => {
    const signature = signPersonalMessage('Some data', KNOWN_KEY);
    assert.equal(bytesToHex(signature), SOME_DATA_SIGNATURE);
    assert.equal(recoverPersonalMessageSigner('Some data', signature), KNOWN_ADDRESS);
  });

  test('accepts v as 0/1 as well as 27/28', () => {
    const signature = signPersonalMessage('Some data', KNOWN_KEY);
    signature[64] = (signature[64] ?? 0) - 27;
    assert.equal(recoverPersonalMessageSigner('Some data', signature), KNOWN_ADDRESS);
  });

  test('another message recovers another address', () => {
    const signature = signPersonalMessage('Some data', KNOWN_KEY);
    assert.notEqual(recoverPersonalMessageSigner('Some datA', signature), KNOWN_ADDRESS);
  });

  test('refuses a wrong length, a bad v and a high-s (malleated) signature', () => {
    const signature = signPersonalMessage('Some data', KNOWN_KEY);
    assert.throws(
      () => recoverPersonalMessageSigner('Some data', signature.subarray(0, 64)),
      BadSignatureError,
    );
    const badV = Uint8Array.from(signature);
    badV[64] = 29;
    assert.throws(() => recoverPersonalMessageSigner('Some data', badV), /invalid recovery byte v=29/);

    // (r, n - s) with the other recovery bit is the same signature, malleated: recovery would succeed.
    const sig = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact');
    const highS = new secp256k1.Signature(sig.r, secp256k1.Point.CURVE().n - sig.s).toBytes('compact');
    const malleated = Uint8Array.from([...highS, 27 + 28 - (signature[64] ?? 27)]);
    assert.throws(() => recoverPersonalMessageSigner('Some data', malleated), /lower half/);
  });

  test('signs, recovers and derives addresses byte for byte as @noble/curves does (RFC 6979, low-s)', () => {
    for (let i = 0; i < 40; i++) {
      const key = randomPrivateKey();
      const message = `message ${i} ${key}`;
      const hash = personalMessageHash(message);
      const noble = secp256k1.sign(hash, privateKeyBytes(key), { prehash: false, format: 'recovered' });
      const ethereumLayout = Uint8Array.from([...noble.subarray(1), 27 + (noble[0] ?? 0)]);
      const signature = signPersonalMessage(message, key);
      assert.equal(bytesToHex(signature), bytesToHex(ethereumLayout));
      const nobleSigner = secp256k1.Signature.fromBytes(noble.subarray(1), 'compact')
        .addRecoveryBit(noble[0] ?? 0)
        .recoverPublicKey(hash)
        .toBytes(false);
      assert.equal(recoverPersonalMessageSigner(message, signature), addressFromPublicKey(nobleSigner));
      assert.equal(recoverPersonalMessageSigner(message, signature), addressFromPrivateKey(key));
      assert.equal(
        addressFromPrivateKey(key),
        addressFromPublicKey(secp256k1.getPublicKey(privateKeyBytes(key))),
      );
    }
  });

  test('refuses an r that is no point’s x, and r or s of zero or past the curve order', () => {
    const hex = (n: bigint) => n.toString(16).padStart(64, '0');
    const signatureOf = (r: bigint, s: bigint) => hexToBytes(`${hex(r)}${hex(s)}1b`);
    // 5 is the smallest x with no point on the curve (x³ + 7 is no square mod p).
    assert.throws(() => secp256k1.Point.fromHex(`02${hex(5n)}`));
    const order = secp256k1.Point.CURVE().n;
    for (const [r, s] of [
      [5n, 1n],
      [0n, 1n],
      [1n, 0n],
      [order, 1n],
    ] as const) {
      assert.throws(
        () => recoverPersonalMessageSigner('Some data', signatureOf(r, s)),
        (err: unknown) => err instanceof BadSignatureError && /cannot recover a public key/.test(err.message),
      );
    }
  });

  test('random keys are valid and distinct; bad private keys are refused by name', () => {
    const a = randomPrivateKey();
    const b = randomPrivateKey();
    assert.match(a, /^0x[0-9a-f]{64}$/);
    assert.notEqual(a, b);
    assert.match(addressFromPrivateKey(a), /^0x[0-9a-f]{40}$/);
    assert.throws(() => privateKeyBytes('0x1234'), /privateKey must be 32 bytes/);
    assert.throws(() => privateKeyBytes('00'.repeat(32)), /privateKey is not a valid secp256k1 secret key/);
  });
});
