#!/usr/bin/env python3
"""bench/report/unpacked.py PATH DEST - a results/ directory with its packed
files unpacked: PATH's loose files and its packed.tar.xz (bench/drivers/pack)
unpacked into DEST, which must not exist.

A run directory keeps its meta, summaries and per-check tables loose and
everything else (raw/, profile/, ...) in packed.tar.xz; an A/B directory
keeps ab.md, meta and its README loose and its runs, A/ and B/, packed.
PATH may lie inside a packed file: results/ab/<id>/A is the A/ packed in
results/ab/<id>/packed.tar.xz, itself a run directory with its own.

As a module (bench/report/summarize, bench/report/kernels, bench/report/ab-table,
bench/report/ab-profile): path(PATH) is where PATH's files are all loose, PATH
itself when nothing of it is packed, else a temporary copy, removed when
the program ends."""
import atexit
import os
import shutil
import sys
import tarfile
import tempfile

ARCHIVE = "packed.tar.xz"


def unpack(directory, dest):
    """DIRECTORY's loose files and its packed ones, into DEST (new)."""
    # Its own archive only: a loose directory in it keeps its own.
    shutil.copytree(directory, dest, symlinks=True,
                    ignore=lambda folder, names: [ARCHIVE] if folder == directory else [])
    archive = os.path.join(directory, ARCHIVE)
    if os.path.exists(archive):
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")


def path(name):
    """NAME, a directory or a file, where everything of it is loose: NAME
    itself, or the same in a temporary copy of the directory packed that
    holds it (a NAME that does not exist is looked for in its parent's
    packed files)."""
    name = os.path.normpath(name)
    if not os.path.exists(name):
        parent, base = os.path.split(name)
        if not parent or parent == name:
            return name
        unpacked_parent = path(parent)
        if unpacked_parent == parent:
            return name
        return path(os.path.join(unpacked_parent, base))
    if not os.path.isdir(name) or not os.path.exists(os.path.join(name, ARCHIVE)):
        return name
    dest = tempfile.mkdtemp(prefix="unpacked.")
    atexit.register(shutil.rmtree, dest, True)
    os.rmdir(dest)
    unpack(name, dest)
    return dest


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    source = path(sys.argv[1])
    if not os.path.isdir(source):
        print(f"bench/report/unpacked.py: no directory {sys.argv[1]}, loose or packed", file=sys.stderr)
        return 1
    unpack(source, sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
