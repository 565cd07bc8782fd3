import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  BadSignatureError,
  addressFromPrivateKey,
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
