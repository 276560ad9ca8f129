#!/usr/bin/env bash
# `mutate rebase` replayed on this repository's history: for every commit
# that re-recorded a named mutant, the patch as it was before the commit is
# rebased onto the commit's own source, and the result compared with the
# re-recorded patch by what each does to the source (the files after
# applying it). Exits 1 if any rebase is wrong (carried, but to a different
# result).
#
#   bash Benchmarks/rebase-history.sh           # every re-record
#   bash Benchmarks/rebase-history.sh NAME...   # only these mutants' re-records
#
# Categories: carried (same result as the re-record), wrong (carried, other
# result), refused (left stale, with its reason), applies (the old patch
# still applied: the re-record changed the mutant on purpose, not counted).
# A hand re-record is also told by what it changes: "lines moved" when it
# removes the same lines as the old patch (indentation aside), "lines
# rewritten" when it removes others (the code the mutant changed was
# rewritten, and the re-record is a new edit of the new code).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=.build/rebase-history
rm -rf "$work"
mkdir -p "$work"
if [ -z "${MUTATE:-}" ]; then
    swift build -c release --product mutate >/dev/null
    MUTATE=$repo/.build/release/mutate
fi

python3 - "$repo" "$work" "$MUTATE" "$@" <<'PY'
import os, subprocess, sys, shutil
repo, work, mutate = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
only = set(sys.argv[4:])

def git(*args, **kw):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, **kw).stdout

def tree(commit, folder):
    os.makedirs(folder)
    archive = subprocess.run(["git", "-C", repo, "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)

def applied(folder, patch_text, out):
    """The tree at `folder` with the patch applied, copied to `out`; None if it does not apply."""
    shutil.copytree(folder, out, symlinks=True)
    # A repository of its own, so git applies relative to it (not to this one).
    subprocess.run(["git", "init", "-q", out], check=True)
    patch = out + ".patch"
    open(patch, "w").write(patch_text)
    result = subprocess.run(["git", "apply", "--unidiff-zero", os.path.abspath(patch)], cwd=out, capture_output=True)
    return out if result.returncode == 0 else None

def files(folder):
    found = {}
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            path = os.path.join(root, name)
            found[os.path.relpath(path, folder)] = open(path, "rb").read()
    return found

# A re-record edits the patch (M), or deletes it and adds it again later (A
# of a path some earlier commit deleted): the old patch is the last one before.
cases = []
for commit in reversed(git("log", "--format=%H", "--diff-filter=AM", "--", "mutants/*.patch").decode().split()):
    for status_path in git("diff", "--name-status", "--diff-filter=AM", commit + "^", commit, "--", "mutants/").decode().splitlines():
        status, path = status_path.split("\t", 1)
        if not path.endswith(".patch"):
            continue
        if status == "M":
            cases.append((commit, path, git("show", f"{commit}^:{path}").decode()))
            continue
        deleted = git("log", "-1", "--format=%H", "--diff-filter=D", commit + "^", "--", path).decode().strip()
        if deleted:
            cases.append((commit, path, git("show", f"{deleted}^:{path}").decode()))

def removed_lines(patch):
    """The lines a patch removes, indentation aside, sorted: what it changes."""
    return sorted(line[1:].strip() for line in patch.splitlines() if line.startswith("-") and not line.startswith("---"))

counts = {"carried": 0, "wrong": 0, "refused": 0, "applies": 0}
# A hand re-record that removes the same lines as the old patch (indentation
# aside) found its lines only moved: `rebase` should carry it. One that
# removes other lines rewrote the mutant for changed code: its lines are
# gone, and `rebase` carries it only by an anchor (one token, a block).
by_kind = {"moved": {"carried": 0, "wrong": 0, "refused": 0}, "rewritten": {"carried": 0, "wrong": 0, "refused": 0}}
# A re-record that `mutate rebase` made itself (its patch has a `Rebased:`
# header) is counted apart: carrying it again proves little.
by_rebase = {"carried": 0, "wrong": 0, "refused": 0}

def count(tally, kind, verdict):
    """One case's verdict, in its tally and, for a hand re-record, by its kind."""
    tally[verdict] += 1
    if tally is counts:
        by_kind[kind][verdict] += 1

for commit, path, old in cases:
    short = commit[:7]
    name = os.path.basename(path)[:-len(".patch")]
    if only and name not in only:
        continue
    case = os.path.join(work, f"{short}-{name}")
    source = os.path.join(case, "source")
    tree(commit, source)
    new = git("show", f"{commit}:{path}").decode()
    tally = by_rebase if any(line.startswith("Rebased:") for line in new.splitlines()) else counts
    kind = "moved" if removed_lines(old) == removed_lines(new) else "rewritten"
    made = " (re-recorded by mutate rebase)" if tally is by_rebase else f" [lines {kind}]"
    mutants = os.path.join(case, "mutants")
    os.makedirs(mutants)
    open(os.path.join(mutants, f"{name}.patch"), "w").write(old)
    run = subprocess.run([mutate, "rebase", name, "--package-path", source, "--mutants", mutants], capture_output=True, text=True)
    line = (run.stdout.strip().splitlines() or [run.stderr.strip()])[0]
    if line.startswith("ok "):
        counts["applies"] += 1
        print(f"applies  {short} {name}: the old patch still applied (re-recorded on purpose)")
        continue
    if not line.startswith("rebased "):
        count(tally, kind, "refused")
        print(f"refused  {short} {name}{made}: {line}")
        continue
    rebased = open(os.path.join(mutants, f"{name}.patch")).read()
    ours = applied(source, rebased, os.path.join(case, "rebased"))
    theirs = applied(source, new, os.path.join(case, "recorded"))
    if ours and theirs and files(ours) == files(theirs):
        count(tally, kind, "carried")
        print(f"carried  {short} {name}{made}: the same source as the re-recorded patch")
    else:
        count(tally, kind, "wrong")
        print(f"WRONG    {short} {name}{made}: rebased and re-recorded differ (see {case})")

stale = counts["carried"] + counts["wrong"] + counts["refused"]
again = by_rebase["carried"] + by_rebase["wrong"] + by_rebase["refused"]
print(f"\n{stale} stale re-records by hand: {counts['carried']} carried, {counts['wrong']} wrong, {counts['refused']} refused; "
      f"{again} made by mutate rebase itself: {by_rebase['carried']} carried again, {by_rebase['wrong']} wrong; "
      f"{counts['applies']} re-records whose old patch still applied")
for kind, tally in by_kind.items():
    print(f"  by hand, lines {kind}: {sum(tally.values())}: {tally['carried']} carried, {tally['wrong']} wrong, {tally['refused']} refused")
sys.exit(1 if counts["wrong"] or by_rebase["wrong"] else 0)
PY
