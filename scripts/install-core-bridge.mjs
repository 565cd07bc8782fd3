#!/usr/bin/env node
// `npm run core:install`: a backport, never run by `npm start`, `npm test` or CI, which use the core npm ships.
// Builds the Temporal SDK's native core (@temporalio/core-bridge) from the sources its npm package ships, with
// the fixes of deploy/sdk-core/*.patch that the installed version does not contain yet, and puts it where the
// SDK loads it from (README, "The SDK's core: a backport of two fixes"). Each patch has a manifest beside it
// (<name>.json) naming the first core-bridge version that contains its fix (`fixedIn`, null: none yet): a patch
// whose fix the installed version contains is skipped, and when every fix is contained nothing is done at all,
// so the backport retires itself as the SDK catches up. Cargo and crates.io build it; protoc, which the build
// needs, comes from Maven Central with the well-known .proto files of the same release.
// Idempotent: does nothing when the patched build is in place already; a build is kept under .temporal/ and
// copied back after an `npm install` replaced the package.
// Usage: node scripts/install-core-bridge.mjs [--force | --check | --stock]
//   --check  says which fixes the installed version needs and which core is installed; builds nothing.
//   --stock  puts back the core npm ships (kept under .temporal/core-bridge/ when the build replaced it).
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { force, installDir, log, need, root, run, StepFailed } from './install-servers.mjs';

const PROTOC_VERSION = '4.33.5';
const MAVEN = 'https://repo1.maven.org/maven2/com/google/protobuf';
/** Maven's classifier of each platform's protoc, and its sha256. */
const PROTOC_BUILDS = {
  'linux-x64': {
    classifier: 'linux-x86_64',
    sha256: 'e8d496f7dacade5bf42a11f4fbeb61e9bdfddd494fd292f5f1881ddc169e69cf',
  },
  'linux-arm64': {
    classifier: 'linux-aarch_64',
    sha256: 'f5b75fc64531cc68201a955c496ddc1079be73e9d2acf3b39f275ba01545862f',
  },
};
const PROTOBUF_JAVA_SHA256 = 'cb9e00d6e3d4b1305f3fdc147490ce347bfe8c05dc821a433b23b2ff28749bb1';

const patchDir = join(root, 'deploy', 'sdk-core');
const bridgeDir = dirname(createRequire(import.meta.url).resolve('@temporalio/core-bridge/package.json'));
const bridgeVersion = JSON.parse(readFileSync(join(bridgeDir, 'package.json'), 'utf8')).version;
const { getPrebuiltPath, getPrebuiltTargetName } = createRequire(import.meta.url)(
  join(bridgeDir, 'common.js'),
);

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A version's numeric parts and pre-release tag, e.g. 1.25.0-rc.1 → [[1, 25, 0], 'rc.1']. */
function parseVersion(version) {
  const [release, pre] = version.split('-', 2);
  return [release.split('.').map(Number), pre];
}

/** True when `version` is `since` or later (a pre-release comes before its release). */
export function atLeast(version, since) {
  const [v, vPre] = parseVersion(version);
  const [s, sPre] = parseVersion(since);
  for (let i = 0; i < Math.max(v.length, s.length); i += 1) {
    if ((v[i] ?? 0) !== (s[i] ?? 0)) return (v[i] ?? 0) > (s[i] ?? 0);
  }
  if (vPre === undefined) return true;
  return sPre !== undefined && vPre >= sPre;
}

/** Every patch of deploy/sdk-core with its manifest: `{ fixes, upstream, fixedIn }`. */
export function backports(dir = patchDir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((f) => {
      const manifest = join(dir, f.replace(/\.patch$/, '.json'));
      if (!existsSync(manifest)) throw new StepFailed('read the patches', `${manifest} is missing`);
      const { fixes, upstream, fixedIn } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (
        typeof fixes !== 'string' ||
        typeof upstream !== 'string' ||
        !(fixedIn === null || typeof fixedIn === 'string')
      )
        throw new StepFailed(
          'read the patches',
          `${manifest} must hold { fixes, upstream, fixedIn: string | null }`,
        );
      return { name: f, path: join(dir, f), fixes, upstream, fixedIn };
    });
}

