#!/usr/bin/env python3
"""Runs the `run:` steps of .github/workflows/mutation.yml here, job by job,
with each matrix value substituted, to prove the example workflow works: the
jobs in `needs` order, every shard, then the merge. `uses:` steps are the CI
system's own (checkout, cache, artifacts: here everything shares one folder)
and are only checked for their inputs. Exits non-zero on the first failing
step, after printing it."""
import itertools, os, re, subprocess, sys
import yaml

path = os.path.join(os.path.dirname(__file__), "..", ".github", "workflows", "mutation.yml")
workflow = yaml.safe_load(open(path))
jobs = workflow["jobs"]

order, seen = [], set()
def visit(name):
    if name in seen:
        return
    needs = jobs[name].get("needs", [])
    for need in ([needs] if isinstance(needs, str) else needs):
        if need not in jobs:
            sys.exit(f"job {name} needs {need}, which does not exist")
        visit(need)
    seen.add(name)
    order.append(name)
for name in jobs:
    visit(name)

# What GitHub gives a push to main, for the expressions of steps' env.
push = {"base_ref": "", "ref": "refs/heads/main", "event_name": "push"}
summary = os.path.join(os.path.dirname(__file__), "..", ".build", "ci-step-summary.md")
os.makedirs(os.path.dirname(summary), exist_ok=True)
open(summary, "w").close()

for name in order:
    job = jobs[name]
    matrix = job.get("strategy", {}).get("matrix", {})
    keys = list(matrix)
    for values in itertools.product(*(matrix[k] for k in keys)) if keys else [()]:
        bindings = dict(zip(keys, values))
        label = name + "".join(f" {k}={v}" for k, v in bindings.items())
        for step in job["steps"]:
            if "uses" in step:
                if not re.match(r"^[\w.-]+/[\w.-]+(/[\w.-]+)*@v\d+$", step["uses"]):
                    sys.exit(f"{label}: unexpected action reference {step['uses']}")
                continue
            command = step["run"]
            command = re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(bindings[m.group(1)]), command)
            if "${{" in command:
                sys.exit(f"{label}: unresolved expression in {command!r}")
            # A step's env: the expressions it may use, as a push to main gives them.
            environment = dict(os.environ, GITHUB_STEP_SUMMARY=summary)
            for key, value in step.get("env", {}).items():
                unknown = [m for m in re.findall(r"\$\{\{\s*github\.(\w+)\s*\}\}", str(value)) if m not in push]
                value = re.sub(r"\$\{\{\s*github\.(\w+)\s*\}\}", lambda m: push.get(m.group(1), ""), str(value))
                if unknown or "${{" in value:
                    sys.exit(f"{label}: env {key}: an expression the check cannot give ({step['env'][key]!r})")
                environment[key] = value
            print(f"== {label}: {step.get('name', command)}\n   $ {command}", flush=True)
            result = subprocess.run(["bash", "-eo", "pipefail", "-c", command], env=environment)
            if result.returncode != 0:
                sys.exit(f"{label}: step '{step.get('name', command)}' failed with exit code {result.returncode}")
print("every run: step of the workflow passed")
