#!/usr/bin/env bash
# The switch pass's narrowing (the default: a mutant the coverage map places
# runs only the tests that ran its own switch) against the map's tests by
# function (--no-narrowing, the reference): the same generated mutants
# both ways, verdicts compared one by one by what they mean for the score
# (killed and timeout are detected; survived and noCoverage missed), the
# tests chosen and the cost side by side. Any difference exits 1.
#
#   bash Benchmarks/switch-identity.sh [PATH...]
#
# Default: the lab's Lab+Mutant.swift and Lab+Incremental.swift (about 330
# mutants), where the map's functions are run by most lab tests.
# KEEP=1 keeps a finished run of either side (Benchmarks/harness-run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(Sources/MutationHarness/Lab/Lab+Mutant.swift Sources/MutationHarness/Lab/Lab+Incremental.swift)
out=.build/switch-identity
mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=.build/release/mutate
# shellcheck source=Benchmarks/harness-run.sh
source Benchmarks/harness-run.sh
run narrowed explore "${paths[@]}"
run by-function explore "${paths[@]}" --no-narrowing
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
meaning = {"killed": "detected", "timeout": "detected", "survived": "missed", "noCoverage": "missed"}
narrowed = {m["name"]: m for m in json.load(open(f"{out}/narrowed/results.json"))["mutants"]}
function = {m["name"]: m for m in json.load(open(f"{out}/by-function/results.json"))["mutants"]}
if set(narrowed) != set(function):
    print("the two runs did not run the same mutants"); sys.exit(1)
compared = [n for n in narrowed if narrowed[n]["status"] not in ("ignored", "pending")]
differ = [n for n in compared if meaning.get(narrowed[n]["status"], narrowed[n]["status"]) != meaning.get(function[n]["status"], function[n]["status"])]
statuses = lambda runs: ", ".join(f"{s} {sum(1 for n in compared if runs[n]['status'] == s)}" for s in sorted({runs[n]["status"] for n in compared}))
print(f"{len(compared)} mutants; same verdict: {len(compared) - len(differ)}; different: {len(differ)}")
print(f"  narrowed:    {statuses(narrowed)}")
print(f"  by function: {statuses(function)}")
for n in differ:
    print(f"  DIFFERENT {n}: narrowed {narrowed[n]['status']}, by function {function[n]['status']}  ({narrowed[n].get('reason') or ''})")
covered = lambda runs: [len(runs[n].get("coveredBy") or []) for n in compared if runs[n]["status"] != "noCoverage"]
tests = lambda runs: sum(runs[n]["testSeconds"] for n in compared)
wall = lambda name: float(open(f"{out}/{name}.seconds").read())
for name, runs in [("narrowed", narrowed), ("by-function", function)]:
    results = json.load(open(f"{out}/{name}/results.json"))
    print(f"  {name}: wall {wall(name):.0f} s (coverage and switch passes {results.get('coverageSeconds') or 0:.0f} s), "
          f"test processes {tests(runs):.0f} s, covering tests a mutant: median {statistics.median(covered(runs) or [0]):.0f}")
sys.exit(1 if differ else 0)
PY
