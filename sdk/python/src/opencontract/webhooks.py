"""Checking a webhook delivery before trusting it: the service signs each post as Standard Webhooks
do (headers ``webhook-id``, ``webhook-timestamp``, ``webhook-signature``; HMAC-SHA256 with the
subscription's ``whsec_…`` secret), verified here with the ``standardwebhooks`` package.

Deliveries may repeat (a retry after a timeout): deduplicate by ``webhook-id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

__all__ = ["WebhookVerificationError", "verify"]


def verify(secret: str, body: bytes | str, headers: Mapping[str, str]) -> Any:
    """The delivery's JSON payload once its signature, id and timestamp (within 5 minutes) check out.

    ``body`` is the request body exactly as received (not re-serialized JSON); ``headers`` any mapping of
    the request's headers. Anything wrong — a missing or malformed header, a stale timestamp, a body or
    signature that does not match — raises ``WebhookVerificationError``, and only that.
    """
    try:
        return Webhook(secret).verify(body, dict(headers.items()))
    except WebhookVerificationError:
        raise
    except (ValueError, TypeError) as error:  # a malformed header or base64, a body not UTF-8 or not JSON
        raise WebhookVerificationError(f"malformed delivery: {error}") from error
