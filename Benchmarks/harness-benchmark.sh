#!/usr/bin/env bash
# What a mutant costs CI: the harness against the lower bound and the naive way,
# on this package's six named mutants, printed in one run.
#
#   bash Benchmarks/harness-benchmark.sh
#
# Works under .build/bench (deleted and rebuilt each run); never touches the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bench="$root/.build/bench"
mutants=(seconds-vs-milliseconds ignored-modal retry-on-400 unfiltered-attribute missing-background-exit regenerated-install-id)
export MUTATE_RUNNING=1   # the same suite the harness runs: its own end-to-end tests skip themselves
export TMPDIR="$bench/tmp"
export GIT_CEILING_DIRECTORIES="$bench" # git apply in the copies patches the copy, not this repository

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
copy_package() { # a fresh copy of the package without build output or git
    rm -rf "$1"; mkdir -p "$1"
    tar -C "$root" --exclude=./.build --exclude=./.git --exclude=./.swiftpm -cf - . | tar -C "$1" -xf -
}

rm -rf "$bench"; mkdir -p "$bench/tmp"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(swift --version 2>&1 | head -1)"
swift build -c release --product mutate >/dev/null

args=(); for m in "${mutants[@]}"; do args+=(--mutant "$m"); done

echo; echo "== harness, first run (fresh scratch copy: includes one full build)"
start=$(now)
.build/release/mutate "${args[@]}" --scratch "$bench/scratch" --output "$bench/cold" > "$bench/cold.log" || true
cold_total=$(elapsed "$start" "$(now)")
echo "total ${cold_total}s"

echo; echo "== harness, warm run (scratch copy kept from the first run)"
start=$(now)
.build/release/mutate "${args[@]}" --scratch "$bench/scratch" --output "$bench/warm" > "$bench/warm.log" || true
warm_total=$(elapsed "$start" "$(now)")
echo "total ${warm_total}s"

echo; echo "== explore: generated mutants of Sources/Analytics/Delivery/Backoff.swift on the same scratch copy"
start=$(now)
.build/release/mutate explore Sources/Analytics/Delivery/Backoff.swift --scratch "$bench/scratch" --output "$bench/explore" > "$bench/explore.log" || true
explore_total=$(elapsed "$start" "$(now)")
echo "total ${explore_total}s"

echo; echo "== lower bound: an already-built copy, one mutant applied, incremental build + tests"
copy_package "$bench/lower"
(cd "$bench/lower" && swift build --build-tests >/dev/null 2>&1)
: > "$bench/lower.tsv"
for m in "${mutants[@]}"; do
    (cd "$bench/lower" && git apply "$root/mutants/$m.patch")
    s=$(now); (cd "$bench/lower" && swift build --build-tests >/dev/null 2>&1); b=$(now)
    (cd "$bench/lower" && swift test --skip-build >/dev/null 2>&1) || true; t=$(now)
    (cd "$bench/lower" && git apply -R "$root/mutants/$m.patch")
    printf "%s\t%s\t%s\n" "$m" "$(elapsed "$s" "$b")" "$(elapsed "$b" "$t")" >> "$bench/lower.tsv"
done

echo "== naive: a fresh copy, a clean build and the tests, for one mutant"
copy_package "$bench/naive"
(cd "$bench/naive" && git apply "$root/mutants/${mutants[0]}.patch")
s=$(now); (cd "$bench/naive" && swift build --build-tests >/dev/null 2>&1); b=$(now)
(cd "$bench/naive" && swift test --skip-build >/dev/null 2>&1) || true; t=$(now)
naive_build=$(elapsed "$s" "$b"); naive_test=$(elapsed "$b" "$t")

echo
python3 - "$bench" "$cold_total" "$warm_total" "$naive_build" "$naive_test" "$explore_total" <<'PY'
import json, statistics, sys
bench, cold_total, warm_total, naive_build, naive_test, explore_total = sys.argv[1], *map(float, sys.argv[2:])
warm = json.load(open(f"{bench}/warm/results.json"))
cold = json.load(open(f"{bench}/cold/results.json"))
lower = {}
for line in open(f"{bench}/lower.tsv"):
    name, build, test = line.split("\t")
    lower[name] = (float(build), float(test))
print(f"{'mutant':26} {'status':8} {'harness build':>13} {'test':>6} {'total':>6}   {'lower build':>11} {'test':>6} {'total':>6}   ratio")
ratios, harness_totals = [], []
for m in warm["mutants"]:
    lb, lt = lower[m["name"]]
    total = m["buildSeconds"] + m["testSeconds"]
    harness_totals.append(total)
    ratios.append(total / (lb + lt))
    print(f"{m['name']:26} {m['status']:8} {m['buildSeconds']:13.2f} {m['testSeconds']:6.2f} {total:6.2f}   {lb:11.2f} {lt:6.2f} {lb + lt:6.2f}   {total / (lb + lt):.2f}")
per_mutant = sum(harness_totals) / len(harness_totals)
overhead = (warm_total - warm["baselineBuildSeconds"] - warm["baselineTestSeconds"] - sum(harness_totals)) / len(harness_totals)
print()
print(f"harness, first run: {cold_total:.1f}s total (baseline build {cold['baselineBuildSeconds']:.1f}s, tests {cold['baselineTestSeconds']:.1f}s)")
print(f"harness, warm run:  {warm_total:.1f}s total (baseline build {warm['baselineBuildSeconds']:.1f}s, tests {warm['baselineTestSeconds']:.1f}s)")
print(f"per mutant (warm): {per_mutant:.2f}s measured + {overhead:.2f}s harness overhead (apply, restore, reports)")
mean_ratio = sum(ratios) / len(ratios)
print(f"harness / lower bound per mutant: {mean_ratio:.2f} (target <= 1.3) {'ok' if mean_ratio <= 1.3 else 'MISS'}")
naive = naive_build + naive_test
print(f"naive, one mutant: {naive:.1f}s (clean build {naive_build:.1f}s, tests {naive_test:.1f}s)")
speedup = naive / (per_mutant + overhead)
print(f"naive / harness per mutant: {speedup:.1f}x (target >= 5x) {'ok' if speedup >= 5 else 'MISS'}")
explore = json.load(open(f"{bench}/explore/results.json"))
generated = [m["buildSeconds"] + m["testSeconds"] for m in explore["mutants"] if m["status"] not in ("pending", "ignored", "stale")]
named = [m["buildSeconds"] + m["testSeconds"] for m in warm["mutants"]]
if generated:
    median_generated, median_named = statistics.median(generated), statistics.median(named)
    print()
    print(f"explore: {len(generated)} generated mutants in {explore_total:.1f}s; median per generated mutant {median_generated:.2f}s, "
          f"per named mutant {median_named:.2f}s (side by side, same run, same scratch copy)")
    print(f"  median per generated mutant <= 0.5s: {'ok' if median_generated <= 0.5 else 'MISS'}; "
          f"<= 1/4 of a named mutant: {'ok' if median_generated <= median_named / 4 else 'MISS'} "
          f"(generated mutants run in the schema: no build; the suite's own time is the floor)")
PY
