// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tiny",
    targets: [
        .target(name: "Tiny"),
        .testTarget(name: "TinyTests", dependencies: ["Tiny"]),
    ]
)
