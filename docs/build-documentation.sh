#!/usr/bin/env bash
# Builds the DocC documentation of the SDK, its testing kit and the harness
# without the swift-docc-plugin (and so without network): SwiftPM's own
# `dump-symbol-graph`, then the toolchain's `docc convert` for each catalog.
# Every symbol link in the articles must resolve: warnings are errors.
#
#   bash docs/build-documentation.sh            # -> .build/documentation/<Module>.doccarchive
#   docc preview Sources/Analytics/Analytics.docc \
#       --additional-symbol-graph-dir .build/documentation/symbol-graphs/Analytics
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docc >/dev/null; then
    echo "error: docc is not on PATH; it ships with Swift toolchains from 5.6 on (swift.org, or Xcode on macOS)" >&2
    exit 1
fi

out=.build/documentation
rm -rf "$out"
mkdir -p "$out/symbol-graphs"

echo "Extracting symbol graphs (builds the package)..."
swift package dump-symbol-graph >"$out/dump-symbol-graph.log" 2>&1 || { cat "$out/dump-symbol-graph.log" >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/dump-symbol-graph.log" | tail -1)
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    graphs=$(find .build -type d -name symbolgraph -path '*/.build/*' | head -1)
fi
[ -d "$graphs" ] || { echo "error: no symbol graphs found after dump-symbol-graph" >&2; exit 1; }

for catalog in Sources/*/*.docc; do
    module=$(basename "$catalog" .docc)
    mkdir -p "$out/symbol-graphs/$module"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$out/symbol-graphs/$module/" 2>/dev/null || true
    echo "Converting $catalog..."
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "analytics.$module" \
        --output-path "$out/$module.doccarchive" --warnings-as-errors >"$out/$module.log" 2>&1 \
        || { cat "$out/$module.log" >&2; echo "error: $catalog does not convert cleanly" >&2; exit 1; }
done
echo "Documentation in $out/*.doccarchive"
