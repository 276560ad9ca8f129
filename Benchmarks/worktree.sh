# Sourced by the benchmarks that edit the package: `fresh_worktree TREE`
# makes TREE a git worktree of HEAD (added the first time), every edit of an
# earlier run undone, so the package itself is never written.
fresh_worktree() {
    local tree=$1
    if [ ! -d "$tree" ]; then git worktree add --detach "$tree" HEAD >/dev/null; fi
    git -C "$tree" checkout -q --detach HEAD 2>/dev/null || true
    git -C "$tree" reset -q --hard "$(git rev-parse HEAD)"
}
