#!/usr/bin/env bash
# Installs the 2026 toolchains (clang 21 and its SPIR-V backend, llvm-spirv 21,
# ocloc 26 with IGC 2.x, SPIRV-Tools 2026) into a Debian sid root, and writes
# wrappers that run them on this Debian 12 host through sid's own loader and
# libraries (no chroot at run time):
#   build/toolchains/sid/   the root (debootstrap --variant=minbase, ~1.3 GB)
#   build/toolchains/bin/   clang-21 llvm-spirv-21 ocloc-26 iga64-2
#                           spirv-val-2026 spirv-opt-2026 spirv-dis-2026 spirv-as-2026
# The versions tested are in scripts/toolchains.versions.  Needs root (debootstrap,
# chroot) the first time; afterwards it only checks.  XEOPT_TOOLCHAINS=DIR puts
# them elsewhere.  Exit 1, naming the package, when one cannot be installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${XEOPT_TOOLCHAINS:-$root/build/toolchains}"
sid="$dir/sid"
versions="$root/scripts/toolchains.versions"
mapfile -t pkgs < <(awk '!/^#/ && NF { print $1 }' "$versions")
# The sid mirror's Release file may be older than its Valid-Until when the
# archive is a snapshot; the packages are still signed.
apt_opts=(-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -q)

die() { echo "xeopt: toolchains: $*" >&2; exit 1; }

if [ ! -x "$sid/usr/bin/apt-get" ]; then
  command -v debootstrap >/dev/null || die "debootstrap is missing (scripts/deps.sh installs it)"
  [ "$(id -u)" -eq 0 ] || die "making the sid root needs root (debootstrap, chroot)"
  echo "xeopt: toolchains: debootstrap --variant=minbase sid $sid"
  rm -rf "$sid"
  mkdir -p "$dir"
  debootstrap --variant=minbase sid "$sid" http://deb.debian.org/debian >"$dir/debootstrap.log" 2>&1 ||
    die "debootstrap failed (see $dir/debootstrap.log)"
fi

missing=()
for p in "${pkgs[@]}"; do
  chroot "$sid" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  [ "$(id -u)" -eq 0 ] || die "installing ${missing[*]} into $sid needs root"
  echo "xeopt: toolchains: installing into sid: ${missing[*]}"
  cp /etc/resolv.conf "$sid/etc/resolv.conf" 2>/dev/null || true
  chroot "$sid" apt-get "${apt_opts[@]}" update >"$dir/apt.log" 2>&1 ||
    die "apt-get update in $sid failed (see $dir/apt.log)"
  for p in "${missing[@]}"; do
    DEBIAN_FRONTEND=noninteractive chroot "$sid" apt-get "${apt_opts[@]}" install -y "$p" \
      >>"$dir/apt.log" 2>&1 || die "package $p cannot be installed from sid (see $dir/apt.log)"
  done
fi

# Versions now installed against those tested: a warning, not a failure (sid moves).
while read -r p want; do
  case "$p" in ''|'#'*) continue ;; esac
  have=$(chroot "$sid" dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
  [ "$have" = "$want" ] ||
    echo "xeopt: toolchains: warning: $p is $have, tested with $want (scripts/toolchains.versions)" >&2
done <"$versions"

ocloc=$(cd "$sid/usr/bin" && ls ocloc-[0-9]* 2>/dev/null | sort -V | tail -n 1)
[ -n "$ocloc" ] || die "no ocloc-N.N in $sid/usr/bin (intel-ocloc)"
mkdir -p "$dir/bin"
wrap() { # NAME TARGET [FIXED ARGS...]
  local name=$1 target=$2; shift 2
  [ -x "$sid$target" ] || die "$sid$target is missing"
  {
    echo '#!/bin/sh'
    echo "# Runs sid's $target on this host with sid's loader and libraries (scripts/toolchains.sh)."
    echo "s='$sid'"
    echo "exec \"\$s/lib64/ld-linux-x86-64.so.2\" --library-path \"\$s/usr/lib/x86_64-linux-gnu:\$s/lib/x86_64-linux-gnu\" \"\$s$target\" $* \"\$@\""
  } >"$dir/bin/$name.tmp"
  chmod +x "$dir/bin/$name.tmp"
  mv "$dir/bin/$name.tmp" "$dir/bin/$name"
}
# clang finds its headers relative to /proc/self/exe, which is the loader here.
wrap clang-21 /usr/lib/llvm-21/bin/clang "-resource-dir \"\$s/usr/lib/llvm-21/lib/clang/21\""
wrap llvm-spirv-21 /usr/bin/llvm-spirv-21
wrap ocloc-26 "/usr/bin/$ocloc"
wrap iga64-2 /usr/bin/iga64
for t in val opt dis as; do
  wrap "spirv-$t-2026" "/usr/bin/spirv-$t"
done
"$dir/bin/ocloc-26" --version >/dev/null 2>&1 || die "$dir/bin/ocloc-26 does not run"
"$dir/bin/clang-21" --version >/dev/null 2>&1 || die "$dir/bin/clang-21 does not run"
