#!/usr/bin/env bash
# Mutant schemata against patches: the same generated mutants run both ways
# (one build with a run-time switch, then one build per mutant), statuses
# compared one by one, per-mutant cost printed side by side.
#
#   bash Benchmarks/explore-identity.sh [PATH...]   (default: ScreenStack.swift and Backoff.swift, 49 mutants)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(Sources/Analytics/Screens/ScreenStack.swift Sources/Analytics/Delivery/Backoff.swift)
out=.build/explore-identity
rm -rf "$out"; mkdir -p "$out"
swift build -c release --product mutate >/dev/null
.build/release/mutate explore "${paths[@]}" --output "$out/schema" > "$out/schema.log" 2>&1 || true
.build/release/mutate explore "${paths[@]}" --no-schema --output "$out/patch" > "$out/patch.log" 2>&1 || true
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
schema = {m["name"]: m for m in json.load(open(f"{out}/schema/results.json"))["mutants"]}
patch = {m["name"]: m for m in json.load(open(f"{out}/patch/results.json"))["mutants"]}
same = [n for n in schema if n in patch and schema[n]["status"] == patch[n]["status"]]
differ = [n for n in schema if n in patch and schema[n]["status"] != patch[n]["status"]]
print(f"{len(schema)} mutants; identical outcomes: {len(same)}; different: {len(differ)}")
for n in differ:
    print(f"  {n}: schema {schema[n]['status']}, patch {patch[n]['status']}  {schema[n]['description']}")
cost = lambda runs: statistics.median(m["buildSeconds"] + m["testSeconds"] for m in runs.values())
print(f"median per mutant: schema {cost(schema):.2f}s (no build), patch {cost(patch):.2f}s (build + tests)")
PY
