#!/usr/bin/env python3
"""scripts/sycl_extract.py - the SPIR-V device images of DPC++-built shared objects.

Usage:
  sycl_extract.py --out=DIR [--label-root=DIR] [--subset] SO...

Reads each shared object's offload descriptors and writes one module per device
image.  The images are never found by scanning for the SPIR-V magic: their bounds
come from the tables DPC++'s offload wrapper (clang-offload-wrapper) emits:

  sycl_device_binaries_struct  (__sycl_register_lib's argument, .data.rel.ro)
      u16 Version(1), u16 NumDeviceBinaries, ptr DeviceBinaries,
      ptr HostEntriesBegin, ptr HostEntriesEnd
  sycl_device_binary_struct    (array of NumDeviceBinaries, .data.rel.ro)
      u16 Version, u8 Kind (4 = SYCL), u8 Format (0 none, 1 native, 2 SPIR-V,
      3 LLVM bitcode, 4 compressed), ptr DeviceTargetSpec ("spir64"...),
      ptr CompileOptions, ptr LinkOptions, [Version 2 of the layout: ptr
      ManifestStart, ptr ManifestEnd,] ptr BinaryStart, ptr BinaryEnd,
      ptr EntriesBegin, ptr EntriesEnd, ptr PropertySetsBegin, ptr PropertySetsEnd
  offload entry                (32 bytes: ptr addr, ptr name, u64 size,
                                i32 flags, i32 reserved): the kernel names
  property set                 (ptr Name, ptr PropertiesBegin, ptr End) of
                                properties (ptr Name, ptr ValAddr, u32 Type,
                                u64 ValSize)
  .tgtimg                      (address, size) pairs, one per image: a cross-check

The pointers in a shared object are dynamic relocations (R_X86_64_RELATIVE in
.rela.dyn), so every pointer is read through the relocation table.  The images
themselves live in section __CLANG_OFFLOAD_BUNDLE__sycl-<target>.  An image whose
Format is 4 or that starts with zstd's magic is decompressed (Python's zstandard);
an image that is an LLVM offload binary (magic 0x10FF10AD, the format of section
.llvm.offloading) is unpacked to its inner images.  A section .llvm.offloading in
the shared object itself (the new offload model, before linking) is read too.

Output (DIR):
  <lib>/<NNNN>.spv     one module per image of library <lib> (the .so path
                       below --label-root, '/' -> '.', without the CPython
                       suffix), NNNN its index in the descriptor
  images.tsv           one line per image: module  library  kernels  format
                       compressed  target  bytes  sha256  entries  properties
                       (kernels: the count of OpEntryPoint Kernel; entries:
                       the wrapper's entry table, comma-separated mangled names)
  kernels.tsv          module  library  mangled  demangled (c++filt)
  elf.tsv              library  sections  images  descriptor_version  layout
Images without a kernel (DPC++ writes an empty module, 88 bytes, for a library
with no device code of its own) are listed, not written.
--subset=LIST: write only these modules (comma-separated), the images scripts/sycl-corpus.sh --subset picks (see there);
every image is still read and listed in images.tsv with module '-'.
"""
import hashlib
import os
import struct
import subprocess
import sys

try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    sys.exit("sycl_extract.py: needs pyelftools (pip install pyelftools)")

R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_RELATIVE = 1, 6, 8
SPIRV_MAGIC = 0x07230203
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
OFFLOAD_MAGIC = 0x10FF10AD
FORMATS = {0: "none", 1: "native", 2: "spirv", 3: "llvmbc", 4: "compressed"}


