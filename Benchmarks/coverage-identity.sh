#!/usr/bin/env bash
# Tests chosen by coverage against the whole suite: the same mutants run both
# ways, verdicts compared one by one, costs printed side by side. Any
# difference is a bug in the selection, and the script exits 1. The named
# mutants' reference also builds each mutant on its own (--no-schema), so
# their comparison proves the named mutants' schema too.
#
#   bash Benchmarks/coverage-identity.sh            every named mutant, and 300 generated ones
#   bash Benchmarks/coverage-identity.sh named      only the named mutants
#   bash Benchmarks/coverage-identity.sh explore N  only a sample of N generated mutants (the N whose ids sort first)
#
# Verdicts are compared by what they mean for the score: killed and timeout
# are both detected; survived and noCoverage are both missed (a mutant no
# test reaches survives the whole suite too, without a test having to run);
# stale, unviable and error must match exactly. KEEP=1 keeps the results of
# a run already made (the whole suite's take longest).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
sample=${2:-300}
out=.build/coverage-identity
mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=.build/release/mutate

# shellcheck source=Benchmarks/harness-run.sh
source Benchmarks/harness-run.sh

if [ "$what" = all ] || [ "$what" = named ]; then
    run named-whole --no-coverage --no-schema --scratch "$out/scratch-whole"
    run named-chosen
fi
if [ "$what" = all ] || [ "$what" = explore ]; then
    run explore-whole explore Sources --sample "$sample" --no-coverage --scratch "$out/scratch-whole"
    run explore-chosen explore Sources --sample "$sample"
fi

python3 - "$out" "$what" <<'PY'
import json, os, statistics, sys
out, what = sys.argv[1], sys.argv[2]
meaning = {"killed": "detected", "timeout": "detected", "survived": "missed", "noCoverage": "missed"}
failed = False
for kind in ["named", "explore"]:
    if not os.path.exists(f"{out}/{kind}-whole/results.json") or what not in ("all", kind):
        continue
    whole = {m["name"]: m for m in json.load(open(f"{out}/{kind}-whole/results.json"))["mutants"]}
    chosen = {m["name"]: m for m in json.load(open(f"{out}/{kind}-chosen/results.json"))["mutants"]}
    if set(whole) != set(chosen):
        print(f"{kind}: the two runs did not run the same mutants"); failed = True; continue
    differ = [n for n in whole if meaning.get(whole[n]["status"], whole[n]["status"]) != meaning.get(chosen[n]["status"], chosen[n]["status"])]
    counted = [n for n in whole if whole[n]["status"] != "ignored"]
    statuses = lambda runs: ", ".join(f"{s} {sum(1 for n in counted if runs[n]['status'] == s)}" for s in sorted({runs[n]["status"] for n in counted}))
    print(f"{kind}: {len(counted)} mutants; same verdict: {len(counted) - len(differ)}; different: {len(differ)}")
    print(f"  whole suite: {statuses(whole)}")
    print(f"  chosen tests: {statuses(chosen)}")
    for n in differ:
        print(f"  DIFFERENT {n}: whole suite {whole[n]['status']}, chosen tests {chosen[n]['status']}  ({chosen[n].get('reason') or ''})")
        failed = True
    cost = lambda runs: sum(runs[n]["buildSeconds"] + runs[n]["testSeconds"] for n in counted)
    wall = lambda name: float(open(f"{out}/{kind}-{name}.seconds").read())
    covered = [len(chosen[n]["coveredBy"]) for n in counted if chosen[n].get("coveredBy")]
    results = json.load(open(f"{out}/{kind}-chosen/results.json"))
    print(f"  wall time: whole suite {wall('whole'):.0f}s, chosen tests {wall('chosen'):.0f}s "
          f"(coverage pass {results.get('coverageSeconds') or 0:.0f}s); mutants alone: {cost(whole):.0f}s vs {cost(chosen):.0f}s")
    if covered:
        print(f"  tests chosen per mutant: median {statistics.median(covered):.0f} of {len(results['tests'])}, "
              f"{sum(1 for n in counted if not chosen[n].get('coveredBy') and chosen[n]['status'] not in ('noCoverage', 'stale'))} ran the whole suite")
sys.exit(1 if failed else 0)
PY
