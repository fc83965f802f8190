"""schemathesis hooks for test/contract/schemathesis.sh (docs/api-conformance.md).

The API refuses a body with a key named `__proto__`, `constructor` or `prototype` at any depth, known
field or not (400 VALIDATION, decision 0005; stated in the document's description). JSON Schema cannot
say "no such key inside the values of fields the schema does not name", so positive cases are kept
free of them here rather than the check being loosened.
"""

import schemathesis

RESERVED = {"__proto__", "constructor", "prototype"}


def _has_reserved(value) -> bool:
    if isinstance(value, dict):
        return any(k in RESERVED or _has_reserved(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_reserved(v) for v in value)
    return False


@schemathesis.hook
def filter_body(context, body) -> bool:
    return not _has_reserved(body)
