#!/usr/bin/env bash
# explore --incremental, measured: a first run fills a results file, a re-run
# with nothing changed reuses it, a re-run after a comment is added re-runs no
# mutant, a re-run after a one-line code change inside one function of one SDK
# file runs exactly the mutants whose key changed (the script counts the keys
# that differ between the two files and compares), and a results file whose
# verdicts were falsified is caught by the reused-verdict check (exit 7).
# The package is never
# edited: the runs use a git worktree of HEAD under .build, sharing the
# package's scratch copy (so builds stay warm).
#
#   bash Benchmarks/incremental.sh [PATH] [FILE:LINE]   (default Sources/Analytics, a line of ScreenStack.push)
#
# The code change puts `_ = 0; ` in front of the statement on FILE:LINE (a
# line that starts a statement inside a function's body): the suite stays
# green, and the function's text is not what it was.
#
# FRESH=1 starts from an empty results file (the first run takes longest).
set -euo pipefail
cd "$(dirname "$0")/.."
path=${1:-Sources/Analytics}
target=${2:-Sources/Analytics/Screens/ScreenStack.swift:49}
out=.build/incremental-benchmark
tree=$out/tree
file=$out/results.json
mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=$PWD/.build/release/mutate
. Benchmarks/worktree.sh
fresh_worktree "$tree"
[ "${FRESH:-0}" = 1 ] && rm -f "$file"

run() { # NAME ARGS...: one incremental run in the worktree; its wall time, exit code and what it reused
    local name=$1; shift
    local start end code=0
    start=$(date +%s.%N)
    "$mutate" explore "$path" --package-path "$tree" --scratch .build/mutate/scratch --incremental "$file" \
        --output "$out/$name" "$@" > "$out/$name.log" 2>&1 || code=$?
    end=$(date +%s.%N)
    printf '%-10s %6.1f s  exit %d  %s\n' "$name" "$(echo "$end - $start" | bc)" "$code" "$(grep '^Incremental:' "$out/$name.log" | cut -c1-160)"
}

[ -f "$file" ] || { run first; cp "$file" "$out/first.json"; }
run unchanged
file_part=${target%%:*}; line=${target##*:}
# A comment added in place: the code is the same (baseline and map reused, the mutants found again), no key changed.
sed -i "1s|\$| // a comment added by Benchmarks/incremental.sh|" "$tree/$file_part"
run comment
python3 - "$out/comment/results.json" <<'PY' || { echo "a comment re-ran mutants"; exit 1; }
import json, sys
summary = json.load(open(sys.argv[1]))["incremental"]
print(f"comment: {summary['ran']} mutants run, baseline and map reused: {summary['reusedBaseline']}")
sys.exit(summary["ran"] != 0)
PY
git -C "$tree" checkout -q -- .
cp "$file" "$out/before.json"
# The one-line change: a statement put in front of the one on FILE:LINE.
sed -i "${line}s|^\( *\)|\1_ = 0; |" "$tree/$file_part"
git -C "$tree" diff --stat | tail -1
run one-line
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
before = json.load(open(f"{out}/before.json"))["verdicts"]
after = json.load(open(f"{out}/results.json"))["verdicts"]
run = json.load(open(f"{out}/one-line/results.json"))
names = [m["name"] for m in run["mutants"] if m["status"] != "ignored"]
def held(name):
    # The verdict's key is the same, or it was killed and its killer's key (killKey) is.
    b, a = before.get(name), after.get(name, {})
    if not b:
        return False
    if b["key"] == a.get("key"):
        return True
    return b["result"]["status"] == "killed" and b.get("killKey") is not None and b.get("killKey") == a.get("killKey")
changed = [n for n in names if not held(n)]
summary = run.get("incremental") or {}
print(f"one-line change: {len(changed)} of {len(names)} verdicts' keys changed; {summary.get('ran')} mutants run for it "
      f"(+{summary.get('verified')} reused ones re-run to check the file)")
sys.exit(0 if len(changed) == summary.get("ran") else 1)
PY
git -C "$tree" checkout -q -- .

# A file that lies: every killed verdict in a copy turned into a survivor. The
# package is as that copy last saw it, so all are reused, and the three
# re-run to check it must catch it: exit 7, the reused verdicts dropped.
python3 - "$out/before.json" "$out/lying.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
for entry in data["verdicts"].values():
    if entry["result"]["status"] == "killed":
        entry["result"]["status"] = "survived"
        entry["result"]["killedBy"] = []
json.dump(data, open(sys.argv[2], "w"))
PY
start=$(date +%s.%N); code=0
"$mutate" explore "$path" --package-path "$tree" --scratch .build/mutate/scratch --incremental "$out/lying.json" \
    --output "$out/lying" > "$out/lying.log" 2>&1 || code=$?
printf '%-10s %6.1f s  exit %d  %s\n' lying "$(echo "$(date +%s.%N) - $start" | bc)" "$code" "$(grep -c '^REUSED VERDICT WRONG' "$out/lying.log") wrong verdict(s) caught"
[ "$code" = 7 ] || { echo "the lying file was not caught"; exit 1; }
