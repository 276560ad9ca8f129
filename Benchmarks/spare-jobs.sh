#!/usr/bin/env bash
# Spare test processes (the default: beside one per core, up to three more
# per core while a core is idle) against exactly one per core (`--jobs
# CORES`): the same generated mutants both ways, each run from an empty
# results file, verdicts compared one by one by what they mean for the score
# (Benchmarks/compare-results.py), and the wall times side by side: the whole
# run and its mutants' loop (from the first verdict to the last). Any
# verdict that differs exits 1.
#
#   bash Benchmarks/spare-jobs.sh [PATH...]   default: the folders CI explores
set -euo pipefail
cd "$(dirname "$0")/.."
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(Sources/Analytics Sources/AnalyticsSupport Sources/AnalyticsTesting Sources/Collector
    Sources/CollectorServer Sources/AnalyticsFaultChild Sources/collector Sources/AnalyticsBenchmarks)
cores=$(getconf _NPROCESSORS_ONLN)
out=.build/spare-jobs
rm -rf "$out"; mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=.build/release/mutate
# The copy built once before either run, so neither pays for it.
"$mutate" explore --list "${paths[@]}" > /dev/null 2> "$out/warm-up.log" || { tail -5 "$out/warm-up.log"; exit 1; }
run() { # NAME ARGS...
    local name=$1; shift
    local start end
    start=$(date +%s.%N)
    # Each line stamped with the time it came (bash's clock: no process per line), for the loop's time.
    "$mutate" explore "${paths[@]}" --incremental "$out/$name.json" --output "$out/$name" "$@" 2>&1 |
        while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done > "$out/$name.log" || true
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.0f}')" > "$out/$name.seconds"
    [ -f "$out/$name.json" ] || { echo "$name wrote no results file: see $out/$name.log"; tail -5 "$out/$name.log"; exit 1; }
}
run fixed --jobs "$cores"
run spare
python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
for name in ["fixed", "spare"]:
    stamps = [float(line.split(" ", 1)[0]) for line in open(f"{out}/{name}.log") if re.match(r"^[0-9.]+ \[ *[0-9]+/[0-9]+\] +(killed|survived|timeout|noCoverage|unviable) ", line)]
    loop = stamps[-1] - stamps[0] if stamps else 0
    print(f"{name}: {open(f'{out}/{name}.seconds').read().strip()} s in all, the mutants' loop {loop:.0f} s ({len(stamps)} verdicts)")
PY
python3 Benchmarks/compare-results.py "$out/fixed.json" "$out/spare.json"
