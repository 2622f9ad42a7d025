"""Keep the kiosk's memory flat: glibc's allocator told to give freed memory back.

A camera frame (640x480: 900 KB), its half and quarter images and the readers' masks are
allocated and freed several times a second. Under glibc's mmap threshold (which it raises
to the largest block freed, up to 32 MB) each lands in a heap, and a heap only shrinks from
its top: the holes they left were kept, some 60 MB after a few games, more with every game's
screens built and dropped. Each thread may also get its own heap. Elsewhere than glibc both
are no-ops.
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
    """At start-up, before threads: blocks of 256 KB and over (a 640x480 frame is 900 KB in
    colour, 300 KB in grey) are mapped on their own and return to the system when freed (a
    mapping costs microseconds, a frame milliseconds to draw or read); two heaps serve our
    few busy threads."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(M_MMAP_THRESHOLD, 256 * 1024)
        libc.mallopt(M_ARENA_MAX, 2)


def give_back() -> None:
    """After a burst of work, or when the table stops being read: the free pages inside
    every heap go back to the system."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
