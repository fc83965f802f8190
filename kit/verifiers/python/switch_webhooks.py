"""Verify the switch's signed webhooks (SPEC 6) with the Python standard library only.

Every delivery carries two signatures, both keyed by the endpoint secret exactly as issued
(``whsec_`` + base64):

* ``x-service-signature: sha256=<hex HMAC-SHA256(raw body, secret as text)>`` (SPEC 6);
* the Standard Webhooks trio ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature:
  v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>", base64-decoded secret)>``; its timestamp
  rejects replays.

Always verify the RAW body bytes as received, before any JSON parsing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

__all__ = ["verify_webhook", "standard_key", "WebhookVerificationError", "SIGNATURE_HEADER", "EVENT_HEADER"]

SIGNATURE_HEADER = "x-service-signature"
EVENT_HEADER = "x-service-event"
_PREFIX = "whsec_"
_STANDARD_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


class WebhookVerificationError(Exception):
    """The delivery did not verify; ``reason`` is one of the names in the README."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks key of a secret (see the README, "Secrets")."""
    rest = secret[len(_PREFIX):] if secret.startswith(_PREFIX) else ""
    if rest and _STANDARD_BASE64.match(rest):
        return base64.b64decode(rest, validate=True)
    return secret.encode("utf-8")


def verify_webhook(
    raw_body: Union[bytes, bytearray, memoryview],
    headers: Mapping[str, str],
    secret: Union[str, Sequence[str]],
    schemes: Iterable[str] = ("spec", "standard"),
    tolerance_seconds: int = 300,
    now: Optional[float] = None,
) -> Any:
    """Returns the parsed payload, or raises WebhookVerificationError.

    ``secret`` may be a list (a rotation overlap: any one may match). ``schemes`` names the
    signatures that must be present and valid: ``spec``, ``standard`` or both (the default).
    """
    if not isinstance(raw_body, (bytes, bytearray, memoryview)):
        raise WebhookVerificationError("body_not_raw")
    body = bytes(raw_body)
    secrets = [s for s in ([secret] if isinstance(secret, str) else list(secret)) if s]
    if not secrets:
        raise WebhookVerificationError("no_secret")
    lower = {k.lower(): v for k, v in headers.items()}
    schemes = tuple(schemes)

    if "spec" in schemes:
        given = lower.get(SIGNATURE_HEADER)
        if not given:
            raise WebhookVerificationError("missing_signature")
        given = given.strip().lower().encode("utf-8")
        expected = ["sha256=" + hmac.new(s.encode("utf-8"), body, hashlib.sha256).hexdigest() for s in secrets]
        if not any(hmac.compare_digest(e.encode("utf-8"), given) for e in expected):
            raise WebhookVerificationError("bad_signature")

    if "standard" in schemes:
        msg_id, ts, sig = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
        if not msg_id or not ts or not sig:
            raise WebhookVerificationError("missing_standard_headers")
        if not re.fullmatch(r"[0-9]{1,15}", ts):
            raise WebhookVerificationError("bad_timestamp")
        current = time.time() if now is None else now
        if abs(current - int(ts)) > tolerance_seconds:
            raise WebhookVerificationError("stale_timestamp")
        signed = f"{msg_id}.{ts}.".encode("utf-8") + body
        expected = [
            ("v1," + base64.b64encode(hmac.new(standard_key(s), signed, hashlib.sha256).digest()).decode("ascii")).encode("ascii")
            for s in secrets
        ]
        # Several space-separated signatures may come (the sender's secrets during a rotation).
        candidates = [c.encode("utf-8") for c in sig.split(" ")]
        if not any(hmac.compare_digest(e, c) for e in expected for c in candidates):
            raise WebhookVerificationError("bad_standard_signature")

    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise WebhookVerificationError("body_not_raw") from None


def _cases(stream: Iterable[str]) -> Iterable[dict]:
    """Reads the line format of the kit's tests (README, "Testing"): case/secret/now/header/body/end."""
    case: dict = {}
    for line in stream:
        parts = line.rstrip("\n").split(" ")
        if parts[0] == "case":
            case = {"name": parts[1], "secrets": [], "headers": {}, "now": None, "body": b""}
        elif parts[0] == "secret":
            case["secrets"].append(base64.b64decode(parts[1]).decode("utf-8"))
        elif parts[0] == "now":
            case["now"] = int(parts[1])
        elif parts[0] == "header":
            case["headers"][parts[1]] = base64.b64decode(parts[2]).decode("utf-8")
        elif parts[0] == "body":
            case["body"] = base64.b64decode(parts[1]) if len(parts) > 1 else b""
        elif parts[0] == "end":
            yield case


if __name__ == "__main__":
    import sys

    for c in _cases(sys.stdin):
        try:
            verify_webhook(c["body"], c["headers"], c["secrets"], now=c["now"])
            print(f"{c['name']} ok")
        except WebhookVerificationError as e:
            print(f"{c['name']} fail {e.reason}")
        except (binascii.Error, ValueError) as e:
            print(f"{c['name']} fail error {e}")
