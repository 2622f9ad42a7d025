"""One check of `companion doctor`: a part, whether it works, and a line for people.

A leaf module: the core, hardware and vision doctors all build these without importing
each other's doctor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class CheckResult:
    part: str
    ok: bool
    detail: str


Check = Callable[[], CheckResult]
