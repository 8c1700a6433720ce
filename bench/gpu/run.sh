#!/usr/bin/env bash
# The tilegraph GPU bench (issue 24, docs/gpu.md): run from the unpacked out/gpu-bundle.tar.xz on
# a bare Linux x64 machine. Needs nothing installed: the bundle carries Node, Dawn, sharp and the
# Vulkan loader; the GPU's driver comes from the machine.
#
#   bash run.sh [--quick] [--out DIR] [bench options: --sections, --styles, --budget-scale]
#
# Prints a compact report on stdout and writes DIR/report.txt (full), DIR/report.json and
# DIR/env.txt (default DIR: ./report beside this script). Vulkan driver: VK_ICD_FILENAMES or
# VK_DRIVER_FILES as given, else the first of: each NVIDIA ICD file found (/usr/local/nvidia,
# /usr/share/vulkan, /etc/vulkan), the loader's default search, SwiftShader
# (/usr/lib/chromium/vk_swiftshader_icd.json), that gives an adapter rendering a test tile
# right; a hardware adapter is preferred over a software one.
#
# NVIDIA's Vulkan driver (in libGLX_nvidia.so.0) needs libglvnd's dispatch libraries
# (libGLdispatch, libEGL...) and its EGL vendor file; without them the loader says "Could not get
# 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr'" and finds no driver (the first H100 run,
# docs/gpu.md). When an NVIDIA ICD is found and the system lacks libGLdispatch.so.0 or
# libEGL.so.1, run.sh installs the bundle's Debian libglvnd packages (debs/): as root with
# `dpkg -x` into / and `ldconfig` (TILEGRAPH_NO_SYSTEM_LIBS=1 prevents it), else from the
# copies in lib/glvnd through LD_LIBRARY_PATH. __EGL_VENDOR_LIBRARY_FILENAMES is set to the
# NVIDIA EGL vendor file found, unless given.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT_DIR=""
QUICK=""
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=--quick ;;
    --out) OUT_DIR="${2:-}"; shift ;;
    --out=*) OUT_DIR="${1#--out=}" ;;
    *) PASS+=("$1") ;;
  esac
  shift
done
OUT_DIR=${OUT_DIR:-${TILEGRAPH_BENCH_OUT:-$HERE/report}}
mkdir -p "$OUT_DIR" || { echo "run.sh: cannot create $OUT_DIR"; exit 1; }
OUT_DIR=$(cd "$OUT_DIR" && pwd)
ENVLOG="$OUT_DIR/env.txt"
: >"$ENVLOG"
NODE="$HERE/bin/node"
# Hard limits for the whole bench (its own section budgets end it sooner).
if [ -n "$QUICK" ]; then HARD=210; else HARD=370; fi

log() { echo "$@" | tee -a "$ENVLOG"; }
# A command's output to env.txt only, headed by its name.
logcmd() { { echo "\$ $*"; timeout 20 "$@" 2>&1 | head -40; echo; } >>"$ENVLOG" 2>&1; }

log "== tilegraph GPU bench bundle: $(head -2 "$HERE/BUNDLE.txt" 2>/dev/null | tail -1)"
log "machine: $(uname -srm), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
if command -v nvidia-smi >/dev/null 2>&1; then
  log "nvidia-smi -L: $(timeout 20 nvidia-smi -L 2>&1 | tr '\n' ' ')"
  log "nvidia-smi: $(timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,utilization.gpu --format=csv,noheader 2>&1 | tr '\n' ' ')"
else
  log "nvidia-smi: not on PATH"
fi
logcmd uname -a
logcmd ls -la /dev/dri /dev/nvidia0 /dev/nvidiactl
logcmd ls /usr/local/nvidia /usr/local/nvidia/lib64 /usr/local/nvidia/share/vulkan/icd.d
logcmd sh -c "$(command -v ldconfig || echo /sbin/ldconfig) -p | grep -Ei 'vulkan|GLX|GLdispatch|EGL|nvidia-glcore'"
logcmd ls /usr/local/nvidia/share/glvnd/egl_vendor.d /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d

LDCONFIG=$(command -v ldconfig || echo /sbin/ldconfig)
has_lib() { "$LDCONFIG" -p 2>/dev/null | grep -qF "$1 ("; }

