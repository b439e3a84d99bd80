# Sourced by .ci/real-engine and .ci/real-engine-server: makes sure the chroot with llama.cpp's llama-server and the
# random-weight model exist in the cache, building what is missing. Sets RE_CHROOT and RE_MODEL (the model's path
# inside the chroot). Returns 3 (with a message on stderr) when they cannot be built here: not root, no debootstrap
# and no apt, or no Debian mirror.
#
# Debian 12's C library is too old for the unstable suite's llama.cpp-tools, so the server runs from a minimal sid
# chroot; chroot execs the server, so the PID of `chroot ... llama-server` is the server's own.
RE_CACHE="${LATENCYLAB_REAL_ENGINE_CACHE:-$HOME/.cache/latencylab/real-engine}"
RE_CHROOT="$RE_CACHE/chroot"
# Stable path: other scripts may start the same model. Bump the name when make-model.py's defaults change.
RE_MODEL=/model/latencylab-random-l1-w64-v1.gguf
RE_MIRROR="${LATENCYLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

re_setup() {
  local here; here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if [ ! -x "$RE_CHROOT/usr/bin/llama-server" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "real engine: skipped, building the llama.cpp chroot needs root (debootstrap, chroot)" >&2; return 3
    fi
    if ! command -v debootstrap >/dev/null; then
      apt-get install -y -q debootstrap >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 \
        && apt-get install -y -q debootstrap >/dev/null 2>&1; } \
        || { echo "real engine: skipped, debootstrap cannot be installed (apt-get install debootstrap failed)" >&2; return 3; }
    fi
    mkdir -p "$RE_CACHE"
    rm -rf "$RE_CHROOT.partial"
    echo "real engine: building the Debian sid chroot with llama.cpp-tools in $RE_CHROOT (about a minute)" >&2
    if ! debootstrap --variant=minbase --include=llama.cpp-tools,python3-gguf,python3-numpy sid \
         "$RE_CHROOT.partial" "$RE_MIRROR" > "$RE_CACHE/debootstrap.log" 2>&1; then
      echo "real engine: skipped, debootstrap of Debian sid failed (no mirror reachable?); see $RE_CACHE/debootstrap.log" >&2
      rm -rf "$RE_CHROOT.partial"; return 3
    fi
    mv "$RE_CHROOT.partial" "$RE_CHROOT"
  fi
  if [ ! -s "$RE_CHROOT$RE_MODEL" ]; then
    mkdir -p "$RE_CHROOT/model"
    cp "$here/make-model.py" "$RE_CHROOT/model/make-model.py"
    # 1 layer, width 64, FF 128, 40960 positions: a 32k-token prefill takes seconds on 2 cores, and every
    # sweep length (plus the chat template's own tokens) fits in one slot's context
    chroot "$RE_CHROOT" python3 /model/make-model.py "$RE_MODEL.partial" 1 64 128 40960 >&2 \
      && mv "$RE_CHROOT$RE_MODEL.partial" "$RE_CHROOT$RE_MODEL" \
      || { echo "real engine: skipped, the model could not be written (python3-gguf in the chroot)" >&2; return 3; }
  fi
  return 0
}
