"""The one error every refusal of the API is raised as."""

from __future__ import annotations

from typing import Any

import httpx


class ApiError(Exception):
    """A refusal of the API: ``{"error": {"code", "message", "details"?}}`` with its HTTP status.

    ``code`` is the API's snake_case code (``insufficient_funds``, ``not_on_panel``, ``votes_sealed``…,
    listed in docs/api.md "Errors"); ``http_error`` when the answer carried none.
    """

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        """Built from a read error answer (its body is JSON in the API's shape, or anything else)."""
        try:
            error = response.json().get("error")
        except (ValueError, AttributeError):
            error = None
        if not isinstance(error, dict):
            error = {}
        return cls(
            response.status_code,
            str(error.get("code", "http_error")),
            str(error.get("message", f"HTTP {response.status_code}")),
            error.get("details"),
        )
