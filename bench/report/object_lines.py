"""bench/report/object_lines.py - source lines of a function of a kernel built
without debug info (CONFIG_DEBUG_INFO_NONE), the booted kernel unchanged:
the function's object file compiled again with -g -gdwarf-5 by the build's
own command (the .o.cmd kbuild saves beside each object) and objtool's
one rewrite of the text (--hacks=jump_label: the static branches' jmps
made nops; objtool's other work adds sections), into a twin directory
beside the build directory (BUILD-lines/), and read only if the
function's bytes in it are the booted vmlinux's.

A twin costs one compile of one file per function's object (0.7 s of CPU
for security/commoncap.o), not a second kernel build of 1,707 objects:
gcc's code does not depend on -g. It is compiled again only when its
stamp changed: the build's object, its source file, the command. The
bytes compared are all but the fields the object's relocations fill in
at link time (addresses; the instructions around them are compared).

As a module (bench/report/annotate): Twin(build).lines(name, address, size,
vmlinux, addresses) -> {address: addr2line -i's innermost file:line}, or
Refused with what differs."""
import hashlib
import os
import re
import shlex
import subprocess

# objtool's one rewrite of the text: the static branches' jmps made nops
# (6.1 runs it on each object, 6.12 on vmlinux.o).
OBJTOOL = 'tools/objtool/objtool'

# Bytes a relocation of each type fills in; the rest are 4.
RELOCATION_SIZES = {'R_X86_64_64': 8, 'R_X86_64_PC64': 8, 'R_X86_64_16': 2, 'R_X86_64_8': 1}


class Refused(Exception):
    """No line table that can be trusted for the function."""


def run(command, cwd=None):
    try:
        return subprocess.run(command, check=True, capture_output=True, text=True, cwd=cwd).stdout
    except FileNotFoundError:
        raise Refused('%s is missing (binutils)' % command[0])
    except subprocess.CalledProcessError as e:
        raise Refused('%s failed: %s' % (' '.join(command), e.stderr.strip()[-2000:]))


def sections(path):
    """[(index, name, address, file offset, size)] of an ELF file."""
    out = []
    for line in run(['readelf', '-S', '-W', path]).splitlines():
        m = re.match(r'\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)', line)
        if m:
            out.append((int(m.group(1)), m.group(2), int(m.group(3), 16), int(m.group(4), 16),
                        int(m.group(5), 16)))
    return out


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_bytes(path, offset, size):
    with open(path, 'rb') as f:
        f.seek(offset)
        return f.read(size)


def vmlinux_bytes(path, address, size):
    for _, name, start, offset, length in sections(path):
        if start and start <= address and address + size <= start + length:
            return read_bytes(path, offset + address - start, size)
    raise Refused('%s has no section holding 0x%x' % (path, address))


