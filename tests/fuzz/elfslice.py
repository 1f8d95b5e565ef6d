#!/usr/bin/env python3
"""Cut a small ELF seed out of a large real shared object, for the ELF fuzz corpus.

    elfslice.py IN OUT [--budget BYTES] [--no-sections] [--keep NAME ...]

Keeps the file header and the small sections the reader looks at (.dynamic, .dynstr, the
symbol-version sections, .interp, notes, hash tables, .dynsym, .shstrtab), packed one after the
other, within BUDGET bytes (default 24576), in that order of preference; a section that does not fit
is left out. The program headers are rebuilt: one PT_LOAD per kept allocated section (so every
address in .dynamic still maps to its bytes), PT_DYNAMIC / PT_INTERP / PT_NOTE moved with their
sections. Headers of the sections left out keep their name, type and address, with offset and size
0. --no-sections drops the section header table (e_shoff 0), as `strip --strip-section-headers`
would, so the reader must go through PT_DYNAMIC alone. The result is a slice of the original file
(a few KB of its headers and string tables), not a working library: nothing executable is copied.
"""
import mmap
import struct
import sys

PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_NOTE, PT_PHDR = 1, 2, 3, 4, 6
SHT_NOBITS = 8
SHF_ALLOC = 2

PREFERENCE = [".dynamic", ".dynstr", ".gnu.version_d", ".gnu.version_r", ".interp",
              ".note.gnu.build-id", ".note.ABI-tag", ".note.gnu.property", ".gnu.hash", ".hash",
              ".dynsym", ".gnu.version"]


