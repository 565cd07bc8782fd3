// Ethereum-style identities: secp256k1 keys, addresses, and EIP-191 personal-message signatures
// (what `personal_sign` / ethers' `signMessage` produce), so any wallet library can sign for the API.
// Signing, recovery and public keys, the costly curve arithmetic of every signed request, run in
// libsecp256k1 compiled to WebAssembly (tiny-secp256k1, shipped inside its npm package): 3-5 times
// faster than @noble/curves' pure JavaScript, with byte-identical results (RFC 6979, low-s).
// Parsing and the malleability checks stay with @noble/curves.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as libsecp256k1 from 'tiny-secp256k1';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Address } from '../../workflows/rules/address';

export type { Address } from '../../workflows/rules/address';

/** Accepts 32 bytes, or 64 hex digits with or without `0x`; throws naming `privateKey` otherwise. */
export function privateKeyBytes(key: Uint8Array | string): Uint8Array {
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    const hex = key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key;
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('privateKey must be 32 bytes given as 64 hex digits');
    bytes = hexToBytes(hex);
  } else {
    bytes = key;
  }
  if (!secp256k1.utils.isValidSecretKey(bytes))
    throw new Error('privateKey is not a valid secp256k1 secret key');
  return bytes;
}

/** keccak256 of the uncompressed public key without its 0x04 prefix; the last 20 bytes. */
export function addressFromPublicKey(publicKey: Uint8Array): Address {
  return addressOfUncompressed(secp256k1.Point.fromBytes(publicKey).toBytes(false));
}

function addressOfUncompressed(uncompressed: Uint8Array): Address {
  return `0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(-20))}`;
}

export function addressFromPrivateKey(privateKey: Uint8Array | string): Address {
  // A valid secret key always has a public point (privateKeyBytes refuses the others).
  return addressOfUncompressed(libsecp256k1.pointFromScalar(privateKeyBytes(privateKey), false)!);
}

/** A fresh random secp256k1 private key as `0x` + 64 hex digits. */
export function randomPrivateKey(): `0x${string}` {
  return `0x${bytesToHex(secp256k1.utils.randomSecretKey())}`;
}

/** keccak256("\x19Ethereum Signed Message:\n" + byte length + message). */
export function personalMessageHash(message: string | Uint8Array): Uint8Array {
  const bytes = typeof message === 'string' ? utf8ToBytes(message) : message;
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${bytes.length}`), bytes));
}

/** 65 bytes r ‖ s ‖ v with v = 27 + recovery id, low-s, deterministic (RFC 6979). */
export function signPersonalMessage(
  message: string | Uint8Array,
  privateKey: Uint8Array | string,
): Uint8Array {
  const { signature, recoveryId } = libsecp256k1.signRecoverable(
    personalMessageHash(message),
    privateKeyBytes(privateKey),
  );
  return concatBytes(signature, Uint8Array.of(27 + recoveryId));
}

export class BadSignatureError extends Error {
  override readonly name = 'BadSignatureError';
}

/**
 * The address whose key produced `signature` (65 bytes r ‖ s ‖ v, v in {27, 28} or {0, 1}) over
 * `message`. Throws BadSignatureError when the bytes cannot be a valid signature (wrong length,
 * bad v, high s — refused to rule out malleated copies — or no point to recover).
 */
export function recoverPersonalMessageSigner(message: string | Uint8Array, signature: Uint8Array): Address {
  if (signature.length !== 65)
    throw new BadSignatureError(`signature must be 65 bytes, got ${signature.length}`);
  const v = signature[64] ?? -1;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) throw new BadSignatureError(`invalid recovery byte v=${v}`);
  const compact = signature.subarray(0, 64);
  let publicKey: Uint8Array | null;
  try {
    // Refuses r or s out of range (0 or not below the curve order) with noble's own message.
    if (secp256k1.Signature.fromBytes(compact, 'compact').hasHighS())
      throw new BadSignatureError('signature s is not in the lower half of the curve order');
    publicKey = libsecp256k1.recover(personalMessageHash(message), compact, recovery, false);
  } catch (err) {
    if (err instanceof BadSignatureError) throw err;
    throw new BadSignatureError(`cannot recover a public key: ${(err as Error).message}`);
  }
  if (publicKey === null) throw new BadSignatureError('cannot recover a public key: no point for this r');
  return addressOfUncompressed(publicKey);
}
