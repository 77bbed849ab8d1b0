"""Run a command under a seccomp allow-list, as systemd's ``SystemCallFilter=`` does.

Usage: seccomp_launch.py ALLOWED_FILE -- COMMAND ARGS...

ALLOWED_FILE names one system call per line; every other call fails with
EPERM (``SystemCallErrorNumber=EPERM``). The filter is loaded with libseccomp
through ctypes (libseccomp2 is on every Debian: systemd needs it), sets
no_new_privs like ``NoNewPrivileges=yes``, and is inherited by the command
and all its threads and children.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO = 0x00050000


def main(argv: list[str]) -> int:
    allowed_file, sep, *command = argv
    assert sep == "--" and command, __doc__
    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_ERRNO | errno.EPERM)
    if not ctx:
        raise SystemExit("seccomp_init failed")
    with open(allowed_file) as f:
        for name in f.read().split():
            nr = lib.seccomp_syscall_resolve_name(name.encode())
            if nr < 0:  # not a system call of this architecture
                continue
            rc = lib.seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)
            if rc < 0 and rc != -errno.EEXIST:
                raise SystemExit(f"seccomp_rule_add({name}) failed: {rc}")
    if lib.seccomp_load(ctx) < 0:
        raise SystemExit("seccomp_load failed")
    os.execvp(command[0], command)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
