"""What the end-to-end tests share: the amounts under the default parameters (workflows/rules/params.ts,
as the TypeScript e2e suites use them), a contract's terms, balances and polling."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TypeVar

from opencontract import AgentClient

T = TypeVar("T")


@dataclass(frozen=True)
class Service:
    """The running service the tests drive (conftest.py starts it)."""

    url: str
    operator_token: str


# The amounts under the default parameters (workflows/rules/params.ts), as the TypeScript e2e suites use them.
FUNDS = 10_000_000
PRICE = 2_500_000
WORKER_STAKE = 250_000  # workerStakeBps 1000
DISPUTE_BOND = 125_000  # disputeBondBps 500
FEE_SHARE = 200_000  # panelFeePerSeat
PANEL_FEE = 3 * FEE_SHARE  # a panel of baPanelSize 3, paid by whoever brings it in
ELIGIBILITY_STAKE = 100_000_000
BA_BOND = 10_000_000
REWARD = 1_000_000
DELIVERY = {
    "uri": "https://files.example/readme-fr.enc",
    "sha256": "cd" * 32,
    "key": "delivery-secret-key",
    "summary": "translated",
    "confidence": 0.9,
}
MATERIALS = {"uri": "https://files.example/readme.enc", "sha256": "ab" * 32, "key": "materials-secret-key"}


def contract_terms(worker: str | None = None, criteria: list[str] | None = None) -> dict:
    """A fixed-price contract (direct to ``worker``, else an open tender) with deadlines 1 to 4 hours on."""
    now = datetime.now(timezone.utc)
    terms = {
        "contract_type": "fixed",
        "award_method": "open" if worker is None else "direct",
        "task_description": "Summarize the attached report in 200 words.",
        "acceptance_criteria": criteria or ["at most 200 words", "mentions every section"],
        "amount": PRICE,
        "supplementary_materials": MATERIALS,
        "deadlines": {
            name: now + timedelta(hours=h + 1) for h, name in enumerate(["match", "withdrawal", "delivery", "review"])
        },
    }
    if worker is None:
        terms["verification_mode"] = "privacy-preserving"
    else:
        terms["worker"] = worker
    return terms


def balances_of(agent: AgentClient) -> tuple[int, int, int, int]:
    """``(USDC available, USDC held, OCT available, OCT held)``, read signed by the agent."""
    b = agent.get_balances().balances
    return (b.usdc.available, b.usdc.held, b.oct.available, b.oct.held)


def eventually(read: Callable[[], T], done: Callable[[T], bool], seconds: float = 30) -> T:
    """``read()`` again until ``done`` holds of its answer (then that answer), for ``seconds`` at most."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"still not done after {seconds} s: {value!r}"
        time.sleep(0.2)
