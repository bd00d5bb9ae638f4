#!/usr/bin/env bash
# Builds the real-code corpus: the OpenCL kernels Debian ships in the
# `darktable` and `hashcat-data` packages, compiled to SPIR-V by the front
# ends users have: Debian 12's clang 15 and ocloc 22.43, and the 2026 ones
# (clang 21 with llvm-spirv 21 or with clang's own SPIR-V backend, ocloc 26;
# issue 29).  No third-party source is ever committed: the
# packages are fetched with `apt-get download` into a cache and unpacked
# with `dpkg -x` (nothing is installed).
#
#   scripts/corpus.sh [options]
#     --out=DIR          output directory (default build/corpus)
#     --hashcat=N|all|LIST  hashcat kernel files to compile: N of them (default 48;
#                        see below), all, or a comma-separated list of file names
#     --no-darktable     skip darktable
#     --darktable=LIST   only these darktable kernel files (comma-separated names)
#     --front-ends=LIST  any of clang15,clang21,clang21-backend,ocloc22,ocloc26
#                        (default all five); the old names clang (= clang15) and
#                        ocloc (= ocloc22) are still accepted
#     --jobs=N           parallel compiles (default 2)
#     --timeout=S        per-compile time limit in seconds (default 300)
#     --max-time=S       stop starting new compiles after S seconds (default 0: none);
#                        the ones not started are in the manifest as `skipped`
#     -h, --help
#
# Output (DIR):
#   cache/*.deb, src/           the packages and their unpacked tree
#   <set>/<fe>/<name>.spv       one module per kernel file, set = darktable|hashcat,
#                               fe = a front end below; <name>.log is the compiler
#                               output.  <set>/clang and <set>/ocloc are symbolic
#                               links to clang15 and ocloc22, so the paths of the
#                               two-front-end corpus keep working (a DIR built by
#                               the older script is moved to the new names once)
#   manifest.tsv                one line per (file, front end) compiled into DIR
#                               (by this run or an earlier one), tab-separated:
#                               module  front_end  source  kernels  status
#                               module: path relative to DIR ('-' when none);
#                               front_end: clang15 ... ocloc26 (never the old
#                               names); source: <set>/<file>.cl; kernels:
#                               comma-separated entry-point names; status: ok, or
#                               fail:<fe> | timeout:<fe> | skipped
#   failures.tsv                source  front_end  status  message: the
#                               compiler's first error line for every file that
#                               did not compile (a front end's own limits, e.g.
#                               clang's SPIR-V backend on some darktable files)
#
# Front ends (each gets the project's DEFINES below and -w):
#   clang15          scripts/frontend.sh clang15: clang-15 -cc1 -triple
#                    spir64-unknown-unknown -cl-std=CL2.0 -O2 -no-opaque-pointers
#                    -emit-llvm-bc -finclude-default-header, then llvm-spirv-15
#                    (SPIR-V 1.0 for most kernels); the same command as before
#   clang21          scripts/frontend.sh clang21: clang-21 -cl-std=CL2.0 -target
#                    spir64 -O2 (opaque pointers), then llvm-spirv-21
#   clang21-backend  scripts/frontend.sh clang21-backend: clang-21 -cl-std=CL2.0
#                    --target=spirv64 -O2, clang's own SPIR-V backend
#   ocloc22          ocloc compile -file F -device dg2 -spv_only -options DEFINES
#                    (Intel's OpenCL front end, 22.43; SPIR-V 1.4, helpers kept
#                    as calls; it writes <out_dir>/<output>.spv with
#                    -output_no_suffix)
#   ocloc26          the same with ocloc 26 (the wrapper ocloc-26)
#   The ocloc front ends are run here, not through scripts/frontend.sh, which
#   adds -cl-std=CL2.0: the projects' hosts pass no -cl-std, so the Intel
#   runtime compiles their kernels as OpenCL C 1.2 (ocloc's default), and at
#   2.0 ocloc writes another module (OpSource 200000, and unqualified pointers
#   are generic).  So ocloc22's modules stay byte-identical to the
#   two-front-end corpus, and ocloc26 compiles what ocloc22 compiles.  (ocloc 26
#   rejects a -cl-std=CL1.2 after frontend.sh's -cl-std=CL2.0.)
#   The sid tools are the wrappers scripts/toolchains.sh writes in
#   ${XEOPT_TOOLCHAINS:-build/toolchains}/bin.
#
# Defines (what each project's host passes to clBuildProgram):
#   darktable  src/common/opencl.c: "-w <compile option> -D<VENDOR>=1 -I<kernels>";
#              the compile option for Intel devices is -cl-fast-relaxed-math,
#              the vendor INTEL.
#   hashcat    src/backend.c: -D KERNEL_STATIC -D INCLUDE_PATH=<dir>
#              -D XM2S(x)=#x -D M2S(x)=XM2S(x) -D MAX_THREADS_PER_BLOCK, then the
#              device and hash-mode defines.  Device: an Intel GPU through the
#              Intel OpenCL runtime (VENDOR_ID=8, DEVICE_TYPE=4 GPU,
#              LOCAL_MEM_TYPE=1 local, every HAS_* 0, VECT_SIZE=1).  Hash mode,
#              from the file name mNNNNN[_aK][-pure|-optimized].cl: KERN_TYPE=NNNNN,
#              ATTACK_KERN=ATTACK_MODE=K (0 when there is no _aK), ATTACK_EXEC=10
#              (outside kernel) when the file has an _init kernel (slow hashes:
#              init/loop/comp), else 11.  DGST_R0..3=0,1,2,3 and DGST_ELEM=4:
#              the real values come from each mode's host module, which is not
#              in hashcat-data; they only pick which digest words are compared.
#              FIXED_LOCAL_SIZE=16 for the files that use it (RC4, bcrypt and
#              other local-memory S-box modes, 47 files): their host modules
#              pass it as a JIT option, min(preferred work-group multiple, 32)
#              or local memory / 4096 bytes; 16 is the second for 64 KiB and
#              the first for a SIMD16 multiple.  Without it they do not compile.
#
# Hashcat subset: the ~1,190 m*.cl files take about 25 s of CPU each in clang at
# -O2 (5 MB of bitcode: every kernel inlines the rule engine), so by default 48
# are compiled.  The choice is deterministic and stratified: the files are
# grouped by variant (_a0/_a1/_a3 x -optimized/-pure, slow-hash -pure and
# -optimized, markov), and from each group, in name order, evenly spaced files
# are taken in proportion to the group's size (at least one per group).
#
# Resumable: a (file, front end) whose .status is newer than its source and
# whose recorded front end and options (.cmd) are the same is not compiled
# again (one that timed out or was skipped is).  Exit status 0 unless a tool is missing
# or the download fails; compile failures are data, recorded in the manifest.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
self="$root/scripts/corpus.sh"
tc="${XEOPT_TOOLCHAINS:-$root/build/toolchains}/bin"
FRONT_ENDS="clang15 clang21 clang21-backend ocloc22 ocloc26"
why_of() {   # LOG: the compiler's first error line (else its last line); for a
             # crash, the pass it crashed in
  if grep -q '^Stack dump:' "$1" 2>/dev/null; then
    sig="crashed"
    grep -q 'Segmentation fault\|exit code 139' "$1" && sig="crashed (segmentation fault)"
    where="$(grep -E "^[0-9]+\.[[:space:]]+Running pass '[^']*' on function" "$1" | tail -1 |
             sed -E "s/^[0-9]+\.[[:space:]]+//; s/ on function ' #.*//")"
    [ -n "$where" ] || where="$(grep -E '^[0-9]+\.[[:space:]]' "$1" | tail -1 | sed -E 's/^[0-9]+\.[[:space:]]+//')"
    echo "$sig: $where" | tr '\t' ' ' | cut -c1-300
    return
  fi
  # (llvm-spirv: "InvalidInstruction: Can't translate llvm instruction:" and
  # the instruction on the next line)
  { awk '/(^|: )(fatal )?error|^[A-Z][A-Za-z]+: |^Fails to|^UNREACHABLE|^LLVM ERROR|Assertion/ {
           line = $0; if (line ~ /:$/ && (getline nxt) > 0) { gsub(/^ +/, "", nxt); line = line " " nxt }
           print line; found = 1; exit }
         END { if (!found) exit 1 }' "$1" ||
    grep -v '^ *$' "$1" | tail -1 || true; } 2>/dev/null | tr '\t' ' ' | cut -c1-300
}
# the old names of clang15 and ocloc22 (their directories are links too)
canon() { case "$1" in clang) echo clang15 ;; ocloc) echo ocloc22 ;; *) echo "$1" ;; esac; }

