#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The audio grants at work: try each privileged call once and print
"nice=ok fifo=ok mlock=ok rlimit=ok", or the errno name of each failure.

Run under prlimit --memlock=0:0 --rtprio=0:0 --nofile=64:128, so that each
call needs its capability: setpriority(-1) and SCHED_FIFO need sys_nice,
mlock ipc_lock, and raising the hard RLIMIT_NOFILE sys_resource.
"""
import ctypes
import errno
import os
import resource

libc = ctypes.CDLL(None, use_errno=True)


def mlock():
    buf = ctypes.create_string_buffer(4096)
    if libc.mlock(ctypes.addressof(buf), len(buf)):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def attempt(name, call):
    try:
        call()
        return name + "=ok"
    except OSError as e:
        return name + "=" + errno.errorcode[e.errno]
    except ValueError:  # how setrlimit reports EPERM
        return name + "=EPERM"


print(" ".join([
    attempt("nice", lambda: os.setpriority(os.PRIO_PROCESS, 0, -1)),
    attempt("fifo", lambda: os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))),
    attempt("mlock", mlock),
    attempt("rlimit", lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, 256))),
]))
