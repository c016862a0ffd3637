#!/usr/bin/env python3
"""bench/unpacked.py PATH DEST - a results/ directory with its packed
files unpacked: PATH's loose files and its packed.tar.xz (bench/pack)
unpacked into DEST, which must not exist.

A run directory keeps its meta, summaries and per-check tables loose and
everything else (raw/, profile/, ...) in packed.tar.xz; an A/B directory
keeps ab.md, meta and its README loose and its runs, A/ and B/, packed.
PATH may lie inside a packed file: results/ab/<id>/A is the A/ packed in
results/ab/<id>/packed.tar.xz, itself a run directory with its own.

As a module (bench/summarize, bench/kernels, bench/ab-table,
bench/ab-profile): directory(PATH) is such a directory, unpacked into a
temporary one when anything of it is packed, removed when the program
ends."""
import atexit
import os
import shutil
import sys
import tarfile
import tempfile

ARCHIVE = "packed.tar.xz"


def unpack(path, dest):
    """PATH's loose files and its packed ones, into DEST (new)."""
    shutil.copytree(path, dest, symlinks=True, ignore=shutil.ignore_patterns(ARCHIVE))
    archive = os.path.join(path, ARCHIVE)
    if os.path.exists(archive):
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")


def directory(path):
    """PATH with everything of it loose: PATH itself when nothing of it
    is packed, else a temporary copy (a directory that does not exist is
    looked for in its parent's packed files)."""
    path = os.path.normpath(path)
    if not os.path.isdir(path):
        parent, name = os.path.split(path)
        if not parent or parent == path:
            return path
        unpacked_parent = directory(parent)
        if unpacked_parent == parent:
            return path
        return directory(os.path.join(unpacked_parent, name))
    if not os.path.exists(os.path.join(path, ARCHIVE)):
        return path
    dest = tempfile.mkdtemp(prefix="unpacked.")
    atexit.register(shutil.rmtree, dest, True)
    os.rmdir(dest)
    unpack(path, dest)
    return dest


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    path, dest = sys.argv[1], sys.argv[2]
    source = directory(path)
    if not os.path.isdir(source):
        print(f"bench/unpacked.py: no directory {path}, loose or packed", file=sys.stderr)
        return 1
    unpack(source, dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
