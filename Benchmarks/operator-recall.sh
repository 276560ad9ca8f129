#!/usr/bin/env bash
# How many of this package's named mutants (real bugs, each one this team
# fixed) `mutate explore` would have generated: for every mutants/*.patch,
# the source after the patch is compared with the source after each
# generated mutant of the same file (`explore --list --json`: the bytes it
# replaces and what it puts there), compared as code: token by token,
# whitespace and comments aside (neither changes the program). A named mutant is recalled when one generated mutant
# gives the same source. Each named mutant is also sorted by the shape of
# its edit (one operator or literal, a name for another, a dropped update,
# a removed block, ...), and the recall is printed per shape and operator.
#
#   bash Benchmarks/operator-recall.sh
#
# Prints one line per named mutant and the table; writes nothing outside
# .build/operator-recall. A stale patch (one that no longer applies) is
# counted apart: `mutate check` names it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/operator-recall
rm -rf "$out"
mkdir -p "$out"
if [ -z "${MUTATE:-}" ]; then
    swift build -c release --product mutate >/dev/null
    MUTATE=.build/release/mutate
fi
start=$(date +%s)
"$MUTATE" explore Sources --list --json > "$out/list.jsonl" 2> "$out/list.log" || { echo "explore --list failed: see $out/list.log"; tail -5 "$out/list.log"; exit 1; }
echo "explore --list --json: $(($(date +%s) - start)) s"

python3 - "$out" <<'PY'
import collections, json, os, re, shutil, subprocess, sys
out = sys.argv[1]
points = collections.defaultdict(list)
for line in open(os.path.join(out, "list.jsonl")):
    if line.startswith("{"):
        point = json.loads(line)
        points[point["file"]].append(point)

