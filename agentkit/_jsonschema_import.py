"""Import jsonschema without the IRI grammar it would compile: imported first by `agentkit/__init__.py`.

jsonschema imports rfc3987_syntax where it is installed (Jupyter installs it), and that module compiles a grammar
for IRIs at import: a second of CPU in every kernel and every `agentkit` command. No tool schema here checks the
"iri" format, so agentkit imports jsonschema without it; jsonschema then skips that one format, as it does wherever
rfc3987_syntax is not installed. If jsonschema was imported before agentkit, nothing changes.
"""

import sys

if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # None in sys.modules makes its import fail
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]
