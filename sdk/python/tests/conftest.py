"""The real service for the SDK's end-to-end tests: the repository's whole stack (Temporal dev server,
contract worker, SQLite ledger, API on a free port) started once per session by
``scripts/test-service.ts``, which prints its URL and operator token as one JSON line and stops when
its stdin closes. A service that cannot start fails the tests; nothing skips."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest
from support import FUNDS, Service

from opencontract import AgentClient, OperatorClient, random_private_key

REPO = Path(__file__).parents[3]
START_TIMEOUT_SECONDS = 240


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    process = subprocess.Popen(
        ["npx", "tsx", "scripts/test-service.ts"],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # A panel's tally settles once the appeal window passes: two seconds here, not a day.
        env={**os.environ, "NODE_ENV": "test", "OPENCONTRACT_PARAMS": '{"appealWindow": 2000}'},
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        started = _started(lines)
        yield started
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.terminate()
            process.wait(timeout=30)


def _started(lines: queue.Queue[str | None]) -> Service:
    """The JSON line among whatever else the servers print on stdout."""
    deadline = datetime.now() + timedelta(seconds=START_TIMEOUT_SECONDS)
    while True:
        try:
            line = lines.get(timeout=max(0.0, (deadline - datetime.now()).total_seconds()))
        except queue.Empty:
            raise RuntimeError(f"the test service did not start in {START_TIMEOUT_SECONDS} s") from None
        if line is None:
            raise RuntimeError("the test service exited before it started (its error is on stderr)")
        if line.startswith("{"):
            started = json.loads(line)
            return Service(started["url"], started["operatorToken"])


@pytest.fixture(scope="session")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def operator(service: Service, http: httpx.Client) -> OperatorClient:
    return OperatorClient(service.url, service.operator_token, http=http)


@pytest.fixture
def new_agent(service: Service, http: httpx.Client, operator: OperatorClient) -> Callable[..., AgentClient]:
    """A new agent with a fresh key, funded by the operator with ``funds`` USDC minor units."""

    def make(funds: int = FUNDS) -> AgentClient:
        agent = AgentClient(service.url, random_private_key(), http=http)
        if funds:
            operator.deposit(agent.address, funds)
        return agent

    return make
