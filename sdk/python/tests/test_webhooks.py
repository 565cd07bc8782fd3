"""opencontract.webhooks.verify against deliveries signed here by the Standard Webhooks scheme itself
(HMAC-SHA256 of ``id.timestamp.body`` under the base64 secret after ``whsec_``): the genuine one is
read, every forged, stale or malformed one raises WebhookVerificationError and nothing else."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time

import pytest

from opencontract.webhooks import WebhookVerificationError, verify

SECRET_BYTES = secrets.token_bytes(24)
SECRET = "whsec_" + base64.b64encode(SECRET_BYTES).decode()
BODY = json.dumps({"id": "42", "type": "contract.matched", "contractId": "c-1"}, separators=(",", ":"))


def signed_headers(body: str, *, key: bytes = SECRET_BYTES, at: int | None = None, msg_id: str = "msg_1") -> dict:
    timestamp = str(int(time.time()) if at is None else at)
    mac = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return {
        "Webhook-Id": msg_id,
        "Webhook-Timestamp": timestamp,
        "Webhook-Signature": f"v1,{base64.b64encode(mac).decode()}",
    }


def test_a_genuine_delivery_gives_its_payload() -> None:
    assert verify(SECRET, BODY.encode(), signed_headers(BODY)) == json.loads(BODY)
    # Header names in any case, body as text or bytes; one of several signatures (a rotated secret) suffices.
    headers = {k.lower(): v for k, v in signed_headers(BODY).items()}
    headers["webhook-signature"] = "v1,AAAA " + headers["webhook-signature"]
    assert verify(SECRET, BODY, headers)["type"] == "contract.matched"


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda: (BODY.replace("42", "43"), signed_headers(BODY)), id="tampered body"),
        pytest.param(lambda: (BODY, signed_headers(BODY, key=secrets.token_bytes(24))), id="other secret"),
        pytest.param(lambda: (BODY, signed_headers(BODY, at=int(time.time()) - 600)), id="stale"),
        pytest.param(lambda: (BODY, signed_headers(BODY, at=int(time.time()) + 600)), id="future"),
        pytest.param(lambda: (BODY, {**signed_headers(BODY), "Webhook-Id": "msg_2"}), id="other id"),
        pytest.param(lambda: (BODY, {"Webhook-Id": "msg_1", "Webhook-Timestamp": "1"}), id="missing signature"),
        pytest.param(lambda: (BODY, {**signed_headers(BODY), "Webhook-Signature": "garbage"}), id="no version"),
        pytest.param(lambda: (BODY, {**signed_headers(BODY), "Webhook-Signature": "v1,@@@"}), id="bad base64"),
        pytest.param(lambda: (BODY, {**signed_headers(BODY), "Webhook-Timestamp": "soon"}), id="bad timestamp"),
        pytest.param(lambda: (b"\xff\xfe", signed_headers("x")), id="body not utf-8"),
    ],
)
def test_forged_stale_or_malformed_deliveries_are_refused(forge) -> None:
    body, headers = forge()
    with pytest.raises(WebhookVerificationError):
        verify(SECRET, body, headers)
