"""Run a command under the kiosk unit's system-call filter, as systemd would apply it.

    python confine.py SYSCALLS_FILE FAMILIES -- COMMAND...
    python confine.py --probe     prints "ok" where this process can load a seccomp filter


SYSCALLS_FILE lists the allowed system calls, one a line (from `systemd-analyze
syscall-filter @system-service`); FAMILIES is a comma-separated list of socket address
family numbers `socket()` may use (RestrictAddressFamilies=). Every other call fails with
EPERM (SystemCallErrorNumber=EPERM). The filter is a seccomp filter built with libseccomp
through ctypes, kept across exec like systemd's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_EQ = 4
PR_SET_NO_NEW_PRIVS = 38


def scmp_act_errno(errno: int) -> int:
    return 0x00050000 | (errno & 0xFFFF)


class ArgCmp(ctypes.Structure):
    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


def confine(syscalls: list[str], families: list[int]) -> None:
    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(ArgCmp),
    ]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(scmp_act_errno(1))  # EPERM
    if not ctx:
        raise SystemExit("confine: seccomp_init failed")
    for name in syscalls:
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if nr < 0 or name == "socket":  # not on this architecture / filtered by family
            continue
        if lib.seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 0, None) != 0:
            raise SystemExit(f"confine: cannot allow {name}")
    socket = lib.seccomp_syscall_resolve_name(b"socket")
    for family in families:
        cmp = ArgCmp(0, SCMP_CMP_EQ, family, 0)
        if lib.seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, socket, 1, ctypes.byref(cmp)) != 0:
            raise SystemExit(f"confine: cannot allow socket family {family}")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # NoNewPrivileges=yes
        raise SystemExit("confine: PR_SET_NO_NEW_PRIVS failed")
    if lib.seccomp_load(ctx) != 0:
        raise SystemExit("confine: seccomp_load failed")


def probe() -> str:
    """Load a filter that refuses getppid() and see it refused: "ok", or why filters cannot be
    loaded here (no libseccomp, a kernel without seccomp, or qemu's user emulation, which
    refuses to load them since they would filter its own calls)."""
    name = ctypes.util.find_library("seccomp")
    if name is None:
        return "libseccomp is not installed"
    lib = ctypes.CDLL(name, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(ArgCmp),
    ]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    getppid = lib.seccomp_syscall_resolve_name(b"getppid")
    if not ctx or lib.seccomp_rule_add_array(ctx, scmp_act_errno(1), getppid, 0, None) != 0:
        return "libseccomp cannot build a filter"
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    loaded = lib.seccomp_load(ctx)
    if loaded != 0:
        return (
            f"loading a seccomp filter fails ({os.strerror(-loaded)}): the kernel, a container"
            " or qemu's user emulation refuses it"
        )
    if libc.getppid() != -1:
        return "a loaded seccomp filter is not applied here"
    return "ok"


def main(argv: list[str]) -> None:
    if argv == ["--probe"]:
        print(probe())
        return
    syscalls_file, families, sep, *command = argv
    assert sep == "--" and command, __doc__
    with open(syscalls_file) as f:
        syscalls = [line.strip() for line in f if line.strip()]
    confine(syscalls, [int(x) for x in families.split(",")])
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
