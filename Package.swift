// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NoiseTagging",
    products: [
        .library(name: "NoiseTagging", targets: ["NoiseTagging"]),
        .library(name: "UtopiaProtocol", targets: ["UtopiaProtocol"]),
        .library(name: "DecoderBridge", targets: ["DecoderBridge"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .executable(name: "noisetag", targets: ["noisetag"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ", pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]),
        .target(name: "UtopiaProtocol"),
        .target(name: "NoiseTagging", dependencies: ["UtopiaProtocol"]),
        .target(name: "DecoderBridge", dependencies: ["NoiseTagging", "UtopiaProtocol", "CZeroMQ"]),
        .target(name: "TerminalUI", dependencies: ["NoiseTagging"]),
        .executableTarget(
            name: "noisetag",
            dependencies: [
                "NoiseTagging", "UtopiaProtocol", "DecoderBridge", "CZeroMQ", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        .executableTarget(
            name: "HeadlessButtons", dependencies: ["NoiseTagging", "UtopiaProtocol"],
            path: "Examples/HeadlessButtons"),
        .testTarget(name: "UtopiaProtocolTests", dependencies: ["UtopiaProtocol"]),
        .testTarget(name: "NoiseTaggingTests", dependencies: ["NoiseTagging", "UtopiaProtocol"]),
        .testTarget(name: "DecoderBridgeTests", dependencies: ["DecoderBridge", "NoiseTagging", "UtopiaProtocol"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "NoiseTagging"]),
    ],
    swiftLanguageModes: [.v6]
)
