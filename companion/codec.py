"""Plain-JSON views of frozen dataclasses, and the way back for registered event types."""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from collections.abc import Mapping
from typing import Any

from companion.errors import UsageError


def jsonable(obj: Any) -> Any:
    """Turn dataclasses, tuples, sets, enums and mappings into JSON-ready values."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return sorted(jsonable(v) for v in obj)
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    return obj


def tupled(value: Any) -> Any:
    """JSON lists back into tuples (frozen dataclasses hold tuples), recursively."""
    if isinstance(value, list):
        return tuple(tupled(v) for v in value)
    if isinstance(value, dict):
        return {k: tupled(v) for k, v in value.items()}
    return value


def mistyped(obj: Any) -> str | None:
    """What in a dataclass (an event read from outside) does not have its declared type, or
    None. Knows the types events use: str, int, float, bool, None, unions, tuples."""
    hints = typing.get_type_hints(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if not _is_a(value, hints[f.name]):
            return f"{f.name} must be {_say(hints[f.name])}, not {json.dumps(jsonable(value))}"
    return None


def _is_a(value: Any, kind: Any) -> bool:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is type(None):
        return value is None
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin in (typing.Union, types.UnionType):
        return any(_is_a(value, a) for a in args)
    if origin is tuple and args:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_is_a(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(_is_a, value, args))
    if isinstance(kind, type):
        return isinstance(value, origin or kind)
    return True  # a type this checker does not know: the rules engine decides


def _say(kind: Any) -> str:
    names = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}
    if kind in names:
        return names[kind]
    if kind is type(None):
        return "null"
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return " or ".join(_say(a) for a in typing.get_args(kind))
    if kind is tuple or typing.get_origin(kind) is tuple:
        return "a list"
    return getattr(kind, "__name__", str(kind))


MAX_DEPTH = 64  # no document of ours nests deeper than a few levels


def loads(text: str | bytes, what: str) -> Any:
    """Parse a JSON document from outside; anything malformed is a one-line UsageError.

    `what` names the document in the message ("stdin", "log.json"). Beyond the syntax it
    refuses what would break a reader later: text that is not UTF-8, NaN and Infinity
    (not JSON, and never a count or a score), and nesting deeper than MAX_DEPTH.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{what} is not UTF-8 text (byte {exc.start})") from None
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise UsageError(f"{what} is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as exc:
        raise UsageError(f"{what} is not valid JSON: {exc}") from None
    _check_depth(doc, what)
    return doc


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _check_depth(doc: Any, what: str) -> None:
    level = [doc]
    for _ in range(MAX_DEPTH):
        level = [
            v
            for item in level
            if isinstance(item, (list, dict))
            for v in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return
    raise UsageError(f"{what} is nested too deeply (more than {MAX_DEPTH} levels)")


def read_json_stdin(usage: str) -> Any:
    """The JSON document a scriptable tool reads on stdin; bad input is one clear line."""
    stream = getattr(sys.stdin, "buffer", sys.stdin)  # bytes: undecodable input is ours to word
    text = stream.read()
    if not text.strip():
        raise UsageError(f"nothing on stdin ({usage})")
    return loads(text, "stdin")
