"""How a chapter shows a promoted function: its signature and docstring in the open, its whole source one click away.

A printed listing of 90 lines is read by nobody; the signature and docstring are the contract a learner uses, and
the body is there for the one who wants it. `show_source(fn)` displays both: the text form (what a terminal, nbval
and a plain-text reader see) is the signature and docstring alone; the HTML form (Jupyter, VS Code, the course
site) adds the whole source inside a collapsed `<details>` block. Light on purpose: notebooks import it.
"""

from __future__ import annotations

import ast
import html
import inspect
import textwrap


class Listing:
    """One object's signature and docstring, with its whole source kept for the collapsed view."""

    def __init__(self, obj: object) -> None:
        self.source = textwrap.dedent(inspect.getsource(obj)).rstrip()
        self.header = _header(obj)
        self.name = getattr(obj, "__qualname__", None) or obj.__name__

    def __repr__(self) -> str:
        return f"{self.header}\n    ...  # {self.name}'s whole source: print(inspect.getsource({self.name}))"

    def _repr_html_(self) -> str:
        lines = len(self.source.splitlines())
        return (f"<pre>{html.escape(self.header)}</pre>\n<details><summary>whole source ({lines} lines)</summary>\n"
                f"<pre>{html.escape(self.source)}</pre>\n</details>")


def _header(obj: object) -> str:
    """What a reader uses, as written in the source: the decorators and signature, the docstring, and for a class
    its fields and the signatures of its public methods; a module's docstring alone."""
    if inspect.ismodule(obj):
        return f'"""{inspect.getdoc(obj) or ""}\n"""'
    source = textwrap.dedent(inspect.getsource(obj))
    lines = source.splitlines()
    node = ast.parse(source).body[0]
    shown = _signature_and_docstring(node, lines)
    if isinstance(node, ast.ClassDef):
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign):  # a field: its line(s), without the field's own docstring
                shown += lines[statement.lineno - 1:statement.end_lineno]
            elif _is_function(statement) and (statement.name == "__init__" or not statement.name.startswith("_")):
                shown += [*lines[_first_line(statement):statement.body[0].lineno - 1], "        ..."]
    return "\n".join(shown)


def _is_function(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


def _first_line(node: ast.stmt) -> int:
    """Index of a definition's first line, its decorators included."""
    return min([node.lineno, *(decorator.lineno for decorator in getattr(node, "decorator_list", []))]) - 1


def _signature_and_docstring(node: ast.stmt, lines: list[str]) -> list[str]:
    first = node.body[0]
    has_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    signature = lines[_first_line(node):first.lineno - 1]
    return signature + (lines[first.lineno - 1:first.end_lineno] if has_doc else [])


def show_source(*objects: object) -> None:
    """Display each object's signature and docstring, its whole source collapsed beneath (one click away)."""
    from IPython.display import display

    for obj in objects:
        display(Listing(obj))
