"""Plain-JSON views of frozen dataclasses, and the way back for registered event types."""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
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


def read_json_stdin(usage: str) -> Any:
    """The JSON document a scriptable tool reads on stdin; bad input is one clear line."""
    text = sys.stdin.read()
    if not text.strip():
        raise UsageError(f"nothing on stdin ({usage})")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(f"stdin is not valid JSON: {exc}") from None
