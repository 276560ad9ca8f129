# Sourced by the identity benchmarks: `run NAME ARGS...` runs "$mutate" ARGS
# with its reports in "$out/NAME" (its console in NAME.log, its wall time in
# NAME.seconds). KEEP=1 keeps a finished run already made.
run() {
    local name=$1; shift
    local start end
    if [ "${KEEP:-0}" = 1 ] && [ -f "$out/$name/results.json" ] \
        && ! grep -q '"status" *: *"pending"' "$out/$name/results.json"; then
        echo "(keeping $out/$name from an earlier, finished run)"; return
    fi
    # A run that stops before its verdicts must not leave an older run's results to be read.
    rm -rf "${out:?}/$name"
    start=$(date +%s.%N)
    "$mutate" "$@" --output "$out/$name" > "$out/$name.log" 2>&1 || true
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.1f}')" > "$out/$name.seconds"
    if [ ! -f "$out/$name/results.json" ]; then echo "$name wrote no results: see $out/$name.log"; tail -5 "$out/$name.log"; exit 1; fi
}
