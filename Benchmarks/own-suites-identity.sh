#!/usr/bin/env bash
# The mutant's own suites first (the default), against one run of all its
# covering tests (--all-tests, which runs them all in one go): the same
# mutants both ways, verdicts compared one by one by what they mean for the
# score (killed and timeout are detected; survived and noCoverage missed),
# and the cost per mutant side by side. Any difference exits 1.
#
#   bash Benchmarks/own-suites-identity.sh [N]   every named mutant, and the N generated ones whose ids sort first (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
sample=${1:-120}
out=.build/own-suites-identity
rm -rf "$out"; mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=.build/release/mutate
run() { # NAME ARGS...
    local name=$1; shift
    local start end
    start=$(date +%s.%N)
    "$mutate" "$@" --output "$out/$name" > "$out/$name.log" 2>&1 || true
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.1f}')" > "$out/$name.seconds"
    [ -f "$out/$name/results.json" ] || { echo "$name wrote no results: see $out/$name.log"; tail -5 "$out/$name.log"; exit 1; }
}
run named-own
run named-all --all-tests
run explore-own explore Sources --sample "$sample"
run explore-all explore Sources --sample "$sample" --all-tests
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
meaning = {"killed": "detected", "timeout": "detected", "survived": "missed", "noCoverage": "missed"}
failed = False
for kind in ["named", "explore"]:
    own = {m["name"]: m for m in json.load(open(f"{out}/{kind}-own/results.json"))["mutants"]}
    every = {m["name"]: m for m in json.load(open(f"{out}/{kind}-all/results.json"))["mutants"]}
    compared = [n for n in own if n in every and own[n]["status"] != "ignored"]
    differ = [n for n in compared if meaning.get(own[n]["status"], own[n]["status"]) != meaning.get(every[n]["status"], every[n]["status"])]
    seconds = lambda name: open(f"{out}/{name}.seconds").read().strip()
    cost = lambda runs: statistics.median(runs[n]["testSeconds"] for n in compared) if compared else 0
    print(f"{kind}: {len(compared)} mutants, {len(compared) - len(differ)} the same verdict, {len(differ)} different; "
          f"run {seconds(kind + '-own')} s own suites first, {seconds(kind + '-all')} s all covering tests in one run; "
          f"median tests per mutant {cost(own):.2f} s vs {cost(every):.2f} s")
    for n in differ:
        failed = True
        print(f"  {n}: own suites first {own[n]['status']}, all tests {every[n]['status']}")
sys.exit(1 if failed else 0)
PY
