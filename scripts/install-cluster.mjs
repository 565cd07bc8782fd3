#!/usr/bin/env node
// Installs what the cluster profile runs beyond the CLI: the Temporal server (cmd/server) and its SQL schema tool
// (cmd/tools/sql), built with Go from the Go module proxy, plus the PostgreSQL schema files of the same release.
// Only `npm run cluster` and `npm run test:cluster` call this; `npm start` never builds the server.
// Idempotent: does nothing when the pinned version is installed already. Usage: node scripts/install-cluster.mjs [--force]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { force, installDir, log, need, run, StepFailed } from './install-servers.mjs';

// v1.32.1: the first release that both builds with the Go here (1.26.8; v1.30.9, v1.31.5 and v1.32.2 need
// 1.26.10) and cancels a stopping worker's polls on the server (docs/scale.md, "Why v1.32.1").
export const SERVER_MODULE = 'go.temporal.io/server';
export const SERVER_VERSION = 'v1.32.1';
export const serverDir = join(installDir, 'server', SERVER_VERSION);
export const serverBin = join(serverDir, 'server');
export const sqlToolBin = join(serverDir, 'sql');
export const schemaDir = join(serverDir, 'schema', 'postgresql', 'v12');

function moduleDir() {
  const probe = spawnSync('go', ['mod', 'download', '-json', `${SERVER_MODULE}@${SERVER_VERSION}`], {
    encoding: 'utf8',
  });
  if (probe.status !== 0) throw new StepFailed('go mod download', probe.stderr.trim());
  return JSON.parse(probe.stdout).Dir;
}

export async function installCluster() {
  if (existsSync(serverBin) && existsSync(sqlToolBin) && existsSync(schemaDir) && !force) {
    return log(`Temporal server ${SERVER_VERSION}: already installed`);
  }
  log(
    `Temporal server ${SERVER_VERSION}: building with ${need('go', ['version'], 'find go')} (cold: several minutes)`,
  );
  rmSync(serverDir, { recursive: true, force: true });
  mkdirSync(serverDir, { recursive: true });
  await run(
    'go install temporal server',
    'go',
    [
      'install',
      `${SERVER_MODULE}/cmd/server@${SERVER_VERSION}`,
      `${SERVER_MODULE}/cmd/tools/sql@${SERVER_VERSION}`,
    ],
    {
      env: {
        ...process.env,
        GOBIN: serverDir,
        GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim(),
      },
    },
  );
  cpSync(join(moduleDir(), 'schema', 'postgresql', 'v12'), schemaDir, { recursive: true });
  log(`Temporal server: installed ${serverBin}, ${sqlToolBin} and the PostgreSQL schemas`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(installDir, { recursive: true });
  installCluster().catch((err) => {
    console.error(`[servers] ${err.message}`);
    process.exit(1);
  });
}
