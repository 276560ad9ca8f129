#!/usr/bin/env python3
"""Two results files of `explore --incremental` (or `--incremental` of the
gate) compared mutant by mutant: a change to the harness that runs fewer or
other tests first must reach the same verdicts as before it.

    python3 Benchmarks/compare-results.py BEFORE.json AFTER.json

Verdicts are compared by what they mean for the score (killed and timeout
are detected; survived and noCoverage missed), over the mutants both files
hold. Prints the differences, the statuses that moved within one meaning,
and the test seconds of the common mutants, in all and per status. Exits 1
if any verdict differs in meaning, 2 on unreadable input."""
import json
import sys

MEANING = {"killed": "detected", "timeout": "detected", "survived": "missed", "noCoverage": "missed"}


def results(path):
    try:
        with open(path) as file:
            verdicts = json.load(file)["verdicts"]
        table = {name: entry["result"] for name, entry in verdicts.items()}
        for result in table.values():
            str(result["status"])
        return table
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"{path}: not a results file ({type(error).__name__}: {error})", file=sys.stderr)
        sys.exit(2)


def main():
    if len(sys.argv) != 3:
        print("usage: python3 Benchmarks/compare-results.py BEFORE.json AFTER.json", file=sys.stderr)
        sys.exit(2)
    before, after = results(sys.argv[1]), results(sys.argv[2])
    common = sorted(set(before) & set(after))
    meaning = lambda result: MEANING.get(result["status"], result["status"])
    differ = [name for name in common if meaning(before[name]) != meaning(after[name])]
    moved = {}
    for name in common:
        pair = (before[name]["status"], after[name]["status"])
        if pair[0] != pair[1] and name not in differ:
            moved[pair] = moved.get(pair, 0) + 1
    print(f"{len(common)} mutants in both ({len(before)} before, {len(after)} after); "
          f"{len(common) - len(differ)} the same in meaning, {len(differ)} different")
    for name in differ:
        print(f"  {name}: {before[name]['status']} -> {after[name]['status']}  {after[name].get('description', '')}")
    for (old, new), count in sorted(moved.items()):
        print(f"  {count} {old} -> {new} (the same meaning)")
    seconds = lambda table: sum(table[name].get("testSeconds", 0) for name in common)
    print(f"test seconds of those mutants: {seconds(before):.0f} before, {seconds(after):.0f} after")
    for status in sorted({before[name]["status"] for name in common}):
        names = [name for name in common if before[name]["status"] == status]
        print(f"  {status} before ({len(names)}): {sum(before[n].get('testSeconds', 0) for n in names):.0f} s before, "
              f"{sum(after[n].get('testSeconds', 0) for n in names):.0f} s after")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