# ---- worker: compile one (set, front end, file) ------------------------------
if [ "${1:-}" = "--job" ]; then
  out="$2" timeout_s="$3" deadline="$4" set="$5" fe="$6" src="$7"
  name="$(basename "$src" .cl)"
  dir="$out/$set/$fe"
  spv="$dir/$name.spv" log="$dir/$name.log" st="$dir/$name.status"
  mod="$set/$fe/$name.spv"
  dis=spirv-dis
  [ -x "$tc/spirv-dis-2026" ] && dis="$tc/spirv-dis-2026"
  record() {   # status
    local kernels="-" m="-"
    if [ "$1" = ok ]; then
      m="$mod"
      kernels="$("$dis" --raw-id "$spv" 2>/dev/null | sed -n 's/^ *OpEntryPoint Kernel %[0-9]* "\([^"]*\)".*/\1/p' | paste -sd, -)"
      [ -n "$kernels" ] || kernels="-"
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$fe" "$set/$name.cl" "$kernels" "$1" > "$st.tmp"
    mv "$st.tmp" "$st"
  }
  incdir="$(dirname "$src")"
  if [ "$set" = darktable ]; then
    defs=(-cl-fast-relaxed-math -DINTEL=1 "-I$incdir")
  else
    # markov_be/markov_le (the brute-force candidate generators) have no mode
    kt=0 ak=0 ae=11
    if [[ "$name" =~ ^m([0-9]+) ]]; then kt=$((10#${BASH_REMATCH[1]})); fi
    case "$name" in *_a1*) ak=1 ;; *_a3*) ak=3 ;; esac
    grep -q '_init *(' "$src" && ae=10
    defs=(-D KERNEL_STATIC -D "INCLUDE_PATH=$incdir" -D 'XM2S(x)=#x' -D 'M2S(x)=XM2S(x)'
          -D MAX_THREADS_PER_BLOCK=256 -D LOCAL_MEM_TYPE=1 -D VENDOR_ID=8 -D CUDA_ARCH=0)
    for h in ADD ADDC SUB SUBC VADD VADDC VADD_CO VADDC_CO VSUB VSUBB VSUB_CO VSUBB_CO VPERM \
             VADD3 VBFE BFE LOP3 MOV64 PRMT SHFW; do
      defs+=(-D "HAS_$h=0")
    done
    defs+=(-D VECT_SIZE=1 -D DEVICE_TYPE=4 -D DGST_R0=0 -D DGST_R1=1 -D DGST_R2=2 -D DGST_R3=3
           -D DGST_ELEM=4 -D "KERN_TYPE=$kt" -D "ATTACK_EXEC=$ae" -D "ATTACK_KERN=$ak"
           -D "ATTACK_MODE=$ak")
    grep -q FIXED_LOCAL_SIZE "$src" && defs+=(-D FIXED_LOCAL_SIZE=16)
  fi
  # up to date: the status is newer than the source and was made by the same
  # front end with the same options (recorded in .cmd)
  cmd="$fe ${defs[*]}"
  if [ -f "$st" ] && [ "$st" -nt "$src" ] && [ -f "$dir/$name.cmd" ] &&
     [ "$(cat "$dir/$name.cmd")" = "$cmd" ]; then
    exit 0
  fi
  mkdir -p "$dir"
  if [ "$deadline" != 0 ] && [ "$(date +%s)" -ge "$deadline" ]; then
    printf '%s\t%s\t%s\t%s\t%s\n' - "$fe" "$set/$name.cl" - skipped > "$st.tmp"
    mv "$st.tmp" "$st"
    # a skipped job is retried on the next run
    rm -f "$dir/$name.cmd"
    touch -d '@0' "$st"
    exit 0
  fi
  rm -f "$spv" "$log"
  printf '%s\n' "$cmd" > "$dir/$name.cmd"
  case "$fe" in
  clang15|clang21|clang21-backend)
    timeout "$timeout_s" "$root/scripts/frontend.sh" "$fe" "$src" "$spv" -w "${defs[@]}" >"$log" 2>&1
    rc=$? ;;
  ocloc22|ocloc26)
    ocloc=ocloc
    [ "$fe" = ocloc26 ] && ocloc="$tc/ocloc-26"
    # ocloc parses -options itself: one string, options separated by spaces
    timeout "$timeout_s" "$ocloc" compile -q -file "$src" -device dg2 -spv_only \
      -options "-w ${defs[*]}" -output "$name" -output_no_suffix -out_dir "$dir" >"$log" 2>&1
    rc=$? ;;
  esac
  # a timeout is retried on the next run (perhaps with a longer --timeout)
  if [ $rc = 124 ]; then rm -f "$spv" "$dir/$name.cmd"; record "timeout:$fe"; exit 0; fi
  # llvm-spirv leaves an empty file when it rejects the input
  if [ $rc != 0 ] || [ ! -s "$spv" ]; then rm -f "$spv"; record "fail:$fe"; exit 0; fi
  record ok
  exit 0
