// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Analytics",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Analytics", targets: ["Analytics"]),
        .library(name: "AnalyticsTesting", targets: ["AnalyticsTesting"]),
        .library(name: "Collector", targets: ["Collector"]),
        .library(name: "MutationHarness", targets: ["MutationHarness"]),
        .executable(name: "mutate", targets: ["mutate"]),
        .executable(name: "collector", targets: ["collector"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "AnalyticsSupport", dependencies: ["CSQLite"]),
        .target(name: "Analytics", dependencies: ["AnalyticsSupport"]),
        .target(name: "Collector", dependencies: ["AnalyticsSupport"]),
        .target(name: "CollectorServer", dependencies: ["Collector", "AnalyticsSupport"]),
        .executableTarget(name: "collector", dependencies: ["Collector", "CollectorServer"]),
        .target(name: "AnalyticsTesting", dependencies: ["Analytics", "AnalyticsSupport", "Collector"]),
        .target(name: "CProcessControl"),
        .target(name: "MutationHarness", dependencies: ["CProcessControl"]),
        .executableTarget(name: "mutate", dependencies: ["MutationHarness"]),
        .executableTarget(name: "analytics-fault-child", dependencies: ["Analytics", "AnalyticsTesting"], path: "Sources/AnalyticsFaultChild"),
        .executableTarget(name: "analytics-benchmarks", dependencies: ["Analytics", "AnalyticsSupport", "AnalyticsTesting", "Collector", "CollectorServer"], path: "Sources/AnalyticsBenchmarks"),
        // What the three test targets share (where their files go); not a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "AnalyticsTests", dependencies: ["Analytics", "AnalyticsTesting", "AnalyticsSupport", "Collector", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "CollectorTests", dependencies: ["Collector", "CollectorServer", "Analytics", "AnalyticsTesting", "AnalyticsSupport",
                                                           "TestSupport"]),
        .testTarget(name: "MutationHarnessTests", dependencies: ["MutationHarness", "TestSupport"]),
    ]
)