def main(argv):
    args = argv[1:]
    budget, nosec, extra = 24576, False, []
    pos = []
    while args:
        a = args.pop(0)
        if a == "--budget":
            budget = int(args.pop(0))
        elif a == "--no-sections":
            nosec = True
        elif a == "--keep":
            extra.append(args.pop(0))
        else:
            pos.append(a)
    if len(pos) != 2:
        sys.exit(__doc__)
    with open(pos[0], "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        out = slice_elf(m, budget, nosec, PREFERENCE + extra)
    with open(pos[1], "wb") as f:
        f.write(out)


def slice_elf(m, budget, nosec, preference):
    if m[:4] != b"\x7fELF":
        sys.exit("elfslice: not an ELF file")
    is64, e = m[4] == 2, "<" if m[5] == 1 else ">"
    if is64:
        ehdr_fmt, ph_fmt, sh_fmt = e + "16sHHIQQQIHHHHHH", e + "IIQQQQQQ", e + "IIQQQQIIQQ"
    else:
        ehdr_fmt, ph_fmt, sh_fmt = e + "16sHHIIIIIHHHHHH", e + "IIIIIIII", e + "IIIIIIIIII"
    eh = list(struct.unpack_from(ehdr_fmt, m, 0))
    phoff, shoff, phentsize, phnum, shentsize, shnum, shstrndx = eh[5], eh[6], eh[9], eh[10], eh[11], eh[12], eh[13]
    phs = [list(struct.unpack_from(ph_fmt, m, phoff + i * phentsize)) for i in range(phnum)]
    shs = [list(struct.unpack_from(sh_fmt, m, shoff + i * shentsize)) for i in range(shnum)]
    # field positions differ between the classes
    if is64:
        P_TYPE, P_OFF, P_VA, P_PA, P_FSZ, P_MSZ, P_ALIGN = 0, 2, 3, 4, 5, 6, 7
    else:
        P_TYPE, P_OFF, P_VA, P_PA, P_FSZ, P_MSZ, P_ALIGN = 0, 1, 2, 3, 4, 5, 7
    S_NAME, S_TYPE, S_FLAGS, S_ADDR, S_OFF, S_SIZE = 0, 1, 2, 3, 4, 5
    strs = shs[shstrndx]

    def name(s):
        o = strs[S_OFF] + s[S_NAME]
        return bytes(m[o:m.find(b"\0", o)]).decode()

    names = [name(s) for s in shs]
    ehsize = struct.calcsize(ehdr_fmt)
    used = ehsize + strs[S_SIZE] + (0 if nosec else shnum * shentsize)
    keep = {shstrndx}
    for want in preference:
        for i, n in enumerate(names):
            s = shs[i]
            if n == want and s[S_TYPE] != SHT_NOBITS and i not in keep and used + s[S_SIZE] + 8 <= budget:
                keep.add(i)
                used += s[S_SIZE] + 8
    # lay out: header, kept sections in file order, program headers, section headers
    body = bytearray(ehsize)
    newoff = {}
    for i in sorted(keep, key=lambda i: shs[i][S_OFF]):
        body += b"\0" * (-len(body) % 8)
        newoff[i] = len(body)
        body += m[shs[i][S_OFF]:shs[i][S_OFF] + shs[i][S_SIZE]]
    by_off = {shs[i][S_OFF]: i for i in keep}
    new_phs = []
    for p in phs:
        t = p[P_TYPE]
        if t == PT_LOAD:
            continue  # rebuilt below
        if t == PT_PHDR:
            new_phs.append(p)  # offset patched once the table has its place
            continue
        if p[P_FSZ] == 0:
            new_phs.append(p)  # GNU_STACK and friends carry no bytes
            continue
        i = by_off.get(p[P_OFF])
        if i is None:
            continue  # its bytes were left out
        q = list(p)
        q[P_OFF] = newoff[i]
        q[P_FSZ] = min(p[P_FSZ], shs[i][S_SIZE])
        new_phs.append(q)
    # one PT_LOAD per kept allocated section, in address order, after PT_PHDR/PT_INTERP (gABI order)
    loads = []
    for i in sorted(keep, key=lambda i: shs[i][S_ADDR]):
        s = shs[i]
        if s[S_FLAGS] & SHF_ALLOC and s[S_ADDR]:
            q = [0] * 8
            q[P_TYPE], q[P_OFF], q[P_VA], q[P_PA] = PT_LOAD, newoff[i], s[S_ADDR], s[S_ADDR]
            q[P_FSZ] = q[P_MSZ] = s[S_SIZE]
            q[P_ALIGN] = 8
            if is64:
                q[1] = 4  # PF_R
            else:
                q[6] = 4
            loads.append(q)
    lead = [p for p in new_phs if p[P_TYPE] in (PT_PHDR, PT_INTERP)]
    rest = [p for p in new_phs if p[P_TYPE] not in (PT_PHDR, PT_INTERP)]
    all_phs = lead + loads + rest
    body += b"\0" * (-len(body) % 8)
    new_phoff = len(body)
    for p in all_phs:
        if p[P_TYPE] == PT_PHDR:
            p[P_OFF] = new_phoff
            p[P_FSZ] = p[P_MSZ] = len(all_phs) * phentsize
        body += struct.pack(ph_fmt, *p).ljust(phentsize, b"\0")
    new_shoff = 0
    if not nosec:
        body += b"\0" * (-len(body) % 8)
        new_shoff = len(body)
        for i, s in enumerate(shs):
            q = list(s)
            if i in keep:
                q[S_OFF] = newoff[i]
            elif s[S_TYPE] != SHT_NOBITS and i != 0:
                q[S_OFF], q[S_SIZE] = 0, 0
            body += struct.pack(sh_fmt, *q).ljust(shentsize, b"\0")
    eh[5], eh[6], eh[10] = new_phoff, new_shoff, len(all_phs)
    if nosec:
        eh[11], eh[12], eh[13] = 0, 0, 0
    eh[4] = 0  # e_entry: no code was kept
    body[0:ehsize] = struct.pack(ehdr_fmt, *eh)
    return bytes(body)


if __name__ == "__main__":
    main(sys.argv)
