"""Keep the kiosk's memory flat: glibc's allocator told to give freed memory back.

After a camera frame of about 1 MB is freed, glibc raises its mmap threshold and keeps every
later frame on the heap; each thread gets its own heap; and a heap only shrinks from its top.
Over a game that held some 50-200 MB for a moment (the first calibration of the simulated
camera renders every light) the app never gave it back. Elsewhere than glibc both are no-ops.
"""

from __future__ import annotations

import ctypes
import functools

M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8


@functools.cache
def _libc():
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def tune() -> None:
    """At start-up, before threads: blocks over 2 MB are mapped on their own and return to
    the system when freed; two heaps serve our few busy threads."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024)
        libc.mallopt(M_ARENA_MAX, 2)


def give_back() -> None:
    """After a burst of work: the free pages inside every heap go back to the system."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
