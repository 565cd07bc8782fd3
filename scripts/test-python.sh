#!/usr/bin/env bash
# The Python SDK's tests (`npm run test:python`, a step of .ci/run): the package installed from
# sdk/python into a venv (.venv-sdk) as `pip install` installs it for a user; its lint and format
# (ruff) and its types (mypy --strict: the typed surface users rely on) checked; then pytest: the
# shared signing vectors, and whole contracts against the real service, which the tests start
# themselves with scripts/test-service.ts (it needs the Temporal CLI, installed here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/install-servers.mjs --cli-only
python3 -m venv .venv-sdk
pip=(.venv-sdk/bin/pip install --quiet --disable-pip-version-check)
"${pip[@]}" './sdk/python[test]'
# The package once more from its sources: a venv kept from an earlier run already has version 0.1.0,
# which pip would keep as it was.
"${pip[@]}" --force-reinstall --no-deps ./sdk/python
(
  cd sdk/python
  ../../.venv-sdk/bin/ruff check src tests
  ../../.venv-sdk/bin/ruff format --check src tests
  ../../.venv-sdk/bin/mypy --strict src/opencontract
)
exec .venv-sdk/bin/pytest sdk/python/tests "$@"
