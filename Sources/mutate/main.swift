import Foundation
import MutationHarness

exit(Harness().main(Array(CommandLine.arguments.dropFirst())).rawValue)
