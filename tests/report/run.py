#!/usr/bin/env python3
"""The HTML report (docs/report.md): `xeopt --report=FILE.html`.

    run.py page     --xeopt X --work DIR   the page's content
    run.py chromium --xeopt X --work DIR   the page renders in headless Chromium

`page` builds tests/report/kernels.cl with clang-15 + llvm-spirv-15, once
with -g (source lines: every remark must sit beside its line) and once
without (the disassembly stands in: a remark naming %N sits beside the
instruction defining it), runs xeopt with --report=r.html and with
--report=r.json, and checks that every kernel and every remark of the JSON
is in the page, escaped, with its kind as a word, and that the page loads
nothing from outside; then puts the source text into the -g module's
OpSource (spirv-dis/spirv-as), names a file that does not exist, and checks
the page shows the module's copy with the remarks at the same lines.
It also checks the per-device table at the top (the model's estimates of
the rewritten kernels per target; with --isa-check IGC's, summed from the
kept rewrites), that each run of the pipeline has a labelled pass table
(plain -O2's first and second run on testdata exec_classify; --isa-check's
rounds), and, with ocloc and iga64, that only the written code's ISA
figures are coloured as a result while a discarded output's are labelled
discarded.

`chromium` opens the -g page in headless Chromium, fails on any console
message, and writes DIR/report.png (a screenshot) and DIR/report-nodebug.png.
Exit 77 (skipped) when Chromium is missing, unless XEOPT_REQUIRE_CHROMIUM=1.
"""
import argparse
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels.cl")
CLANG = os.environ.get("CLANG", "clang-15")
LLVM_SPIRV = os.environ.get("LLVM_SPIRV", "llvm-spirv-15")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        fail("%s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p


def build(work, debug):
    """kernels.cl -> SPIR-V, as testdata/regen.sh does (plus -g)."""
    name = "k_g" if debug else "k"
    bc, spv = os.path.join(work, name + ".bc"), os.path.join(work, name + ".spv")
    for tool in (CLANG, LLVM_SPIRV):
        if not shutil.which(tool):
            print("skip: %s not found" % tool)
            sys.exit(77)
    run([CLANG, "-cl-std=CL2.0"] + (["-g"] if debug else []) +
        ["-target", "spir64", "-c", "-emit-llvm", "-O2", "-Xclang", "-no-opaque-pointers",
         "-Xclang", "-finclude-default-header", "-Xclang", "-cl-ext=+cl_intel_subgroups",
         KERNELS, "-o", bc])
    run([LLVM_SPIRV, "--spirv-ext=+SPV_INTEL_subgroups", bc, "-o", spv])
    return spv


def optimize(xeopt, work, spv, tag):
    opts = ["-O2", "--assume-padded"]
    page = os.path.join(work, tag + ".html")
    rep = os.path.join(work, tag + ".json")
    run([xeopt] + opts + ["--report=" + page, spv, "-o", os.path.join(work, tag + "-out.spv")])
    run([xeopt] + opts + ["--report=" + rep, spv, "-o", os.path.join(work, tag + "-out2.spv")])
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with open(rep, encoding="utf-8") as f:
        remarks = json.load(f)["remarks"]
    return page, text, remarks


class Page(html.parser.HTMLParser):
    """Collects, per kernel section, the rows of the listing (line or
    instruction number, code text, remarks beside it) and all remarks."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.kernel = None
        self.sections = {}
        self.rows = []          # (kernel, number, code, [(kind, pass, msg, where)])
        self.remarks = []       # (kernel, kind, msg) anywhere on the page
        self.cell = None
        self.buf = ""
        self.row = None
        self.rm = None
        self.depth = {}
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        self.tags.append(tag)
        if tag == "section" and "kernel" in cls:
            self.kernel = a.get("id")
            self.sections[self.kernel] = True
        if tag == "tr":
            self.row = [self.kernel, None, None, []]
        if tag == "td" and self.row is not None and cls and cls[0] in ("ln", "code"):
            self.cell, self.buf = cls[0], ""
        if tag == "div" and "rm" in cls:
            kind = [c for c in cls if c in ("applied", "missed", "note")]
            self.rm = {"kind": kind[0] if kind else None, "badge": "", "msg": "", "where": "",
                       "pass": "", "part": None}
        if self.rm is not None and tag in ("span", "div") and cls:
            if cls[0] in ("badge", "msg", "where", "pass"):
                self.rm["part"] = cls[0]

    def handle_endtag(self, tag):
        if self.tags:
            self.tags.pop()
        if tag == "td" and self.cell:
            if self.cell == "ln":
                self.row[1] = self.buf.strip()
            else:
                self.row[2] = self.buf
            self.cell = None
        if tag in ("span",) and self.rm is not None:
            self.rm["part"] = None
        if tag == "div" and self.rm is not None:
            if self.rm["part"] == "msg":
                self.rm["part"] = None
            else:
                r = self.rm
                self.remarks.append((self.kernel, r["kind"], r["msg"], r["badge"]))
                if self.row is not None:
                    self.row[3].append((r["kind"], r["pass"], r["msg"], r["where"], r["badge"]))
                self.rm = None
        if tag == "tr" and self.row is not None:
            if self.row[1] is not None:
                self.rows.append(tuple(self.row))
            self.row = None
        if tag == "section":
            self.kernel = None

    def handle_data(self, data):
        if self.rm is not None and self.rm["part"]:
            self.rm[self.rm["part"]] += data
        elif self.cell:
            self.buf += data


def anchor(kernel):
    return "k-" + "".join(c if c.isalnum() or c in "_-" else ".%02x" % ord(c) for c in kernel)


def check_common(text, remarks, tag):
    p = Page()
    p.feed(text)
    # Self-contained: no script, no stylesheet or image from anywhere.
    low = text.lower()
    for bad in ("<script", "<link", "<img", "<iframe", "@import", "url(", "src="):
        if bad in low:
            fail("%s: the page has %r (it must load nothing)" % (tag, bad))
    if re.search(r"(href|src)\s*=\s*\"(https?:|//)", low):
        fail("%s: the page links outside" % tag)
    if "<code>i < n" in text or "if (i < n)" in text:
        fail("%s: '<' from the source is not escaped" % tag)
    for k in ("report_copy", "report_wide"):
        if anchor(k) not in p.sections:
            fail("%s: no section for kernel %s" % (tag, k))
        if ">%s</code></a>" % k not in text:
            fail("%s: kernel %s is not in the summary table" % (tag, k))
    # Every remark of the JSON report is on the page, in its kernel's
    # section, with its kind as a word beside the colour.
    for r in remarks:
        hits = [x for x in p.remarks if x[2] == r["message"] and x[1] == r["kind"]]
        if not hits:
            fail("%s: remark not on the page: %r" % (tag, r))
        if r.get("kernel") and not any(x[0] == anchor(r["kernel"]) for x in hits):
            fail("%s: remark not in kernel %s's section: %r" % (tag, r["kernel"], r))
        if not any(r["kind"] in x[3].lower() for x in hits):
            fail("%s: remark's kind is not written out: %r" % (tag, r))
    return p


def rows_with(p, kernel, pred):
    return [row for row in p.rows if row[0] == anchor(kernel) and any(pred(m) for m in row[3])]


def check_debug(p, remarks, guard_line=True):
    # padding's remark names kernels.cl:8, the guard `if (i < n)` (padding
    # takes the line from OpLine: not with NonSemantic debug info).
    guard = [r for r in remarks if r["pass"] == "padding" and r["kernel"] == "report_copy"
             and (guard_line or re.search(r"\.cl:\d+", r["message"]))]
    if not guard and guard_line:
        fail("-g: no padding remark for report_copy (got %r)" % remarks)
    for r in guard:
        rows = rows_with(p, "report_copy", lambda m: m[2] == r["message"])
        m = re.search(r"kernels\.cl:(\d+)", r["message"])
        want = m.group(1) if m else None
        if not rows or (want and rows[0][1] != want) or "if (i < n)" not in (rows[0][2] or ""):
            fail("-g: padding's remark is not beside `if (i < n)`: %r" % (rows,))
    # block-io's loads (named %arrayidx...) are beside the load's line.
    loads = [r for r in remarks if r["pass"] == "block-io" and r["kernel"] == "report_wide"
             and r["message"].startswith("load via")]
    if not loads:
        fail("-g: no block-io load remark for report_wide")
    for r in loads:
        rows = rows_with(p, "report_wide", lambda m: m[2] == r["message"])
        if not rows or "p[base + k * 16 + lane]" not in (rows[0][2] or ""):
            fail("-g: block-io's remark %r is not beside its load: %r" % (r["message"], rows))
        if r["kind"] == "applied" and "applied" not in rows[0][3][0][4].lower():
            fail("-g: an applied remark is not marked 'applied'")
    # Every remark of a kernel is in the listing (a line, or the first
    # line as kernel-wide).
    for r in remarks:
        if r.get("kernel") and not rows_with(p, r["kernel"], lambda m: m[2] == r["message"]):
            if "ISA estimate" not in r["message"]:
                fail("-g: remark not beside any source line: %r" % r)


def check_nodebug(p, remarks, text):
    # No line information: the disassembly, with a remark naming %N beside
    # the instruction that defines %N.
    placed = 0
    for r in remarks:
        m = re.search(r"%(\d+)\b", r["message"])
        if not r.get("kernel") or not m:
            continue
        rows = rows_with(p, r["kernel"], lambda x: x[2] == r["message"])
        if not rows:
            fail("no -g: remark %r not in the disassembly" % r)
        ids = re.findall(r"%(\d+)\b", r["message"])
        if not any((rows[0][2] or "").startswith("%%%s = " % i) for i in ids):
            fail("no -g: remark %r is beside %r, not its instruction" % (r["message"], rows[0][2]))
        placed += 1
    if not placed:
        fail("no -g: no remark names an id (%r)" % remarks)
    # --assume-padded removed the guard: the host requirements say so.
    if "Pad buffer" not in text:
        fail("no -g: the manifest's padding requirement is not on the page")


DEVICES = ("dg2", "pvc", "bmg", "lnl", "ptl")


def device_rows(text):
    """The per-device table at the top: {device: [cells]}."""
    top = text.split("<h2>Summary</h2>")[0]
    if "<h2>Per device</h2>" not in top:
        fail("no per-device table before the summary")
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", top.split("<h2>Per device</h2>")[1]):
        cells = [re.sub(r"<[^>]*>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
        if cells:
            rows[cells[0]] = cells
    return rows


def run_headings(text):
    """The labels of the pass tables' runs, in page order, and the one written."""
    sec = text.split("<h2>Passes</h2>")[1] if "<h2>Passes</h2>" in text else ""
    runs = re.findall(r'<h3 class="run">(.*?) &middot; (written|not written)</h3>', sec)
    return runs, sec.count('<table class="stats">')


def runs_and_devices(xeopt, work, spv):
    """Plain -O2: the per-device table names every device the model
    targets, with the model's estimate of the rewritten kernels; a module
    plain -O2 runs twice (testdata exec_classify) labels both runs, the
    second written."""
    page, text, remarks = optimize(xeopt, work, spv, "devices")
    rows = device_rows(text)
    if sorted(rows) != sorted(DEVICES):
        fail("per device: rows %r, not the default targets %r" % (sorted(rows), DEVICES))
    for d, c in rows.items():
        # device, rewritten, kept, before, after, change
        if c[1] != "2" or c[2] != "0" or not re.match(r"^\d+$", c[3]) or not re.match(r"^\d+\D*$", c[4]):
            fail("per device: row %r lacks the 2 rewritten kernels' estimates" % c)
        if int(re.match(r"\d+", c[4]).group()) >= int(c[3]):
            fail("per device: the model's estimate of the rewrite does not fall on %s: %r" % (d, c))
    two = os.path.join(HERE, "..", "..", "testdata", "spv", "exec_classify.spv")
    page2 = os.path.join(work, "two-runs.html")
    run([xeopt, "-O2", "--report=" + page2, two, "-o", os.path.join(work, "two-runs.spv")])
    with open(page2, encoding="utf-8") as f:
        runs, tables = run_headings(f.read())
    if runs != [("second run", "written"), ("first run", "not written")] or tables != 2:
        fail("plain -O2's two runs are not labelled, the second written: %r (%d tables)" % (runs, tables))


def isa_check(xeopt, work, spv):
    """--isa-check: IGC rewrites report_copy again with the cost model
    asked (the first output is discarded).  Only the written code's
    figures are coloured as a result; the discarded ones are labelled so;
    every run of the pipeline has a label, one written; the per-device
    table sums the kept rewrites' figures."""
    if not shutil.which("ocloc") or not shutil.which("iga64"):
        print("note: ocloc/iga64 not found, --isa-check's page not checked")
        return
    page = os.path.join(work, "isa.html")
    rep = os.path.join(work, "isa.json")
    for out in (page, rep):
        run([xeopt, "-O2", "--assume-padded", "--isa-check=dg2,pvc", "--report=" + out, spv,
             "-o", os.path.join(work, "isa.spv")])
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with open(rep, encoding="utf-8") as f:
        report = json.load(f)
    remarks = report["remarks"]
    check_common(text, remarks, "isa-check")
    redone = [r for r in remarks if r["pass"] == "isa-check" and r["message"].startswith("rewritten again")]
    kept = [r for r in remarks if r["pass"] == "isa-check" and r["message"].startswith("rewrite kept")]
    if not redone or not kept:
        fail("isa-check: expected a discarded and a kept output, got %r" % remarks)
    boxes = re.findall(r'<div class="box( discarded)?">(.*?)</table></div>', text, re.S)
    for disc, body in boxes:
        coloured = 'class="better"' in body or 'class="worse"' in body
        if "rewrite kept: ISA estimate" in body:
            if disc or not coloured:
                fail("isa-check: the written code's figures are not shown as the result")
        elif coloured or not disc or "Discarded attempt" not in body and "Comparison" not in body:
            fail("isa-check: a discarded output's figures are shown as a result: %s" % body[:300])
    if not any(d for d, _ in boxes):
        fail("isa-check: no discarded output on the page")
    # Every run labelled, the written one first and once.
    passes = report["passes"]
    if any("run" not in p for p in passes):
        fail("isa-check: a pass entry of the JSON report names no run")
    shipped = {p["run"] for p in passes if p.get("shipped")}
    if len(shipped) != 1 or not next(iter(shipped)).startswith("isa-check round"):
        fail("isa-check: not one written round: %r" % shipped)
    runs, tables = run_headings(text)
    labels = []
    for p in passes:
        if not labels or labels[-1] != p["run"]:
            labels.append(p["run"])
    if tables != len(labels) or runs[0] != (next(iter(shipped)), "written") or \
            sorted(r for r, _ in runs) != sorted(labels):
        fail("isa-check: the pass tables are not labelled by run: %r vs %r" % (runs, labels))
    # Per device: dg2 and pvc, IGC's figures of the kept rewrites summed.
    rows = device_rows(text)
    if sorted(rows) != ["dg2", "pvc"]:
        fail("isa-check: per device rows %r" % sorted(rows))
    for d in ("dg2", "pvc"):
        a = c = 0
        for r in kept:
            m = re.search(r"\b%s (\d+) -> (\d+)" % d, r["message"])
            a, c = a + int(m.group(1)), c + int(m.group(2))
        if rows[d][3] != str(a) or rows[d][4] != str(c):
            fail("isa-check: per device %s shows %r, the kept rewrites say %d -> %d" % (d, rows[d], a, c))


def embedded(xeopt, work, spv_g):
    """The -g module with the source text in OpSource and its OpString
    naming a file that does not exist: the page must show the module's
    copy of the text."""
    for tool in ("spirv-dis", "spirv-as"):
        if not shutil.which(tool):
            print("note: %s not found, embedded OpSource text not checked" % tool)
            return
    asm = run(["spirv-dis", "--raw-id", spv_g]).stdout
    with open(KERNELS, encoding="utf-8") as f:
        src = f.read()
    m = re.search(r'(%\d+) = OpString "([^"]*kernels\.cl)"', asm)
    if not m or "OpSource OpenCL_C" not in asm:
        fail("embedded: no OpString naming kernels.cl in the -g module")
    fid = m.group(1)
    asm = asm.replace('"%s"' % m.group(2), '"/nonexistent/kernels.cl"')
    text = src.replace("\\", "\\\\").replace('"', '\\"')
    asm = re.sub(r"OpSource OpenCL_C (\d+)\n",
                 lambda x: 'OpSource OpenCL_C %s %s "%s"\n' % (x.group(1), fid, text), asm, count=1)
    sasm, spv = os.path.join(work, "embedded.spvasm"), os.path.join(work, "embedded.spv")
    with open(sasm, "w", encoding="utf-8") as f:
        f.write(asm)
    run(["spirv-as", "--target-env", "spv1.4", sasm, "-o", spv])
    page, text, remarks = optimize(xeopt, work, spv, "embedded")
    if "(embedded in the module)" not in text:
        fail("embedded: the page does not use the module's source text")
    p = check_common(text, remarks, "embedded")
    check_debug(p, remarks)


def nonsemantic(xeopt, work):
    """NonSemantic.Shader.DebugInfo lines (DebugSource/DebugLine, line
    numbers as constants): with clang-21 + llvm-spirv-21 (scripts/toolchains.sh
    puts them in build/toolchains/bin) when present; else not checked."""
    tc = os.path.join(HERE, "..", "..", "build", "toolchains", "bin")
    path = os.environ.get("PATH", "") + os.pathsep + tc
    clang, spirv = shutil.which("clang-21", path=path), shutil.which("llvm-spirv-21", path=path)
    if not clang or not spirv:
        print("note: clang-21/llvm-spirv-21 not found, NonSemantic debug lines not checked")
        return
    bc, spv = os.path.join(work, "ns.bc"), os.path.join(work, "ns.spv")
    run([clang, "-cl-std=CL2.0", "-g", "-target", "spir64", "-c", "-emit-llvm", "-O2",
         "-Xclang", "-finclude-default-header", "-Xclang", "-cl-ext=+cl_intel_subgroups",
         KERNELS, "-o", bc])
    run([spirv, "--spirv-debug-info-version=nonsemantic-shader-200",
         "--spirv-ext=+SPV_INTEL_subgroups,+SPV_KHR_non_semantic_info", bc, "-o", spv])
    page, text, remarks = optimize(xeopt, work, spv, "nonsemantic")
    if "(read from" not in text:
        fail("nonsemantic: the page does not show the source lines")
    p = check_common(text, remarks, "nonsemantic")
    check_debug(p, remarks, guard_line=False)
    print("ok: NonSemantic debug lines")


def find_chromium():
    for c in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(c):
            return shutil.which(c)
    return None


def screenshot(browser, page, png, work):
    ud = os.path.join(work, "chromium-profile")
    base = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
            "--user-data-dir=" + ud, "--enable-logging=stderr", "--v=0",
            "--window-size=1200,1600"]
    url = "file://" + os.path.abspath(page)
    env = dict(os.environ, HOME=work)
    dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=120,
                         env=env)
    shot = subprocess.run(base + ["--screenshot=" + png, url], capture_output=True, text=True,
                          timeout=120, env=env)
    for p in (dom, shot):
        if p.returncode != 0:
            fail("chromium exited %d:\n%s" % (p.returncode, p.stderr[-3000:]))
        console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
        if console:
            fail("console messages on %s:\n%s" % (page, "\n".join(console)))
    if "report_copy" not in dom.stdout or "Summary" not in dom.stdout:
        fail("chromium's DOM of %s lacks the summary" % page)
    if dom.stdout.find("Per device") < 0 or dom.stdout.find("Per device") > dom.stdout.find("Summary"):
        fail("chromium's DOM of %s lacks the per-device table at the top" % page)
    if not os.path.exists(png) or os.path.getsize(png) < 10000:
        fail("no screenshot at %s" % png)
    print("screenshot: %s" % png)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("page", "chromium"))
    ap.add_argument("--xeopt", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    if a.what == "chromium":
        browser = find_chromium()
        if not browser:
            if os.environ.get("XEOPT_REQUIRE_CHROMIUM") == "1":
                fail("chromium not found and XEOPT_REQUIRE_CHROMIUM=1 (apt-get install chromium)")
            print("skip: chromium not found (apt-get install chromium)")
            return 77
    spv_g = build(a.work, True)
    spv = build(a.work, False)
    page_g, text_g, rem_g = optimize(a.xeopt, a.work, spv_g, "r-g")
    page, text, rem = optimize(a.xeopt, a.work, spv, "r")
    if a.what == "page":
        p = check_common(text_g, rem_g, "-g")
        check_debug(p, rem_g)
        p = check_common(text, rem, "no -g")
        check_nodebug(p, rem, text)
        runs_and_devices(a.xeopt, a.work, spv)
        isa_check(a.xeopt, a.work, spv)
        embedded(a.xeopt, a.work, spv_g)
        nonsemantic(a.xeopt, a.work)
        print("ok: %d + %d remarks placed" % (len(rem_g), len(rem)))
    else:
        screenshot(browser, page_g, os.path.join(a.work, "report.png"), a.work)
        screenshot(browser, page, os.path.join(a.work, "report-nodebug.png"), a.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
