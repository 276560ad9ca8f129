/// What the harness asks of the toolchain: `swift build` and `swift test`
/// in the scratch copy, and the mutation points of the built copy's syntax
/// tree. The `mutate` command uses the real ones; tests give scripted ones,
/// so every sub-command's output and exit code is checked without a build.
struct HarnessToolchain {
    var runner: any CommandRunning = ToolchainRunner()
    var findPoints: (Explorer, ScratchWorkspace, (String) -> Void) throws -> Explorer.Found = { explorer, workspace, print in
        try explorer.explore(workspace, print: print)
    }
}
