#!/usr/bin/env bash
# explore --incremental, measured: a first run fills a results file, a re-run
# with nothing changed reuses it, and a re-run after a one-line change in one
# SDK file runs exactly the mutants whose key changed (the script counts the
# keys that differ between the two files and compares). The package is never
# edited: the runs use a git worktree of HEAD under .build, sharing the
# package's scratch copy (so builds stay warm).
#
#   bash Benchmarks/incremental.sh [PATH] [FILE:LINE]   (default Sources/Analytics, a line of ScreenStack.swift)
#
# FRESH=1 starts from an empty results file (the first run takes longest).
set -euo pipefail
cd "$(dirname "$0")/.."
path=${1:-Sources/Analytics}
target=${2:-Sources/Analytics/Screens/ScreenStack.swift:1}
out=.build/incremental-benchmark
tree=$out/tree
file=$out/results.json
mkdir -p "$out"
swift build -c release --product mutate >/dev/null
mutate=$PWD/.build/release/mutate
if [ ! -d "$tree" ]; then git worktree add --detach "$tree" HEAD >/dev/null; fi
git -C "$tree" checkout -q --detach HEAD 2>/dev/null || true
git -C "$tree" reset -q --hard "$(git rev-parse HEAD)"
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

[ -f "$file" ] || run first
run unchanged
cp "$file" "$out/before.json"
# The one-line change: a comment appended to one line of one SDK file.
file_part=${target%%:*}; line=${target##*:}
sed -i "${line}s|\$| // edited by Benchmarks/incremental.sh|" "$tree/$file_part"
run one-line
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
before = json.load(open(f"{out}/before.json"))["verdicts"]
after = json.load(open(f"{out}/results.json"))["verdicts"]
run = json.load(open(f"{out}/one-line/results.json"))
names = [m["name"] for m in run["mutants"] if m["status"] != "ignored"]
changed = [n for n in names if n not in before or before[n]["key"] != after.get(n, {}).get("key")]
summary = run.get("incremental") or {}
print(f"one-line change: {len(changed)} of {len(names)} keys changed; {summary.get('ran')} mutants run for it "
      f"(+{summary.get('verified')} reused ones re-run to check the file)")
sys.exit(0 if len(changed) == summary.get("ran") else 1)
PY
git -C "$tree" checkout -q -- .
