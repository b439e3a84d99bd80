#!/usr/bin/env bash
# Builds the LatencyLab Linux app-image (and with --deb a .deb) with jpackage, then launches the app-image
# headless to check it: `bin/latencylab --version` and a short probe against the built-in simulator.
# Usage (from the repository root): installers/build-linux.sh [--deb] [--skip-build]
# Needs a JDK >= 21 with jpackage (picked like the other scripts: .ci/jdk.sh); --deb needs fakeroot and dpkg-deb.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/jdk.sh
DEB=0; BUILD=1
for a in "$@"; do
  case "$a" in
    --deb) DEB=1 ;;
    --skip-build) BUILD=0 ;;
    *) echo "unknown option $a" >&2; exit 2 ;;
  esac
done
OUT=installers/target
if [ "$BUILD" = 1 ]; then
  mvn -B -ntp -q -DskipTests package
fi
rm -rf "$OUT" && mkdir -p "$OUT/input"
cp app/target/latencylab.jar "$OUT/input/"
start=$(date +%s)
"$JAVA_HOME/bin/jpackage" @installers/jpackage/common.txt @installers/jpackage/linux.txt \
  --type app-image --input "$OUT/input" --dest "$OUT"
# `latencylab` in the app-image's bin/ (the name the .deb puts on the PATH), next to jpackage's LatencyLab launcher;
# a script, not a link (jpackage leaves links out of a package it builds from an app-image)
cat > "$OUT/LatencyLab/bin/latencylab" <<'SH'
#!/bin/sh
# LatencyLab (the app-image's own runtime): same as bin/LatencyLab
exec "$(dirname "$(readlink -f "$0")")/LatencyLab" "$@"
SH
chmod 755 "$OUT/LatencyLab/bin/latencylab"
echo "app-image: $(du -sh "$OUT/LatencyLab" | cut -f1) in $(( $(date +%s) - start )) s"

# smoke test of the app-image, headless
"$OUT/LatencyLab/bin/latencylab" --version
RUN_DIR="$OUT/smoke-run"
"$OUT/LatencyLab/bin/LatencyLab" probe --sim small-fast --requests 20 --concurrency 4 -o "$RUN_DIR" \
  || { echo "headless probe from the app-image failed" >&2; exit 1; }
test -s "$RUN_DIR/requests.jsonl" || { echo "the app-image's run wrote no requests.jsonl" >&2; exit 1; }
test -s "$RUN_DIR/cdf-ttft-e2e.png" || { echo "the app-image's run rendered no chart" >&2; exit 1; }
echo "app-image smoke test: ok ($(wc -l < "$RUN_DIR/requests.jsonl") requests, chart rendered)"

if [ "$DEB" = 1 ]; then
  start=$(date +%s)
  # from the app-image above (its runtime and bin/latencylab), with LatencyLab's own postinst/prerm: menu
  # registration best effort, `latencylab` linked into /usr/bin
  "$JAVA_HOME/bin/jpackage" --type deb --app-image "$OUT/LatencyLab" --dest "$OUT" \
    --name LatencyLab --app-version "$(awk '/^--app-version/ {print $2}' installers/jpackage/common.txt)" \
    --vendor LatencyLab --description "Measure, explain and compare the latency of LLM APIs" \
    @installers/jpackage/linux.txt @installers/jpackage/linux-deb.txt \
    --resource-dir installers/jpackage/linux-resources
  echo "deb: $(ls -s --block-size=M "$OUT"/*.deb) in $(( $(date +%s) - start )) s"
fi