fi

# ---- driver ------------------------------------------------------------------
dtlist=""
out="$root/build/corpus" hashcat=48 darktable=1 fes="${FRONT_ENDS// /,}" jobs=2 timeout_s=300 maxtime=0
for a in "$@"; do
  case "$a" in
    --out=*) out="${a#*=}" ;;
    --hashcat=*) hashcat="${a#*=}" ;;
    --no-darktable) darktable=0 ;;
    --darktable=*) dtlist="${a#*=}" ;;
    --front-ends=*) fes="${a#*=}" ;;
    --jobs=*) jobs="${a#*=}" ;;
    --timeout=*) timeout_s="${a#*=}" ;;
    --max-time=*) maxtime="${a#*=}" ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "corpus.sh: unknown option $a (--help)" >&2; exit 2 ;;
  esac
done
# the front ends, old names mapped to the new ones, each once
felist=()
for f in $(tr , ' ' <<< "$fes"); do
  f="$(canon "$f")"
  case " $FRONT_ENDS " in *" $f "*) ;; *)
    echo "corpus.sh: unknown front end $f ($FRONT_ENDS; clang, ocloc)" >&2; exit 2 ;; esac
  case " ${felist[*]} " in *" $f "*) ;; *) felist+=("$f") ;; esac
done
[ ${#felist[@]} -gt 0 ] || { echo "corpus.sh: no front end" >&2; exit 2; }
fes="$(IFS=,; echo "${felist[*]}")"
tools="spirv-dis dpkg apt-get timeout"
for f in "${felist[@]}"; do
  case $f in
    clang15) tools+=" clang-15 llvm-spirv-15" ;;
    clang21) tools+=" $tc/clang-21 $tc/llvm-spirv-21" ;;
    clang21-backend) tools+=" $tc/clang-21" ;;
    ocloc22) tools+=" ocloc" ;;
    ocloc26) tools+=" $tc/ocloc-26" ;;
  esac
