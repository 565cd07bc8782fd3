"""The shared signing vectors (docs/signing-vectors.json), which the TypeScript signer also passes:
every field reproduced byte for byte from each vector's inputs."""

import json
from pathlib import Path

import pytest

from opencontract._http import Call, build_request
from opencontract.signing import address_from_private_key, sign_parts, sign_request

VECTORS = json.loads((Path(__file__).parents[3] / "docs" / "signing-vectors.json").read_text("utf-8"))["vectors"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_every_field_of_the_vector(vector: dict) -> None:
    signed = sign_parts(
        method=vector["method"],
        path=vector["path"],
        query=vector["query"],
        body=vector["body"].encode("utf-8"),
        private_key=vector["privateKey"],
        created=vector["created"],
        expires=vector["expires"],
        nonce=vector["nonce"],
        on_behalf_of=vector.get("onBehalfOf"),
    )
    assert address_from_private_key(vector["privateKey"]) == vector["address"]
    assert signed.address == vector["address"]
    assert signed.content_digest == vector["contentDigest"]
    assert signed.signature_base == vector["signatureBase"]
    assert signed.eip191_hash == vector["eip191Hash"]
    assert signed.signature_input == vector["signatureInput"]
    assert signed.signature == vector["signature"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_sign_request_gives_the_vector_headers(vector: dict) -> None:
    headers = sign_request(
        method=vector["method"],
        target=vector["path"] + vector["query"],
        body=vector["body"].encode("utf-8"),
        private_key=vector["privateKey"],
        now=vector["created"] + 0.999,
        nonce=vector["nonce"],
        expires_in=vector["expires"] - vector["created"],
        on_behalf_of=vector.get("onBehalfOf"),
    )
    expected = {"Signature-Input": vector["signatureInput"], "Signature": vector["signature"]}
    if vector["contentDigest"] is not None:
        expected["Content-Digest"] = vector["contentDigest"]
    if vector.get("onBehalfOf") is not None:
        expected["On-Behalf-Of"] = vector["onBehalfOf"]
    assert headers == expected


def test_vectors_cover_every_component_combination() -> None:
    assert len(VECTORS) >= 6
    assert any(v["query"] and v["body"] for v in VECTORS)
    assert any(not v["query"] and not v["body"] for v in VECTORS)


@pytest.mark.parametrize(
    ("change", "message"),
    [({"nonce": "short"}, "nonce"), ({"expires": 1700000301}, "expires"), ({"expires": 1700000000}, "expires")],
)
def test_out_of_profile_parameters_are_refused(change: dict, message: str) -> None:
    vector = VECTORS[0]
    params = {
        "method": vector["method"],
        "path": vector["path"],
        "query": "",
        "body": b"",
        "private_key": vector["privateKey"],
        "created": 1700000000,
        "expires": 1700000060,
        "nonce": vector["nonce"],
    }
    with pytest.raises(ValueError, match=message):
        sign_parts(**{**params, **change})


def test_the_client_sends_the_vector_bytes_it_signs() -> None:
    """A request as the clients build it (query encoded, body serialized) has the vector's exact target and
    body, so its signature is the vector's."""
    vector = next(v for v in VECTORS if v["name"] == "second-key-percent-encoded-query-with-body")
    call = Call("POST", vector["path"], lambda data: data, query={"note": "a b/c"}, body=json.loads(vector["body"]))
    request = build_request("http://127.0.0.1:3000/", call, None)
    assert request.url.raw_path.decode() == vector["path"] + vector["query"]
    assert request.content == vector["body"].encode("utf-8")
    headers = sign_request(
        method=request.method,
        target=request.url.raw_path.decode(),
        body=request.content,
        private_key=vector["privateKey"],
        now=vector["created"],
        nonce=vector["nonce"],
        expires_in=vector["expires"] - vector["created"],
    )
    assert (headers["Signature-Input"], headers["Signature"]) == (vector["signatureInput"], vector["signature"])
