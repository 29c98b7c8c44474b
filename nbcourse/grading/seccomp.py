"""The system calls a sandboxed kernel may not make, as a seccomp filter for bubblewrap.

:func:`program` returns a classic BPF program (an array of ``struct sock_filter``, the form
``bwrap --seccomp FD`` reads) that lets every system call through except

* new namespaces of any kind (``unshare`` and ``clone`` with a ``CLONE_NEW*`` flag,
  ``setns``), and ``clone3``, whose flags a filter cannot read, answered ``ENOSYS`` so that
  the C library falls back to ``clone``: no user namespace, hence no capabilities anywhere
  and no way to mount a cgroup hierarchy and raise the sandbox's own limits;
* mounting (``mount``, ``umount2``, ``pivot_root``, ``chroot`` and the new mount API);
* tracing and reading other processes (``ptrace``, ``process_vm_readv``/``writev``,
  ``pidfd_getfd``, ``kcmp``);
* the kernel's key store (``add_key``, ``request_key``, ``keyctl``), whose quotas are per
  user on the host;
* what no notebook needs and the kernel's attack surface grows by (BPF, perf events,
  ``userfaultfd``, io_uring, modules, kexec, swap, quotas, accounting, reboot, the kernel
  log, file handles, ``fanotify``, I/O ports).

A denied call fails with ``EPERM``. A call made with another architecture's numbers (the
32-bit ABIs of x86-64) kills the process. The numbers are those of x86-64
(``asm/unistd_64.h``) and of the generic table arm64 uses (``asm-generic/unistd.h``);
:func:`program` raises :class:`ValueError` on any other machine.

The program is written here rather than built with libseccomp: its Python bindings come
with the system's interpreter only (Debian's ``python3-seccomp``), not from PyPI, and the
filter is some sixty instructions.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["DENIED", "program", "supported"]

# BPF opcodes (linux/bpf_common.h) and seccomp return values (linux/seccomp.h)
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
KILL_PROCESS, ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (the low half of args[0])
X32_BIT = 0x40000000

CLONE_NEWTIME = 0x00000080
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER
              | CLONE_NEWPID | CLONE_NEWNET)  # clone's low byte is the exit signal

DENIED = ("setns", "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount",
          "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "ptrace",
          "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "add_key",
          "request_key", "keyctl", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup",
          "io_uring_enter", "io_uring_register", "init_module", "finit_module",
          "delete_module", "kexec_load", "kexec_file_load", "swapon", "swapoff", "quotactl",
          "quotactl_fd", "acct", "reboot", "syslog", "lookup_dcookie", "name_to_handle_at",
          "open_by_handle_at", "fanotify_init", "vhangup", "iopl", "ioperm")

_X86_64 = dict(
    clone=56, unshare=272, clone3=435, setns=308, mount=165, umount2=166, pivot_root=155,
    chroot=161, open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432,
    fspick=433, mount_setattr=442, ptrace=101, process_vm_readv=310, process_vm_writev=311,
    pidfd_getfd=438, kcmp=312, add_key=248, request_key=249, keyctl=250, bpf=321,
    perf_event_open=298, userfaultfd=323, io_uring_setup=425, io_uring_enter=426,
    io_uring_register=427, init_module=175, finit_module=313, delete_module=176,
    kexec_load=246, kexec_file_load=320, swapon=167, swapoff=168, quotactl=179,
    quotactl_fd=443, acct=163, reboot=169, syslog=103, lookup_dcookie=212,
    name_to_handle_at=303, open_by_handle_at=304, fanotify_init=300, vhangup=153, iopl=172,
    ioperm=173)
_GENERIC = dict(
    clone=220, unshare=97, clone3=435, setns=268, mount=40, umount2=39, pivot_root=41,
    chroot=51, open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432,
    fspick=433, mount_setattr=442, ptrace=117, process_vm_readv=270, process_vm_writev=271,
    pidfd_getfd=438, kcmp=272, add_key=217, request_key=218, keyctl=219, bpf=280,
    perf_event_open=241, userfaultfd=282, io_uring_setup=425, io_uring_enter=426,
    io_uring_register=427, init_module=105, finit_module=273, delete_module=106,
    kexec_load=104, kexec_file_load=294, swapon=224, swapoff=225, quotactl=60,
    quotactl_fd=443, acct=89, reboot=142, syslog=116, lookup_dcookie=18,
    name_to_handle_at=264, open_by_handle_at=265, fanotify_init=262, vhangup=58)
# machine -> (AUDIT_ARCH_* of linux/audit.h, system call numbers, whether x32 exists)
TABLES = {"x86_64": (0xC000003E, _X86_64, True), "aarch64": (0xC00000B7, _GENERIC, False)}


def supported(machine=None):
    """Whether :func:`program` knows the system calls of ``machine`` (default: this one)."""
    return (machine or platform.machine()) in TABLES


def _op(code, k, jt=0, jf=0):
    return struct.pack("<HBBI", code, jt, jf, k)


def program(machine=None):
    """The filter for ``machine`` (default: this one), as bytes of ``struct sock_filter``.

    Raises
    ------
    ValueError
        If ``machine`` is not one whose system call numbers are known (x86_64, aarch64).
    """
    machine = machine or platform.machine()
    if machine not in TABLES:
        raise ValueError(f"machine must be one of {sorted(TABLES)} (the system call numbers "
                         f"the sandbox's filter knows), got {machine!r}")
    arch, numbers, x32 = TABLES[machine]
    eperm, enosys = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.ENOSYS
    ops = [_op(LD_W_ABS, ARCH), _op(JEQ_K, arch, jt=1), _op(RET_K, KILL_PROCESS),
           _op(LD_W_ABS, NR)]
    if x32:
        ops += [_op(JGE_K, X32_BIT, jf=1), _op(RET_K, KILL_PROCESS)]
    for name in DENIED:
        if name in numbers:
            ops += [_op(JEQ_K, numbers[name], jf=1), _op(RET_K, eperm)]
    ops += [_op(JEQ_K, numbers["clone3"], jf=1), _op(RET_K, enosys)]
    for name, flags in (("clone", NAMESPACES), ("unshare", NAMESPACES | CLONE_NEWTIME)):
        ops += [_op(JEQ_K, numbers[name], jf=4), _op(LD_W_ABS, ARG0),
                _op(JSET_K, flags, jf=1), _op(RET_K, eperm), _op(RET_K, ALLOW)]
    ops.append(_op(RET_K, ALLOW))
    return b"".join(ops)