done
for t in $tools; do
  case "$t" in
    /*) [ -x "$t" ] || { echo "corpus.sh: $t not found (scripts/toolchains.sh installs it)" >&2; exit 77; } ;;
    *) command -v "$t" >/dev/null || { echo "corpus.sh: $t not found (scripts/deps.sh installs it)" >&2; exit 77; } ;;
  esac
done
mkdir -p "$out/cache" "$out/src"
out="$(cd "$out" && pwd)"

# a DIR built by the two-front-end script: <set>/clang and <set>/ocloc are
# directories.  Move them to clang15 / ocloc22 once, with the front end's
# name in their .status and .cmd files (so nothing is compiled again), and
# leave a symbolic link with the old name
for set in darktable hashcat; do
  for old in clang ocloc; do
    new="$(canon "$old")" d="$out/$set/$old"
    if [ -d "$d" ] && [ ! -L "$d" ] && [ ! -e "$out/$set/$new" ]; then
      mv "$d" "$out/$set/$new"
      for f in "$out/$set/$new"/*.status "$out/$set/$new"/*.cmd; do
        [ -f "$f" ] || continue
        case "$f" in
          *.status) awk -F'\t' -v OFS='\t' -v o="$old" -v n="$new" -v s="$set" '
                      { if ($1 != "-") sub("^" s "/" o "/", s "/" n "/", $1); $2 = n
                        if ($5 == "fail:" o || $5 ~ /^fail:(clang|llvm-spirv)$/) $5 = "fail:" n
                        else if ($5 ~ /^timeout:/) $5 = "timeout:" n
                        print }' "$f" ;;
          *.cmd) sed "1s/^$old /$new /" "$f" ;;
        esac > "$f.tmp" && touch -r "$f" "$f.tmp" && mv "$f.tmp" "$f"
      done
    fi
  done
done
start=$(date +%s)
deadline=0
[ "$maxtime" = 0 ] || deadline=$((start + maxtime))

# fetch and unpack (apt-get download needs a package list: update once if
# the first try fails)
for p in darktable hashcat-data; do
  [ $darktable = 0 ] && [ $p = darktable ] && continue
  [ "$hashcat" = 0 ] && [ $p = hashcat-data ] && continue
  deb="$(ls "$out/cache/${p}_"*.deb 2>/dev/null | head -1)"
  if [ -z "$deb" ]; then
    ( cd "$out/cache" && apt-get download "$p" >/dev/null 2>&1 ) ||
    { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get update -q >/dev/null &&
      ( cd "$out/cache" && apt-get download "$p" >/dev/null ); } ||
    { echo "corpus.sh: apt-get download $p failed" >&2; exit 1; }
    deb="$(ls "$out/cache/${p}_"*.deb | head -1)"
  fi
  stamp="$out/src/.$p.unpacked"
  if [ ! -f "$stamp" ] || [ "$deb" -nt "$stamp" ]; then
    dpkg -x "$deb" "$out/src" && echo "$(basename "$deb")" > "$stamp"
  fi
done
dtk="$out/src/usr/share/darktable/kernels"
hck="$out/src/usr/share/hashcat/OpenCL"

# the job list: set <TAB> file
jobsfile="$out/.jobs"
: > "$jobsfile"
if [ $darktable = 1 ]; then
  if [ -n "$dtlist" ]; then
    for f in $(tr , ' ' <<< "$dtlist"); do
      [ -f "$dtk/$f" ] || { echo "corpus.sh: no darktable kernel file $f" >&2; exit 2; }
      printf 'darktable\t%s\n' "$dtk/$f"
    done >> "$jobsfile"
  else
    for f in "$dtk"/*.cl; do printf 'darktable\t%s\n' "$f"; done >> "$jobsfile"
  fi
fi
if [ "$hashcat" != 0 ]; then
  all="$(cd "$hck" && ls m*.cl | LC_ALL=C sort)"
  if [ "$hashcat" = all ]; then
    sel="$all"
  elif ! [[ "$hashcat" =~ ^[0-9]+$ ]]; then
    sel="$(tr , '\n' <<< "$hashcat")"
    for f in $sel; do
      [ -f "$hck/$f" ] || { echo "corpus.sh: no hashcat kernel file $f" >&2; exit 2; }
    done
  else
    total=$(printf '%s\n' "$all" | wc -l)
    # stratify by variant: the part after the mode number
    sel="$(printf '%s\n' "$all" | awk -v want="$hashcat" -v total="$total" '
      { v = $0; sub(/^m[0-9]+/, "", v); n[v]++; f[v, n[v]] = $0; if (!(v in seen)) { seen[v] = 1; order[++nv] = v } }
      END {
        for (i = 1; i <= nv; i++) {
          v = order[i]; k = int(want * n[v] / total + 0.5); if (k < 1) k = 1; if (k > n[v]) k = n[v]
          for (j = 0; j < k; j++) print f[v, int(j * n[v] / k) + 1]
        }
      }' | LC_ALL=C sort)"
  fi
  printf '%s\n' "$sel" | while read -r f; do printf 'hashcat\t%s\n' "$hck/$f"; done >> "$jobsfile"
fi
nfiles=$(wc -l < "$jobsfile")
echo "corpus: $nfiles kernel files, front ends $fes, $jobs jobs, into $out"

# one job per (file, front end); xargs runs them in parallel
for fe in "${felist[@]}"; do
  while IFS=$'\t' read -r set f; do printf '%s\0%s\0%s\0' "$set" "$fe" "$f"; done < "$jobsfile"
done | xargs -0 -n3 -P "$jobs" "$self" --job "$out" "$timeout_s" "$deadline" || true
# the old paths: <set>/clang -> clang15, <set>/ocloc -> ocloc22
for set in darktable hashcat; do
  for old in clang ocloc; do
    new="$(canon "$old")"
    [ -d "$out/$set/$new" ] && [ ! -e "$out/$set/$old" ] && ln -s "$new" "$out/$set/$old"
  done
done

# the manifest: every (file, front end) compiled into DIR so far, this run's
# and earlier runs' (so a second run with other options adds to it), sorted by
# front end, then source
man="$out/manifest.tsv"
statuses() {   # the .status files of the known front ends' directories (not the links)
  for set in darktable hashcat; do
    for f in $FRONT_ENDS; do
      [ ! -d "$out/$set/$f" ] || find "$out/$set/$f/" -maxdepth 1 -name '*.status'
    done
  done
}
{
  printf '# module\tfront_end\tsource\tkernels\tstatus\n'
  statuses | tr '\n' '\0' | xargs -0 -r cat | LC_ALL=C sort -t$'\t' -k2,2 -k3,3
} > "$man.tmp" && mv "$man.tmp" "$man"
# failures.tsv: source, front end, status, the compiler's first error line
fails="$out/failures.tsv"
{
  printf '# source\tfront_end\tstatus\tmessage\n'
  statuses | while read -r st; do
    IFS=$'\t' read -r _ fe src _ status < "$st"
    case "$status" in fail:*|timeout:*)
      why="$(why_of "${st%.status}.log")"
      case "$status" in timeout:*) why="timed out (--timeout)${why:+: $why}" ;; esac
      printf '%s\t%s\t%s\t%s\n' "$src" "$fe" "$status" "${why:--}" ;;
    esac
  done | LC_ALL=C sort -t$'\t' -k2,2 -k1,1
} > "$fails.tmp" && mv "$fails.tmp" "$fails"

# summary
awk -F'\t' -v secs=$(( $(date +%s) - start )) '
  /^#/ { next }
  { files[$3] = 1; key = $2; if ($5 == "ok") { ok[key]++; nk = ($4 == "-") ? 0 : split($4, x, ","); kern[key] += nk }
    else { bad[key]++; why[key "\t" $5]++ } if (!(key in fes)) { fes[key] = 1; order[++nfe] = key } }
  END {
    n = 0; for (f in files) n++
    printf "corpus: %d kernel files, %d s\n", n, secs
    for (i = 1; i <= nfe; i++) {
      fe = order[i]
      printf "  %-15s modules ok %d, failed %d, kernels %d", fe, ok[fe] + 0, bad[fe] + 0, kern[fe] + 0
      sep = " ("; for (k in why) { split(k, p, "\t"); if (p[1] == fe) { printf "%s%s %d", sep, p[2], why[k]; sep = ", " } }
      if (sep == ", ") printf ")"
      printf "\n"
    }
  }' "$man"
nf=$(grep -vc '^#' "$fails")
if [ "$nf" != 0 ]; then
  echo "did not compile ($fails):"
  grep -v '^#' "$fails" | head -30 | awk -F'\t' '{ printf "  %s %s: %s\n", $2, $1, substr($4, 1, 160) }'
  [ "$nf" -le 30 ] || echo "  ... $((nf - 30)) more"
fi
echo "manifest: $man"