class Twin:
    """The twin objects of one kernel build directory."""

    def __init__(self, build):
        self.build = os.path.realpath(build)
        self.dir = self.build + '-lines'
        self.objects = None

    def objects_of(self, name):
        """The build's objects that define a text symbol NAME (vmlinux.a's)."""
        if self.objects is None:
            self.objects = {}
            out = run(['nm', '-A', '--defined-only', 'vmlinux.a'], cwd=self.build)
            for line in out.splitlines():
                m = re.match(r'vmlinux\.a:(\S+):[0-9a-f]+ [tTwW] (\S+)$', line)
                if m:
                    self.objects.setdefault(m.group(2), []).append(m.group(1))
        return self.objects.get(name, [])

    def command(self, obj):
        """The compile of OBJ as kbuild ran it, for its twin (-g -gdwarf-5,
        no dependency file, no ccache, no objtool), the twin, and OBJ's
        source file."""
        saved = os.path.join(self.build, os.path.dirname(obj), '.%s.cmd' % os.path.basename(obj))
        try:
            text = open(saved).read()
        except OSError:
            raise Refused('no %s: the build saved no command for %s' % (saved, obj))
        m = re.search(r'^(?:saved)?cmd_%s := (.*)$' % re.escape(obj), text, re.M)
        if not m:
            raise Refused('%s has no cmd_%s line' % (saved, obj))
        source = re.search(r'^source_%s := (\S+)$' % re.escape(obj), text, re.M)
        if not source:
            raise Refused('%s has no source_%s line' % (saved, obj))
        compiles = [c for c in m.group(1).split(' ; ') if ' -c -o %s ' % obj in c + ' ']
        if len(compiles) != 1:
            raise Refused('%s: no single compile of %s in its command' % (saved, obj))
        words = [w for w in shlex.split(compiles[0]) if not w.startswith('-Wp,-MMD,')]
        if words[0] == 'ccache':
            words.pop(0)
        twin = os.path.join(self.dir, obj)
        words[words.index('-o') + 1] = twin
        return words + ['-g', '-gdwarf-5'], twin, source.group(1)

    def compiled(self, obj):
        """OBJ's twin, compiled again unless its stamp (the build's object,
        its source file and the command) is unchanged."""
        words, twin, source = self.command(obj)
        stamp = '%s\n%s\n%s\n' % (digest(os.path.join(self.build, obj)),
                                  digest(os.path.join(self.build, source)), shlex.join(words))
        try:
            if open(twin + '.stamp').read() == stamp and os.path.isfile(twin):
                return twin
        except OSError:
            pass
        os.makedirs(os.path.dirname(twin), exist_ok=True)
        run(words, cwd=self.build)
        if os.path.isfile(os.path.join(self.build, OBJTOOL)):
            run([OBJTOOL, '--hacks=jump_label', twin], cwd=self.build)
        with open(twin + '.stamp', 'w') as f:
            f.write(stamp)
        return twin

    def lines(self, name, address, size, vmlinux, addresses):
        """{address: file:line} of the function NAME at ADDRESS in VMLINUX,
        from the first of its objects whose twin has the same bytes."""
        objects = self.objects_of(name)
        if not objects:
            raise Refused('no object of %s in %s/vmlinux.a' % (name, self.build))
        booted = vmlinux_bytes(vmlinux, address, size)
        why = []
        for obj in objects:
            twin = self.compiled(obj)
            found = symbol(twin, name)
            if not found:
                why.append('%s has no %s' % (twin, name))
                continue
            section, offset, twin_size = found
            difference = compare(twin, section, offset, twin_size, booted)
            if difference:
                why.append('%s in %s %s' % (name, twin, difference))
                os.remove(twin + '.stamp')    # compiled again next time
                continue
            return source_lines(twin, section[1], {a: offset + a - address for a in addresses})
        raise Refused('%s: not the booted bytes: %s' % (name, '; '.join(why)))


def symbol(obj, name):
    """(section, value, size) of OBJ's function NAME, or None."""
    by_index = {s[0]: s for s in sections(obj)}
    for line in run(['readelf', '-s', '-W', obj]).splitlines():
        f = line.split()
        if len(f) == 8 and f[7] == name and f[3] == 'FUNC' and f[6].isdigit():
            return by_index[int(f[6])], int(f[1], 16), int(f[2], 0)
    return None


def relocated(obj, section, start, size):
    """The offsets into [start, start + size) of SECTION that relocations
    fill in."""
    out, inside = set(), False
    for line in run(['readelf', '-r', '-W', obj]).splitlines():
        m = re.match(r"Relocation section '(\S+)'", line)
        if m:
            inside = m.group(1) == '.rela' + section
            continue
        f = line.split()
        if inside and len(f) >= 3 and re.fullmatch(r'[0-9a-f]+', f[0]):
            at = int(f[0], 16)
            if start <= at < start + size:
                out.update(range(at - start, at - start + RELOCATION_SIZES.get(f[2], 4)))
    return out


def compare(obj, section, start, size, booted):
    """What differs between the twin's function and the booted bytes, or ''."""
    if size != len(booted):
        return 'is %d bytes, the booted one %d' % (size, len(booted))
    _, name, _, offset, _ = section
    bytes_ = read_bytes(obj, offset + start, size)
    masked = relocated(obj, name, start, size)
    for i in range(size):
        if i not in masked and bytes_[i] != booted[i]:
            return 'differs at +0x%x (0x%02x, booted 0x%02x)' % (i, bytes_[i], booted[i])
    return ''


def source_lines(obj, section, offsets):
    """{address: innermost file:line} of OBJ's SECTION at {address: offset}."""
    order = sorted(offsets)
    out = run(['addr2line', '-e', obj, '-j', section, '-a', '-f', '-i', '-p']
              + ['0x%x' % offsets[a] for a in order])
    lines, by_offset = {}, {offsets[a]: a for a in order}
    for line in out.splitlines():
        m = re.match(r'0x([0-9a-f]+): \S+ at (\S+)', line)
        if m and int(m.group(1), 16) in by_offset:
            lines[by_offset[int(m.group(1), 16)]] = m.group(2)
    return lines
