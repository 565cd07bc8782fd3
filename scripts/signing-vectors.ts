// `npx tsx scripts/signing-vectors.ts`: writes docs/signing-vectors.json from the SDK's signer
// (sdk/typescript/signing-vectors.ts). Deterministic: fixed keys, times and nonces, RFC 6979 signatures.
// test/auth/signing-vectors.test.ts fails when the file and the signer disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signingVectorsJson } from '../sdk/typescript/signing-vectors';

const file = join(__dirname, '..', 'docs', 'signing-vectors.json');
writeFileSync(file, signingVectorsJson());
console.log(file);