class Elf:
    def __init__(self, path):
        self.f = open(path, "rb")
        self.e = ELFFile(self.f)
        self.secs = [s for s in self.e.iter_sections()]
        self.alloc = [s for s in self.secs if s["sh_addr"] and s["sh_size"]]
        self.cache = {}
        self.rel = {}
        for s in self.secs:
            if s.header.sh_type != "SHT_RELA":
                continue
            symtab = self.e.get_section(s.header.sh_link) if s.header.sh_link else None
            for r in s.iter_relocations():
                t = r["r_info_type"]
                if t == R_X86_64_RELATIVE:
                    self.rel[r["r_offset"]] = r["r_addend"]
                elif t in (R_X86_64_64, R_X86_64_GLOB_DAT) and symtab is not None:
                    sym = symtab.get_symbol(r["r_info_sym"])
                    if sym["st_shndx"] != "SHN_UNDEF":
                        self.rel[r["r_offset"]] = sym["st_value"] + r["r_addend"]

    def sec(self, addr):
        for s in self.alloc:
            if s["sh_addr"] <= addr < s["sh_addr"] + s["sh_size"]:
                return s
        return None

    def data(self, s):
        if s.name not in self.cache:
            self.cache[s.name] = b"" if s["sh_type"] == "SHT_NOBITS" else s.data()
        return self.cache[s.name]

    def read(self, addr, n):
        s = self.sec(addr)
        if s is None:
            raise ValueError("address %#x in no section" % addr)
        o = addr - s["sh_addr"]
        d = self.data(s)
        if not d:
            return b"\0" * n
        return d[o:o + n]

    def u(self, addr, fmt):
        return struct.unpack("<" + fmt, self.read(addr, struct.calcsize(fmt)))[0]

    def ptr(self, addr):
        if addr in self.rel:
            return self.rel[addr]
        return self.u(addr, "Q")

    def cstr(self, addr):
        if not addr:
            return ""
        s = self.sec(addr)
        d = self.data(s)
        o = addr - s["sh_addr"]
        end = d.index(b"\0", o)
        return d[o:end].decode("utf-8", "replace")


def unpack_offload_binary(buf):
    """LLVM's OffloadBinary: header {u32 magic, u32 version, u64 size,
    u64 entry_offset, u64 entry_size}, entry {u16 image_kind, u16 offload_kind,
    u32 flags, u64 string_offset, u64 num_strings, u64 image_offset,
    u64 image_size}.  Returns [(image bytes, image_kind, strings)]; several
    binaries may follow one another."""
    out = []
    pos = 0
    while pos + 32 <= len(buf):
        magic, _ver, size, eoff, _esz = struct.unpack_from("<IIQQQ", buf, pos)
        if magic != OFFLOAD_MAGIC:
            break
        b = buf[pos:pos + size]
        kind, _okind, _flags, soff, nstr, ioff, isz = struct.unpack_from("<HHIQQQQ", b, eoff)
        strings = {}
        for i in range(nstr):
            ko, vo = struct.unpack_from("<QQ", b, soff + 16 * i)
            strings[b[ko:b.index(b"\0", ko)].decode()] = b[vo:b.index(b"\0", vo)].decode()
        out.append((b[ioff:ioff + isz], kind, strings))
        pos += (size + 7) & ~7
    return out


def decompress(img):
    try:
        import zstandard
    except ImportError:
        sys.exit("sycl_extract.py: a compressed image needs zstandard (pip install zstandard)")
    return zstandard.ZstdDecompressor().decompress(img, max_output_size=1 << 31)


def spirv_kernels(img):
    """Names of the OpEntryPoint Kernel (execution model 6) of a SPIR-V module."""
    if len(img) < 20 or struct.unpack_from("<I", img, 0)[0] != SPIRV_MAGIC:
        return None
    names = []
    words = len(img) // 4
    i = 5
    while i < words:
        w = struct.unpack_from("<I", img, 4 * i)[0]
        op, n = w & 0xFFFF, w >> 16
        if n == 0:
            break
        if op == 15 and struct.unpack_from("<I", img, 4 * i + 4)[0] == 6:
            raw = img[4 * i + 12:4 * (i + n)]
            names.append(raw[:raw.index(b"\0")].decode("utf-8", "replace"))
        if op == 54:   # OpFunction: no more entry points
            break
        i += n
    return names