/** The patches `version` still needs: those whose fix no release contains, or a later one than it. */
export function neededPatches(version, all = backports()) {
  return all.filter((p) => p.fixedIn === null || !atLeast(version, p.fixedIn));
}

/** The build's cache key: the SDK's version and the text of the patches it applies. */
function buildKey(needed) {
  const hash = createHash('sha256');
  for (const p of needed) hash.update(readFileSync(p.path));
  return `${bridgeVersion}-${hash.digest('hex').slice(0, 12)}`;
}

async function download(url, path, expectedSha256) {
  const response = await fetch(url).catch((err) => {
    throw new StepFailed('download', `${url}: ${err.cause?.message ?? err.message}`);
  });
  if (!response.ok) throw new StepFailed('download', `${url}: HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const got = sha256(bytes);
  if (got !== expectedSha256)
    throw new StepFailed('download', `${url}: sha256 ${got}, expected ${expectedSha256}`);
  writeFileSync(path, bytes);
}

/** protoc with the well-known types beside it (protoc looks for them in ../include). */
async function installProtoc() {
  const dir = join(installDir, 'protoc', PROTOC_VERSION);
  const protoc = join(dir, 'bin', 'protoc');
  if (existsSync(join(dir, 'include', 'google', 'protobuf', 'duration.proto')) && existsSync(protoc))
    return protoc;
  const platform = `${process.platform}-${process.arch}`;
  const protocBuild = PROTOC_BUILDS[platform];
  if (protocBuild === undefined) throw new StepFailed('find protoc', `no protoc pinned for ${platform}`);
  log(`protoc ${PROTOC_VERSION}: downloading from Maven Central`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  await download(
    `${MAVEN}/protoc/${PROTOC_VERSION}/protoc-${PROTOC_VERSION}-${protocBuild.classifier}.exe`,
    protoc,
    protocBuild.sha256,
  );
  chmodSync(protoc, 0o755);
  const jar = join(dir, 'protobuf-java.jar');
  await download(
    `${MAVEN}/protobuf-java/${PROTOC_VERSION}/protobuf-java-${PROTOC_VERSION}.jar`,
    jar,
    PROTOBUF_JAVA_SHA256,
  );
  const unpacked = join(dir, 'jar');
  await run('unpack the well-known types', 'python3', ['-m', 'zipfile', '-e', jar, unpacked]);
  cpSync(join(unpacked, 'google'), join(dir, 'include', 'google'), {
    recursive: true,
    filter: (src) => !src.endsWith('.class'),
  });
  rmSync(unpacked, { recursive: true, force: true });
  return protoc;
}

async function build(key, needed) {
  const out = join(installDir, 'core-bridge', key, 'index.node');
  if (existsSync(out) && !force) return out;
  need('cargo', ['--version'], 'find cargo');
  const protoc = await installProtoc();
  const source = join(installDir, 'core-bridge', 'source');
  log(
    `SDK core ${bridgeVersion}: building with ${needed.map((p) => p.name).join(', ')} (cold: several minutes)`,
  );
  rmSync(source, { recursive: true, force: true });
  cpSync(bridgeDir, source, {
    recursive: true,
    filter: (src) =>
      !src.startsWith(join(bridgeDir, 'releases')) && !src.startsWith(join(bridgeDir, 'node_modules')),
  });
  for (const p of needed) await run(`apply ${p.name}`, 'git', ['apply', '-p1', p.path], { cwd: source });
  const target = join(installDir, 'core-bridge', 'target');
  await run('cargo build the SDK core', 'cargo', ['build', '--release', '--locked'], {
    cwd: source,
    env: { ...process.env, PROTOC: protoc, CARGO_TARGET_DIR: target },
  });
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(join(target, 'release', 'libtemporal_sdk_typescript_bridge.so'), out);
  // About 1 GB of intermediate files, and the builds of other versions or patches: a change builds afresh anyway.
  for (const entry of readdirSync(join(installDir, 'core-bridge'))) {
    if (entry !== key && entry !== STOCK)
      rmSync(join(installDir, 'core-bridge', entry), { recursive: true, force: true });
  }
  return out;
}

/** Beside the installed core: which build it is, so a tree whose node_modules has it already builds nothing. */
const markerOf = (loaded) => `${loaded}.opencontract.json`;
/** Where the core npm ships is kept when a build replaces it, for --stock. */
const STOCK = 'stock';
const stockCopy = () => join(installDir, 'core-bridge', STOCK, bridgeVersion, 'index.node');
const loadedPath = () => join(bridgeDir, 'releases', getPrebuiltTargetName(), 'index.node');

function installedBuild(loaded) {
  if (!existsSync(loaded) || !existsSync(markerOf(loaded))) return undefined;
  const marker = JSON.parse(readFileSync(markerOf(loaded), 'utf8'));
  return marker.sha256 === sha256(readFileSync(loaded)) ? marker.key : undefined;
}

function check() {
  for (const p of backports()) {
    const state =
      p.fixedIn !== null && atLeast(bridgeVersion, p.fixedIn)
        ? `contained since ${p.fixedIn}: skipped`
        : `needed (${p.upstream})`;
    log(`${p.name}: ${state}`);
  }
  const key = installedBuild(loadedPath());
  log(
    `installed: @temporalio/core-bridge ${bridgeVersion}, ${key ? `the build ${key}` : 'the core npm ships'}`,
  );
}

function restoreStock() {
  const loaded = loadedPath();
  if (!existsSync(markerOf(loaded))) return log(`SDK core ${bridgeVersion}: the core npm ships is installed`);
  if (!existsSync(stockCopy()))
    throw new StepFailed(
      'restore the stock core',
      `no copy of it under .temporal/; run \`rm -rf node_modules/@temporalio/core-bridge && npm install\``,
    );
  copyFileSync(stockCopy(), loaded);
  rmSync(markerOf(loaded));
  log(`SDK core ${bridgeVersion}: the core npm ships is back in ${getPrebuiltPath()}`);
}

