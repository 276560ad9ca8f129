#!/usr/bin/env bash
# The harness on another package, side by side with what a per-mutant tool
# pays (Muter runs the whole suite once per mutant): one `swift test
# --skip-build` of the package, against the time each generated mutant
# costs under `mutate explore` (its chosen tests, or none). Written for
# apple/swift-log 1.6.4 (one XCTest target); any SwiftPM package works.
#
#   bash Benchmarks/foreign-package.sh PATH [SAMPLE]
#
# PATH is a checkout of the package (it is copied; the checkout is never
# written). SAMPLE (default 60) is `--sample`: the mutants whose ids sort
# first. The machine cannot fetch packages here, so the checkout is given.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -f "$1/Package.swift" ] || { echo "usage: bash Benchmarks/foreign-package.sh PATH-TO-PACKAGE [SAMPLE]" >&2; exit 2; }
sample=${2:-60}
out=.build/foreign-package
rm -rf "$out"
mkdir -p "$out"
cp -R "$1" "$out/package"
rm -rf "$out/package/.build"
swift build -c release --product mutate >/dev/null
mutate=$(pwd)/.build/release/mutate

echo "== the package's own suite: swift build --build-tests, then swift test --skip-build three times"
(cd "$out/package" && swift build --build-tests >/dev/null 2>&1)
for run in 1 2 3; do
    start=$(date +%s.%N)
    (cd "$out/package" && swift test --skip-build >/dev/null 2>&1)
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.2f}')" >> "$out/swift-test.seconds"
done

echo "== mutate explore Sources --sample $sample"
start=$(date +%s.%N)
"$mutate" explore Sources --package-path "$out/package" --sample "$sample" --output "$(pwd)/$out/report" > "$out/explore.log" 2>&1 || true
end=$(date +%s.%N)
python3 -c "print(f'{$end - $start:.1f}')" > "$out/explore.seconds"

python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
suite = sorted(float(x) for x in open(f"{out}/swift-test.seconds"))
report = json.load(open(f"{out}/report/results.json"))
ran = [m for m in report["mutants"] if m["status"] not in ("ignored", "pending")]
cost = [m["buildSeconds"] + m["testSeconds"] for m in ran]
statuses = {}
for m in ran:
    statuses[m["status"]] = statuses.get(m["status"], 0) + 1
median_suite = statistics.median(suite)
print(f"swift test --skip-build: {', '.join(f'{s:.2f}' for s in suite)} s (median {median_suite:.2f} s)")
print(f"mutants run: {len(ran)} ({', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))})")
print(f"per generated mutant: mean {statistics.mean(cost):.2f} s, median {statistics.median(cost):.2f} s "
      f"= {statistics.mean(cost) / median_suite:.2f}x / {statistics.median(cost) / median_suite:.2f}x one swift test --skip-build")
print(f"fixed costs: baseline build {report['baselineBuildSeconds']:.1f} s, baseline tests {report['baselineTestSeconds']:.1f} s, "
      f"coverage pass {report.get('coverageSeconds') or 0:.1f} s; whole explore run {open(f'{out}/explore.seconds').read().strip()} s")
PY