# --- the NVIDIA driver's files ------------------------------------------------------------------
ICDS=()
for d in /usr/local/nvidia/share/vulkan/icd.d /usr/local/nvidia/etc/vulkan/icd.d /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
  for f in "$d"/*nvidia*.json "$d"/*NVIDIA*.json; do [ -f "$f" ] && ICDS+=("$f"); done
done
EGL_VENDOR=""
for d in /usr/local/nvidia/share/glvnd/egl_vendor.d /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d /usr/local/share/glvnd/egl_vendor.d; do
  for f in "$d"/*nvidia*.json; do [ -f "$f" ] && [ -z "$EGL_VENDOR" ] && EGL_VENDOR="$f"; done
done

# --- libglvnd for NVIDIA's Vulkan driver (see the top of this file) -----------------------------
GLVND_PATH=""
if [ ${#ICDS[@]} -gt 0 ]; then
  if has_lib libGLdispatch.so.0 && has_lib libEGL.so.1; then
    log "libglvnd: the system has libGLdispatch.so.0 and libEGL.so.1"
  elif [ "$(id -u)" = 0 ] && [ -z "${TILEGRAPH_NO_SYSTEM_LIBS:-}" ] && command -v dpkg >/dev/null 2>&1 && ls "$HERE"/debs/*.deb >/dev/null 2>&1; then
    installed=()
    for deb in "$HERE"/debs/*.deb; do
      name=$(basename "$deb")
      # The Vulkan loader only where the system has none (the bundle's lib/ comes first anyway).
      case "$name" in libvulkan1_*) has_lib libvulkan.so.1 && continue ;; esac
      if dpkg -x "$deb" / 2>>"$ENVLOG"; then installed+=("${name%%_*}"); else log "libglvnd: dpkg -x $name / failed"; fi
    done
    "$LDCONFIG" 2>>"$ENVLOG"
    log "libglvnd: the system lacked it: unpacked ${installed[*]} into / (dpkg -x) and ran ldconfig"
    if ! has_lib libGLdispatch.so.0; then
      log "libglvnd: still not in the ldconfig cache; using the bundle's copies (lib/glvnd) through LD_LIBRARY_PATH"
      GLVND_PATH="$HERE/lib/glvnd"
    fi
  else
    log "libglvnd: the system lacks libGLdispatch.so.0 or libEGL.so.1; using the bundle's copies (lib/glvnd) through LD_LIBRARY_PATH"
    GLVND_PATH="$HERE/lib/glvnd"
  fi
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -n "$EGL_VENDOR" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES="$EGL_VENDOR"
    log "EGL vendor file: __EGL_VENDOR_LIBRARY_FILENAMES=$EGL_VENDOR"
  elif [ -z "$EGL_VENDOR" ]; then
    log "EGL vendor file: no *nvidia*.json under /usr/local/nvidia/share/glvnd/egl_vendor.d, /usr/share/glvnd/egl_vendor.d, /etc/glvnd/egl_vendor.d"
  fi
fi

# --- libraries: our Vulkan loader first, libglvnd if needed, the NVIDIA driver's folders after ----
LIBS="$HERE/lib${GLVND_PATH:+:$GLVND_PATH}"
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu/nvidia; do
  [ -d "$d" ] && LIBS="$LIBS:$d"
done
export LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HOME=${HOME:-/tmp}
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -w "${XDG_RUNTIME_DIR:-/nonexistent}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d /tmp/tilegraph-xdg-XXXXXX)
  export XDG_RUNTIME_DIR
fi

if ! NODE_V=$("$NODE" --version 2>>"$ENVLOG"); then
  # The host's libstdc++ / libgcc_s are older than Node needs: use the bundle's.
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$HERE/lib/fallback"
  if ! NODE_V=$("$NODE" --version 2>>"$ENVLOG"); then
    log "run.sh: the bundled Node does not start on this machine:"
    tail -5 "$ENVLOG"
    exit 1
  fi
  log "node: using the bundle's libstdc++ (lib/fallback)"
fi
log "node $NODE_V ($NODE); command -v node: $(command -v node || echo 'none on PATH')"

# --- the Vulkan driver ----------------------------------------------------------------------
if [ ${#ICDS[@]} -gt 0 ]; then
  log "NVIDIA ICD files: ${ICDS[*]}"
  for f in "${ICDS[@]}"; do log "  $f: $(tr -d '\n ' <"$f" | head -c 300)"; done
else
  log "NVIDIA ICD files: none found (searched /usr/local/nvidia/share/vulkan/icd.d, /usr/share/vulkan/icd.d, /etc/vulkan/icd.d)"
fi
SWIFTSHADER=/usr/lib/chromium/vk_swiftshader_icd.json

# Candidates: name|ICD file ('' = as the environment gives it).
CANDIDATES=()
if [ -n "${VK_ICD_FILENAMES:-}${VK_DRIVER_FILES:-}" ]; then
  CANDIDATES+=("as given (VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-} VK_DRIVER_FILES=${VK_DRIVER_FILES:-})|-")
else
  # The NVIDIA ICD named first (VK_DRIVER_FILES), as the working H100 run had it.
  for f in "${ICDS[@]}"; do CANDIDATES+=("$f|$f"); done
  CANDIDATES+=("loader default search|")
  [ -f "$SWIFTSHADER" ] && CANDIDATES+=("SwiftShader|$SWIFTSHADER")
fi

probe() { # $1 = ICD file, '' (no variables) or '-' (leave the environment as it is); prints the probe's JSON
  local icd="$1"
  if [ "$icd" = "-" ]; then
    timeout 30 "$NODE" "$HERE/app/bench.js" --probe 2>>"$OUT_DIR/probe-stderr.txt"
  elif [ -z "$icd" ]; then
    timeout 30 env -u VK_ICD_FILENAMES -u VK_DRIVER_FILES "$NODE" "$HERE/app/bench.js" --probe 2>>"$OUT_DIR/probe-stderr.txt"
  else
    timeout 30 env VK_ICD_FILENAMES="$icd" VK_DRIVER_FILES="$icd" "$NODE" "$HERE/app/bench.js" --probe 2>>"$OUT_DIR/probe-stderr.txt"
  fi
}

CHOSEN=""
CHOSEN_SOFT=""
for c in "${CANDIDATES[@]}"; do
  name="${c%%|*}"
  icd="${c#*|}"
  echo "--- probe: $name" >>"$OUT_DIR/probe-stderr.txt"
  res=$(probe "$icd" | tail -1)
  echo "probe $name: $res" >>"$ENVLOG"
  if [ -n "$res" ]; then
    echo "probe $name: $(printf '%s' "$res" | "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);const a=j.adapter;console.log(j.ok?`ok: ${a.description} (${a.fallback?"software":"hardware"}; test tile ${Math.round(j.testRender.ms)} ms, max diff to CPU ${j.testRender.maxDiffToCpu.toExponential(1)})`:`FAILED: ${j.error}${a?` (${a.description})`:""}`)}catch{console.log(s.slice(0,300))}})')"
  else
    echo "probe $name: no output (crashed or timed out; see probe-stderr.txt)"
    tail -3 "$OUT_DIR/probe-stderr.txt" | cut -c1-300
  fi
  case "$res" in
    *'"ok":true'*)
      if echo "$res" | grep -q '"fallback":true'; then
        [ -z "$CHOSEN_SOFT" ] && CHOSEN_SOFT="$icd|$name"
      else
        CHOSEN="$icd|$name"
        break
      fi
      ;;
  esac
done
[ -z "$CHOSEN" ] && CHOSEN="$CHOSEN_SOFT"
if [ -z "$CHOSEN" ]; then
  log "Vulkan: NO working adapter. Loader diagnostics (VK_LOADER_DEBUG=error,warn,driver) follow; the bench still runs its CPU rows."
  icd=""
  [ ${#ICDS[@]} -gt 0 ] && icd="${ICDS[0]}"
  if [ -n "$icd" ]; then
    VK_LOADER_DEBUG=error,warn,driver VK_ICD_FILENAMES="$icd" VK_DRIVER_FILES="$icd" timeout 30 "$NODE" "$HERE/app/bench.js" --probe >"$OUT_DIR/vulkan-loader.txt" 2>&1
  else
    VK_LOADER_DEBUG=error,warn,driver timeout 30 "$NODE" "$HERE/app/bench.js" --probe >"$OUT_DIR/vulkan-loader.txt" 2>&1
  fi
  tail -25 "$OUT_DIR/vulkan-loader.txt" | cut -c1-300
  tail -8 "$OUT_DIR/probe-stderr.txt" | cut -c1-300
else
  icd="${CHOSEN%%|*}"
  name="${CHOSEN#*|}"
  if [ "$icd" = "-" ]; then
    :
  elif [ -z "$icd" ]; then
    unset VK_ICD_FILENAMES VK_DRIVER_FILES
  else
    export VK_ICD_FILENAMES="$icd" VK_DRIVER_FILES="$icd"
  fi
  log "Vulkan driver: $name"
  # A software adapter gets a five times longer export budget (the bench says so): more time here.
  [ "$CHOSEN" = "$CHOSEN_SOFT" ] && HARD=$((HARD * 4))
fi

# --- the bench --------------------------------------------------------------------------------
timeout -k 10 "$HARD" "$NODE" "$HERE/app/bench.js" $QUICK --out "$OUT_DIR" ${PASS[@]+"${PASS[@]}"} 2>"$OUT_DIR/bench-stderr.txt"
rc=$?
if [ -s "$OUT_DIR/bench-stderr.txt" ]; then
  echo "--- bench stderr (last lines; all in bench-stderr.txt)"
  tail -15 "$OUT_DIR/bench-stderr.txt" | cut -c1-300
fi
[ $rc -eq 124 ] && echo "run.sh: the bench passed its hard limit of $HARD s and was stopped; the report files hold what was measured"
echo "full report: $OUT_DIR/report.txt (report.json, env.txt)"
exit $rc
