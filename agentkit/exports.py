"""Lazy re-exports for a package's `__init__`: a name is imported from its module on first use.

Importing one module (the shell tool in a child process, say) then does not pay for every other one;
jsonschema's import alone costs about a second.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module


def lazy_exports(package: str, modules: dict[str, list[str]]
                 ) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """`__all__`, `__getattr__` and `__dir__` for `package`, re-exporting each module's listed names."""
    home = {name: module for module, names in modules.items() for name in names}
    names = sorted(home)

    def __getattr__(name: str) -> object:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(home[name]), name)

    return names, __getattr__, lambda: names
