"""The README's quickstart, run as written against the real service (its URL and operator token put
in), so the first thing a new user copies keeps working."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from support import Service

README = (Path(__file__).parents[1] / "README.md").read_text("utf-8")


def test_the_quickstart_settles_its_contract(service: Service) -> None:
    quickstart = re.search(r"```python\n(.*?)```", README, re.S)
    assert quickstart is not None
    code = quickstart.group(1)
    assert '"http://127.0.0.1:3000"' in code and "<OPERATOR_TOKEN from .data/secrets.json>" in code
    code = code.replace('"http://127.0.0.1:3000"', repr(service.url))
    code = code.replace("<OPERATOR_TOKEN from .data/secrets.json>", service.operator_token)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert [line.split()[1] for line in lines[:-2]][-1] == "contract.settled"
    assert lines[-2] == "12500000"
    assert lines[-1].startswith("409 ")