/** True when the core the SDK loads has every fix of deploy/sdk-core: a release that contains them, or our build. */
export function loadedCoreHasEveryFix() {
  const needed = neededPatches(bridgeVersion);
  return needed.length === 0 || installedBuild(loadedPath()) === buildKey(needed);
}

export async function installCoreBridge() {
  const needed = neededPatches(bridgeVersion);
  if (needed.length === 0)
    return log(`SDK core ${bridgeVersion}: contains every fix of deploy/sdk-core, nothing to build`);
  const key = buildKey(needed);
  const loaded = loadedPath();
  if (installedBuild(loaded) === key && !force) return log(`SDK core ${key}: already installed`);
  const built = await build(key, needed);
  if (!existsSync(markerOf(loaded)) && !existsSync(stockCopy())) {
    mkdirSync(dirname(stockCopy()), { recursive: true });
    copyFileSync(loaded, stockCopy());
  }
  copyFileSync(built, loaded);
  writeFileSync(markerOf(loaded), JSON.stringify({ key, sha256: sha256(readFileSync(loaded)) }));
  log(`SDK core ${key}: installed ${getPrebuiltPath()}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(installDir, { recursive: true });
  const step = process.argv.includes('--check')
    ? async () => check()
    : process.argv.includes('--stock')
      ? async () => restoreStock()
      : installCoreBridge;
  step().catch((err) => {
    console.error(`[servers] ${err.message}`);
    process.exit(1);
  });
}
