"""Runs the PyPI standardwebhooks Webhook.verify over the kit's cases (stdin); prints `<name> ok|fail`.

The library reads the clock itself, so the `now` of a case is not used: only fresh deliveries are
given to it.
"""

import base64
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

case = {}
for line in sys.stdin:
    p = line.rstrip("\n").split(" ")
    if p[0] == "case":
        case = {"name": p[1], "secrets": [], "headers": {}, "body": b""}
    elif p[0] == "secret":
        case["secrets"].append(base64.b64decode(p[1]).decode("utf-8"))
    elif p[0] == "header":
        case["headers"][p[1]] = base64.b64decode(p[2]).decode("utf-8")
    elif p[0] == "body":
        case["body"] = base64.b64decode(p[1]) if len(p) > 1 else b""
    elif p[0] == "end":
        try:
            Webhook(case["secrets"][0]).verify(case["body"], case["headers"])
            print(f"{case['name']} ok", flush=True)
        except WebhookVerificationError as e:
            print(f"{case['name']} fail {e}", flush=True)