def without_comments(text):
    """The text with `//` and `/* */` comments left out (not inside string literals)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end < 0 else end + 3
            out.append(text[i:end]); i = end
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1]); i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        else:
            out.append(text[i]); i += 1
    return "".join(out)

CODE = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|[A-Za-z_$][A-Za-z0-9_$]*|\d[\d_.]*|[+\-*/%<>=!&|^~?.]+|\S')
def normalized(data):
    """The code as tokens: whitespace and comments aside, neither changes the program."""
    return CODE.findall(without_comments(data.decode("utf-8", "replace")))

TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|[A-Za-z_$][A-Za-z0-9_$]*|\d[\d_.]*|[+\-*/%<>=!&|^~?.]+|\S')
def tokens(line):
    line = line.split("//")[0] if '"' not in line else line
    return TOKEN.findall(line)

def is_operator_or_literal(token):
    return token in ("true", "false", "nil") or token[0].isdigit() or (re.fullmatch(r"[+\-*/%<>=!&|^~?.]+", token) and token not in (".", "?", "!"))

def opens_block(lines):
    depth = 0
    for index, line in enumerate(lines):
        body = tokens(line)
        if index == 0 and body[:1] == ["}"]:
            body = body[1:]
        depth += body.count("{") - body.count("}")
        if index < len(lines) - 1 and depth < 1:
            return False
    return lines[0].strip().endswith("{") and depth in (0, 1)

UPDATE = re.compile(r"(?<![=!<>])(=|\+=|-=|\*=|/=)(?!=)|\.(append|insert|remove\w*|removeAll|merge|formUnion|subtract)\(|\+\+")
def shape(patch_text):
    """The shape of the edit a named mutant makes, from its diff."""
    files = [l for l in patch_text.splitlines() if l.startswith("+++ ")]
    hunks = [l for l in patch_text.splitlines() if l.startswith("@@")]
    removed = [l[1:] for l in patch_text.splitlines() if l.startswith("-") and not l.startswith("---")]
    added = [l[1:] for l in patch_text.splitlines() if l.startswith("+") and not l.startswith("+++")]
    removed = [l for l in removed if l.strip()]
    added = [l for l in added if l.strip()]
    if len(files) > 1 or len(hunks) > 1:
        return "edits in several places"
    if removed and not added:
        if opens_block(removed):
            return "a block or branch removed"
        if any(UPDATE.search(l) for l in removed):
            return "an update left out"
        if any(re.match(r"\s*(return|throw|break|continue)\b", l) for l in removed):
            return "an exit removed"
        return "a statement removed"
    if added and not removed:
        if any(re.match(r"\s*(return|throw|break|continue)\b", l) or "guard" in l for l in added):
            return "an early exit added"
        return "code added"
    if len(removed) == 1 and len(added) == 1:
        old, new = tokens(removed[0]), tokens(added[0])
        prefix = 0
        while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
            prefix += 1
        suffix = 0
        while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
            suffix += 1
        if new[prefix:len(new) - suffix] in (["true"], ["false"]) and old[prefix:len(old) - suffix] not in (["true"], ["false"]):
            return "a condition made constant"
        if len(old) == len(new):
            differing = [i for i in range(len(old)) if old[i] != new[i]]
            if len(differing) == 1:
                a, b = old[differing[0]], new[differing[0]]
                if is_operator_or_literal(a) and is_operator_or_literal(b):
                    return "one operator or literal"
                if re.fullmatch(r"[A-Za-z_]\w*", a) and re.fullmatch(r"[A-Za-z_]\w*", b):
                    return "a name for another"
        if re.search(r"\b(if|guard|while)\b", removed[0]):
            return "a condition rewritten"
        return "an expression rewritten"
    return "lines rewritten"

package = os.getcwd()
rows = []
stale = []
for name in sorted(os.listdir("mutants")):
    if not name.endswith(".patch"):
        continue
    text = open(os.path.join("mutants", name)).read()
    # A mutant promoted from explore is a generated mutant by construction:
    # counting it would measure nothing.
    if re.search(r"^Promoted-From:", text.split("\ndiff ")[0], re.M):
        continue
    diff = text[text.index("diff ") if "diff " in text else text.index("--- "):]
    paths = sorted(set(re.findall(r"^\+\+\+ b/(.+)$", diff, re.M)) | set(re.findall(r"^--- a/(.+)$", diff, re.M)))
    work = os.path.join(out, name[:-6])
    os.makedirs(work)
    for path in paths:
        if os.path.exists(path):
            os.makedirs(os.path.dirname(os.path.join(work, path)), exist_ok=True)
            shutil.copy(path, os.path.join(work, path))
    subprocess.run(["git", "init", "-q", work], check=True)
    open(work + ".patch", "w").write(diff)
    if subprocess.run(["git", "apply", os.path.abspath(work + ".patch")], cwd=work, capture_output=True).returncode != 0:
        stale.append(name[:-6])
        continue
    kind = shape(diff)
    match = None
    if len(paths) == 1:
        path = paths[0]
        after = normalized(open(os.path.join(work, path), "rb").read())
        source = open(path, "rb").read()
        for point in points.get(path, []):
            edits = [(point["start"], point["end"], point["replacement"].encode())]
            if point.get("group"):
                edits += [(point["group"]["start"], point["group"]["start"], b"("), (point["group"]["end"], point["group"]["end"], b")")]
            mutated = source
            for start, end, text in sorted(edits, key=lambda e: (e[0], e[2] == b")"), reverse=True):
                mutated = mutated[:start] + text + mutated[end:]
            if normalized(mutated) == after:
                match = point
                break
    rows.append((name[:-6], kind, match))
    print(f"{'recalled' if match else 'missed  '}  {name[:-6]:45} {kind:28} {(match['operator'] + ' ' + match['id']) if match else ''}")

print()
by_shape = collections.OrderedDict()
for _, kind, match in sorted(rows, key=lambda r: r[1]):
    count, hit = by_shape.get(kind, (0, 0))
    by_shape[kind] = (count + 1, hit + (1 if match else 0))
print(f"{'shape of the bug':30} {'named':>6} {'recalled':>9}")
for kind, (count, hit) in sorted(by_shape.items(), key=lambda kv: -kv[1][0]):
    print(f"{kind:30} {count:6} {hit:9}")
by_operator = collections.Counter(m["operator"] for _, _, m in rows if m)
generated = collections.Counter(p["operator"] for ps in points.values() for p in ps)
print()
print(f"{'operator':24} {'mutants here':>12} {'named recalled':>15}")
for operator, count in sorted(generated.items(), key=lambda kv: -kv[1]):
    print(f"{operator:24} {count:12} {by_operator.get(operator, 0):15}")
total, hits = len(rows), sum(1 for r in rows if r[2])
print()
print(f"recall: {hits} of {total} named mutants ({100 * hits / max(total, 1):.0f}%) are a mutant explore generates; "
      f"{sum(generated.values())} generated in all" + (f"; {len(stale)} stale, not counted: {', '.join(stale)}" if stale else ""))
PY
