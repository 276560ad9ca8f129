#!/usr/bin/env bash
# The gate with --incremental, measured, and its verdicts against the gate
# without it: a first run fills a results file, a re-run with nothing changed
# reuses it, and a re-run after a one-line code change inside one function
# runs only the named mutants whose key changed. The gate without the file is
# then run on the same changed tree (the reference): every named mutant must
# get the same verdict (killed and timeout alike), or the script fails.
# The package is never edited: the runs use a git worktree of HEAD under
# .build, sharing the package's scratch copy (so builds stay warm).
#
#   bash Benchmarks/gate-incremental.sh [FILE:LINE]   (default: a line of ScreenStack.remove, which no named mutant changes)
#
# The code change puts `_ = 0; ` in front of the statement on FILE:LINE (a
# line that starts a statement inside a function's body): the suite stays
# green, and the function's text is not what it was.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-Sources/Analytics/Screens/ScreenStack.swift:80}
out=.build/gate-incremental-benchmark
tree=$out/tree
file=$out/gate-results.json
mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=$PWD/.build/release/mutate
. Benchmarks/worktree.sh
fresh_worktree "$tree"
rm -f "$file"

run() { # NAME ARGS...: one gate in the worktree; its wall time, exit code and what it reused
    local name=$1; shift
    local start end code=0
    start=$(date +%s.%N)
    "$mutate" --package-path "$tree" --scratch .build/mutate/scratch --output "$out/$name" "$@" > "$out/$name.log" 2>&1 || code=$?
    end=$(date +%s.%N)
    printf '%-10s %6.1f s  exit %d  %s\n' "$name" "$(echo "$end - $start" | bc)" "$code" \
        "$( (grep '^Incremental:' "$out/$name.log" || grep '^Gate' "$out/$name.log") | cut -c1-160)"
}

run first --incremental "$file"
run unchanged --incremental "$file"
file_part=${target%%:*}; line=${target##*:}
sed -i "${line}s|^\( *\)|\1_ = 0; |" "$tree/$file_part"
git -C "$tree" diff --stat | tail -1
run one-line --incremental "$file"
run reference
git -C "$tree" checkout -q -- .
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def verdicts(name):
    report = json.load(open(f"{out}/{name}/results.json"))
    same = {"killed": "detected", "timeout": "detected"}
    return {m["name"]: same.get(m["status"], m["status"]) for m in report["mutants"]}, report.get("incremental") or {}
incremental, summary = verdicts("one-line")
reference, _ = verdicts("reference")
differ = sorted(n for n in reference if incremental.get(n) != reference[n])
print(f"one-line change: {summary.get('ran')} named mutants run, {summary.get('reused')} reused "
      f"({summary.get('verified')} of them re-run to check the file)")
print(f"verdicts with the file against the gate without it: {len(reference) - len(differ)} of {len(reference)} the same")
for name in differ:
    print(f"  DIFFERENT {name}: {incremental.get(name)} with the file, {reference[name]} without")
sys.exit(1 if differ else 0)
PY