def find_binary_structs(elf):
    """Every sycl_device_binary_struct: 8-byte aligned, Kind 4, a target spec
    string and BinaryStart..End inside an allocated section.  Found through the
    relocation table (a struct's DeviceTargetSpec is a relocated pointer)."""
    found = {}
    for off in sorted(elf.rel):
        base = off - 8
        if base % 8:
            continue
        s = elf.sec(base)
        if s is None or s["sh_type"] == "SHT_NOBITS":
            continue
        try:
            ver, kind, fmt = struct.unpack("<HBB", elf.read(base, 4))
        except (ValueError, struct.error):
            continue
        if kind != 4 or not 1 <= ver <= 4:
            continue
        try:
            spec = elf.cstr(elf.ptr(base + 8))
        except (ValueError, AttributeError):
            continue
        if not (spec.startswith("spir") or spec.startswith("native") or spec.startswith("intel")
                or spec.startswith("__SYCL")):
            continue
        # layout: with or without ManifestStart/End before BinaryStart
        for bin_at, layout in ((32, "no-manifest"), (48, "manifest")):
            st, en = elf.ptr(base + bin_at), elf.ptr(base + bin_at + 8)
            if st and en > st and elf.sec(st) is not None and elf.sec(st) is elf.sec(en - 1):
                found[base] = dict(version=ver, format=fmt, spec=spec, start=st, end=en,
                                   layout=layout, base=base,
                                   compile=elf.cstr(elf.ptr(base + 16)),
                                   link=elf.cstr(elf.ptr(base + 24)),
                                   ents=(elf.ptr(base + bin_at + 16), elf.ptr(base + bin_at + 24)),
                                   props=(elf.ptr(base + bin_at + 32), elf.ptr(base + bin_at + 40)))
                break
    return found


def find_descriptors(elf, structs):
    """sycl_device_binaries_struct: {u16 Version, u16 Num, ptr DeviceBinaries, ...}
    whose DeviceBinaries points at a found binary struct."""
    descs = []
    for off, val in elf.rel.items():
        if val in structs:
            base = off - 8
            try:
                ver, num = struct.unpack("<HH", elf.read(base, 4))
            except (ValueError, struct.error):
                continue
            if ver >= 1 and num >= 1:
                descs.append((base, ver, num, val))
    return descs


def entries(elf, b):
    out = []
    a, e = b["ents"]
    while a and a < e:
        out.append(elf.cstr(elf.ptr(a + 8)))
        a += 32
    return out


