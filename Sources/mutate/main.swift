import MutationHarness

Harness.runAsCommand(Array(CommandLine.arguments.dropFirst()))
