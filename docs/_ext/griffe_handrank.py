"""Griffe extensions for the API reference (mkdocs.yml loads them into mkdocstrings).

- `FacadeFunctions`: the evaluator modules bind their compiled entry points by assignment
  (``evaluate = _evaluate.high_evaluate``), which griffe, reading the source without importing
  it, sees as a plain attribute. Each such attribute of a module becomes a function with the
  signature of its target (the compiled module's ``.pyi`` stub, its private type aliases spelled
  out) and the attribute's own docstring (the string literal under the assignment) or, failing
  that, the target's.
- `TupleAssignments`: ``HAND, TRICK = 0, 52`` at a module's top level defines two attributes,
  which griffe's visitor leaves out.
- `DoctestBlocks`: the docstrings hold bare ``>>>`` sessions (pydoc's and doctest's form), which
  Markdown would read as block quotes; each session becomes a ``pycon`` code block.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

import griffe


class FacadeFunctions(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        changed = True
        while changed:      # again until none is left: `handrank.evaluate = high.evaluate` is an
            changed = False     # attribute whose target is one until `handrank.high` is done
            for module in list(_modules(pkg)):
                for name, member in list(module.members.items()):
                    if member.is_alias or not member.is_attribute:
                        continue
                    target = _target_function(module, member)
                    if target is not None:
                        parameters = griffe.Parameters(*(
                            griffe.Parameter(p.name, annotation=_public(p.annotation, target),
                                             kind=p.kind, default=p.default)
                            for p in target.parameters))
                        module.set_member(name, griffe.Function(
                            name, lineno=member.lineno, endlineno=member.endlineno,
                            parameters=parameters, returns=_public(target.returns, target),
                            docstring=member.docstring or target.docstring))
                        changed = True


class TupleAssignments(griffe.Extension):
    def on_module_instance(self, *, node: Any, mod: griffe.Module, **kwargs: Any) -> None:
        for statement in getattr(node, "body", ()):
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Tuple)
                    and isinstance(statement.value, ast.Tuple)
                    and len(statement.targets[0].elts) == len(statement.value.elts)):
                continue
            for target, value in zip(statement.targets[0].elts, statement.value.elts):
                if isinstance(target, ast.Name) and target.id not in mod.members:
                    mod.set_member(target.id, griffe.Attribute(
                        target.id, value=ast.unparse(value), lineno=statement.lineno,
                        endlineno=statement.end_lineno))


class DoctestBlocks(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None and ">>>" in obj.docstring.value:
                obj.docstring.value = fence_sessions(obj.docstring.value)


SESSION = re.compile(r"(?m)^(?P<indent>[ \t]*)>>> .*(?:\n(?P=indent)(?:>>>|\.\.\.|\S).*)*")


def fence_sessions(text: str) -> str:
    """Wrap each ``>>>`` session (its prompts and output, up to a blank line) in a code fence;
    a docstring that has fences of its own is left as it is."""
    if "```" in text:
        return text
    pieces, start = [], 0
    for match in SESSION.finditer(text):
        indent = match.group("indent")
        body = "\n".join(line[len(indent):] for line in match.group(0).split("\n"))
        pieces += [text[start:match.start()], f"{indent}```pycon\n", _indent(body, indent),
                   f"\n{indent}```"]
        start = match.end()
    pieces.append(text[start:])
    return "".join(pieces)


def _indent(text: str, indent: str) -> str:
    return "\n".join(indent + line for line in text.split("\n"))


def _modules(module: griffe.Module) -> Iterator[griffe.Module]:
    yield module
    for member in module.modules.values():
        if not member.is_alias:
            yield from _modules(member)


def _objects(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def _public(annotation: Any, function: griffe.Function) -> Any:
    """A private type alias of the stub (``_Hand``) spelled out, as the user writes it."""
    if isinstance(annotation, griffe.ExprName) and annotation.name.startswith("_"):
        alias = function.module.members.get(annotation.name)
        if alias is not None and not alias.is_alias and alias.is_attribute and alias.value is not None:
            return alias.value
    return annotation


def _target_function(module: griffe.Module, attribute: Any) -> griffe.Function | None:
    value = attribute.value
    if not isinstance(value, (griffe.ExprName, griffe.ExprAttribute)):
        return None
    try:
        target = module.modules_collection[value.canonical_path]
        while target.is_alias:
            target = target.final_target
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    return target if target.is_function else None