def properties(elf, b):
    out = []
    a, e = b["props"]
    while a and a < e:
        name = elf.cstr(elf.ptr(a))
        pb, pe = elf.ptr(a + 8), elf.ptr(a + 16)
        out.append("%s:%d" % (name, (pe - pb) // 32 if pe > pb else 0))
        a += 24
    return out


def images_of(path):
    """[(image dict)] of one shared object, plus a summary for elf.tsv."""
    elf = Elf(path)
    names = [s.name for s in elf.secs]
    bundle = [n for n in names if n.startswith("__CLANG_OFFLOAD_BUNDLE__")]
    summary = dict(sections=",".join(bundle + [n for n in (".tgtimg", ".llvm.offloading") if n in names]))
    imgs = []
    structs = find_binary_structs(elf)
    descs = find_descriptors(elf, structs)
    order = []
    seen = set()
    for base, ver, num, first in descs:
        stride = 80 if structs[first]["layout"] == "no-manifest" else 96
        for i in range(num):
            b = base_b = first + i * stride
            if base_b in structs and base_b not in seen:
                seen.add(base_b)
                order.append(structs[base_b])
        summary["descriptor_version"] = "binaries v%d, binary v%d" % (ver, structs[first]["version"])
        summary["layout"] = structs[first]["layout"]
    missing = [b for k, b in sorted(structs.items()) if k not in seen]
    if missing:   # a binary struct no descriptor reaches: still an image the wrapper made
        order += missing
    # cross-check with .tgtimg
    tgt = [s for s in elf.secs if s.name == ".tgtimg"]
    if tgt:
        t = tgt[0]
        pairs = set()
        for a in range(t["sh_addr"], t["sh_addr"] + t["sh_size"], 16):
            pairs.add((elf.ptr(a), elf.u(a + 8, "Q")))
        mine = set((b["start"], b["end"] - b["start"]) for b in order)
        summary["tgtimg"] = "%d pairs, %s" % (len(pairs), "match" if pairs == mine else
                                             "DIFFER (%d only in .tgtimg, %d only in descriptors)"
                                             % (len(pairs - mine), len(mine - pairs)))
    for idx, b in enumerate(order):
        raw = elf.read(b["start"], b["end"] - b["start"])
        comp = "no"
        img = raw
        if b["format"] == 4 or raw[:4] == ZSTD_MAGIC:
            img = decompress(raw)
            comp = "zstd"
        inner = [(img, None)]
        if len(img) >= 4 and struct.unpack_from("<I", img, 0)[0] == OFFLOAD_MAGIC:
            inner = [(x[0], x[2].get("triple")) for x in unpack_offload_binary(img)]
        for k, (im, triple) in enumerate(inner):
            imgs.append(dict(index=idx if len(inner) == 1 else "%d.%d" % (idx, k), data=im,
                             raw_bytes=len(raw), compressed=comp, format=FORMATS.get(b["format"], b["format"]),
                             target=triple or b["spec"], entries=entries(elf, b), props=properties(elf, b),
                             compile=b["compile"], link=b["link"]))
    if ".llvm.offloading" in names:
        s = elf.e.get_section_by_name(".llvm.offloading")
        for k, (im, kind, strs) in enumerate(unpack_offload_binary(s.data())):
            imgs.append(dict(index="ob%d" % k, data=im, raw_bytes=len(im), compressed="no",
                             format="offload-binary kind %d" % kind, target=strs.get("triple", "?"),
                             entries=[], props=[], compile="", link=""))
    summary["images"] = len(imgs)
    return imgs, summary


def label(path, root):
    rel = os.path.relpath(path, root) if root else os.path.basename(path)
    base = rel.split(".cpython-")[0] if ".cpython-" in rel else rel.rsplit(".so", 1)[0]
    return base.replace("/", ".")


def demangle(names):
    if not names:
        return []
    try:
        p = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                           text=True, check=True)
        out = p.stdout.split("\n")[:len(names)]
        if len(out) == len(names):   # DPC++ names a kernel by its type: _ZTS...
            return [o[len("typeinfo name for "):] if o.startswith("typeinfo name for ") else o
                    for o in out]
    except (OSError, subprocess.CalledProcessError):
        pass
    return names


def summarize(out):
    """Markdown tables from a --check run: per pass the kernels it applied to,
    what blocks the rest (remarks normalised: ids, numbers and kernel names
    replaced; counted in kernels), the failures, the NOT verified reasons."""
    import collections
    import re

    def norm(t):
        t = re.sub(r"_Z[A-Za-z0-9_]+", "K", t)
        t = re.sub(r"%[A-Za-z0-9_.]+", "%N", t)
        t = re.sub(r"(?<![A-Za-z])\d+(\.\d+)?", "N", t)
        return t.strip().replace("|", "\\|")

    applied, seen = collections.defaultdict(set), collections.defaultdict(set)
    reasons = collections.defaultdict(set)
    read = set(l.split("\t")[0] for l in open(os.path.join(out, "check.tsv"))
               if not l.startswith("#") and l.split("\t")[3] == "0")
    # A remark names the function it is about: simplify-cfg and
    # generic-address name helpers ("%15", a demangled-less _ZN... name).
    # In a module of one kernel that function is the kernel's: counted as
    # the kernel, so that the table counts kernels, not functions.
    kernels_of = {}
    for line in open(os.path.join(out, "manifest.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 4:
            kernels_of[f[0]] = f[3].split(",")
    for line in open(os.path.join(out, "remarks.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5 or f[0] not in read:   # remarks of a module xeopt read
            continue
        m, k, p, st, msg = f[:5]
        ks = kernels_of.get(m, [])
        if k not in ks and len(ks) == 1:
            k = ks[0]
        seen[p].add((m, k))
        if st.startswith("applied"):
            applied[p].add((m, k))
        else:
            reasons[(p, norm(msg))].add((m, k))
    kernels, errs = 0, collections.Counter()
    for line in open(os.path.join(out, "check.tsv")):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if f[3] == "0":
            kernels += int(f[1])
        failed = f[3] != "0" or f[5] != "0" or f[8] not in ("0", "-") or f[9] not in ("0", "-")
        if failed and f[-1] != "-":
            errs[norm(re.sub(r"^xeopt: error: \S+: ", "xeopt: ", f[-1]))] += 1
    print("\nPer pass, of the %d kernels xeopt read: kernels it applied to, kernels "
          "with a remark of it\n" % kernels)
    print("| pass | applied | with a remark |\n| --- | --- | --- |")
    for p in sorted(seen, key=lambda p: (-len(applied[p]), p)):
        print("| %s | %d | %d |" % (p, len(applied[p]), len(seen[p])))
    print("\nWhat blocks the rest (pass, remark normalised -> kernels with it)\n")
    print("| pass | remark | kernels |\n| --- | --- | --- |")
    for (p, r), ks in sorted(reasons.items(), key=lambda x: (-len(x[1]), x[0]))[:30]:
        print("| %s | %s | %d |" % (p, r[:180], len(ks)))
    print("\nFailures (first message, normalised -> modules)\n")
    print("| message | modules |\n| --- | --- |")
    for e, n in errs.most_common(15):
        print("| %s | %d |" % (e[:200], n))
    nv = collections.Counter()
    for line in open(os.path.join(out, "notverified.tsv")):
        if "\t" in line:
            nv[norm(line.rstrip("\n").split("\t", 1)[1])] += 1
    print("\n--verify: why kernels are NOT verified (normalised -> kernels)\n")
    print("| reason | kernels |\n| --- | --- |")
    for e, n in nv.most_common(15):
        print("| %s | %d |" % (e[:200], n))


def main(argv):
    out, root, subset, sos = None, None, None, []
    for a in argv:
        if a.startswith("--out="):
            out = a[6:]
        elif a.startswith("--label-root="):
            root = a[13:]
        elif a == "--subset":
            subset = True
        elif a.startswith("--summarize="):
            summarize(a[12:])
            return 0
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            sos.append(a)
    if not out:
        sys.exit("sycl_extract.py: --out=DIR is required")
    os.makedirs(out, exist_ok=True)
    rows, krows, erows, found = [], [], [], []
    for so in sorted(sos):
        lib = label(so, root)
        imgs, summ = images_of(so)
        erows.append([lib, summ.get("sections", ""), str(summ["images"]),
                      summ.get("descriptor_version", "-"), summ.get("layout", "-"),
                      summ.get("tgtimg", "-"), str(os.path.getsize(so))])
        width = max(4, len(str(len(imgs))))
        for im in imgs:
            idx = im["index"]
            name = ("%0*d" % (width, idx)) if isinstance(idx, int) else str(idx)
            found.append((lib, "%s/%s.spv" % (lib, name), im, spirv_kernels(im["data"])))
    if subset:
        # per library: its first two images with kernels, and the one with the most
        pick, seen, best = set(), {}, {}
        for lib, mod, im, ks in found:
            if not ks:
                continue
            seen[lib] = seen.get(lib, 0) + 1
            if seen[lib] <= 2:
                pick.add(mod)
            if lib not in best or len(ks) > best[lib][0]:
                best[lib] = (len(ks), mod)
        pick |= set(m for _, m in best.values())
    for lib, mod, im, ks in found:
        write = bool(ks) and (not subset or mod in pick)
        if write:
            os.makedirs(os.path.join(out, lib), exist_ok=True)
            with open(os.path.join(out, mod), "wb") as f:
                f.write(im["data"])
        h = hashlib.sha256(im["data"]).hexdigest()[:16]
        rows.append([mod if write else "-", lib, str(len(ks)) if ks is not None else "not-spirv",
                     im["format"], im["compressed"], im["target"], str(len(im["data"])), h,
                     ",".join(im["entries"]) or "-", ",".join(im["props"]) or "-", mod])
        if write:
            for k in ks:
                krows.append([mod, lib, k])
    for r, d in zip(krows, demangle([r[2] for r in krows])):   # one c++filt for all
        r.append(d)
    with open(os.path.join(out, "images.tsv"), "w") as f:
        f.write("#module\tlibrary\tkernels\tformat\tcompressed\ttarget\tbytes\tsha256\tentries\tproperties\timage\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    with open(os.path.join(out, "kernels.tsv"), "w") as f:
        f.write("#image\tlibrary\tmangled\tdemangled\n")
        for r in krows:
            f.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    with open(os.path.join(out, "elf.tsv"), "w") as f:
        f.write("#library\tsections\timages\tdescriptor\tlayout\ttgtimg\tso_bytes\n")
        for r in erows:
            f.write("\t".join(r) + "\n")
    n = sum(1 for r in rows if r[0] != "-")
    print("sycl_extract: %d libraries, %d images; %d modules with %d kernels written to %s"
          % (len(erows), len(rows), n, len(krows), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
