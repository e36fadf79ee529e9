// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Language settings shared by every Swift target: Swift 6 mode plus the
/// upcoming features that keep C types from leaking across module boundaries.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "tessera",
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        .executable(name: "tessera-fuzz", targets: ["TesseraFuzz"]),
        .library(name: "TesseraMetadata", targets: ["TesseraMetadata"]),
        .library(name: "TesseraImage", targets: ["TesseraImage"]),
        .library(name: "TesseraIndex", targets: ["TesseraIndex"]),
        .library(name: "TesseraLayout", targets: ["TesseraLayout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
    ],
    targets: [
        // C libraries, one system-library target each; only the module named
        // in the comment may import it.
        // libjpeg and libpng report errors by longjmp: small C targets keep every
        // setjmp/longjmp pair in C (see their headers).
        .target(  // TesseraImage
            name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(  // TesseraImage
            name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .systemLibrary(  // TesseraImage
            name: "CLCMS", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(  // TesseraImage
            name: "CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(  // TesseraImage
            name: "CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(  // TesseraMetadata
            // No pkgConfig: libraw_r.pc asks for -fopenmp, which SwiftPM refuses; the library
            // itself links its OpenMP and C++ runtimes.
            name: "CLibRaw",
            providers: [.apt(["libraw-dev"])]),
        .target(  // TesseraMetadata: LibRaw's reads with a deadline (C++, as LibRaw's streams are)
            name: "CLibRawStream",
            dependencies: ["CLibRaw"],
            linkerSettings: [.linkedLibrary("stdc++")]),
        .systemLibrary(  // TesseraMetadata
            name: "CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        .systemLibrary(  // TesseraMetadata
            name: "CExempi", pkgConfig: "exempi-2.0",
            providers: [.apt(["libexempi-dev"])]),
        .systemLibrary(  // TesseraMetadata
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(  // TesseraJXL
            // No pkgConfig: libjxl.pc adds a -D flag SwiftPM refuses; the module map links it.
            name: "CJXL",
            providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(  // TesseraJXL
            name: "CBrotli", pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]),
        // FFmpeg (libavformat-dev, libavcodec-dev, libswscale-dev, libswresample-dev): its headers at build time, its
        // libraries opened on first use (see its header).
        .target(  // TesseraVideo
            name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),

        .target(
            name: "TesseraSystem",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraFacts",
            dependencies: ["TesseraSystem"],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraVideo",
            dependencies: ["CFFmpeg", "TesseraSystem"],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraJXL",
            dependencies: ["CBrotli", "CJXL", "TesseraSystem"],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraMetadata",
            dependencies: [
                "CExempi", "CExif", "CLibRaw", "CLibRawStream", "CZlib", "TesseraFacts", "TesseraJXL", "TesseraSystem",
                "TesseraVideo", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraImage",
            dependencies: [
                "CHeif", "CJPEG", "CLCMS", "CPNG", "CWebP", "TesseraFacts", "TesseraJXL", "TesseraMetadata",
                "TesseraSystem", "TesseraVideo",
            ],
            swiftSettings: swiftSettings),
        // Per-photo analyses, run after a photo's renditions (docs/ARCHITECTURE.md, "Analyses").
        .target(
            name: "TesseraAnalysis",
            dependencies: ["TesseraFacts", "TesseraImage", "TesseraSystem"],
            swiftSettings: swiftSettings),
        // Place names from positions, offline (docs/PLACES.md).
        .target(
            name: "TesseraPlaces",
            dependencies: ["TesseraFacts", "TesseraSystem", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swiftSettings),
        .target(  // TesseraFaces: dlib's detectors and descriptor behind a C interface (C++)
            name: "CFaces",
            // (dlib's templates are compiled here: optimised in every build, or a debug build's
            // faces take seconds a photo)
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("openblas"), .linkedLibrary("stdc++")]),
        // Faces found and described, offline, on the CPU (docs/PEOPLE.md).
        .target(
            name: "TesseraFaces",
            dependencies: [
                "CFaces", "TesseraAnalysis", "TesseraFacts", "TesseraImage", "TesseraSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraDesktop",
            dependencies: ["TesseraFacts", "TesseraImage", "TesseraMetadata", "TesseraSystem"],
            swiftSettings: swiftSettings),
        .target(  // TesseraIndex
            name: "CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "TesseraIndex",
            dependencies: [
                "CSQLiteConfig", "TesseraFacts", "TesseraSystem", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraLayout",
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraAlbum",
            dependencies: [
                "TesseraFacts", "TesseraImage", "TesseraIndex", "TesseraLayout", "TesseraMetadata", "TesseraSystem",
                "TesseraVideo", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [
                .embedInCode("Resources/album.css"), .embedInCode("Resources/icon.svg"),
                .embedInCode("Resources/map.js"), .embedInCode("Resources/private.js"),
                // The site's script, joined in Assets.swift.
                .embedInCode("Resources/script/layout-styles.js"), .embedInCode("Resources/script/layout-tiles.js"),
                .embedInCode("Resources/script/layout-page.js"), .embedInCode("Resources/script/page.js"),
                .embedInCode("Resources/script/placeholders.js"), .embedInCode("Resources/script/library.js"),
                .embedInCode("Resources/script/elements.js"), .embedInCode("Resources/script/viewer.js"),
                .embedInCode("Resources/script/viewer-controls.js"), .embedInCode("Resources/script/find.js"),
                .embedInCode("Resources/script/timeline.js"), .embedInCode("Resources/script/album-map.js"),
                .embedInCode("Resources/script/main.js"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraReport",
            dependencies: [
                "TesseraFacts", "TesseraImage", "TesseraIndex", "TesseraMetadata", "TesseraSystem", "TesseraVideo",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraConfiguration",
            dependencies: [
                "TesseraDesktop", "TesseraFacts", "TesseraImage", "TesseraLayout", "TesseraSystem",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraScan",
            dependencies: [
                "TesseraAnalysis", "TesseraConfiguration", "TesseraDesktop", "TesseraFaces", "TesseraFacts",
                "TesseraImage", "TesseraIndex", "TesseraMetadata", "TesseraPlaces",
                "TesseraSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraDaemon",
            dependencies: [
                "TesseraAlbum", "TesseraConfiguration", "TesseraIndex", "TesseraScan", "TesseraSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        // Beyond one machine (docs/SCALE.md): the index and the work queue in PostgreSQL, renditions in
        // S3-compatible storage, `tessera worker`. Every build has it: one binary for one machine and many.
        .target(
            name: "TesseraObjectStore",
            dependencies: [
                "TesseraSystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraCluster",
            dependencies: [
                "TesseraAnalysis", "TesseraConfiguration", "TesseraFacts", "TesseraImage", "TesseraIndex",
                "TesseraObjectStore", "TesseraPlaces",
                "TesseraScan", "TesseraSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraSamples",
            dependencies: ["TesseraFacts", "TesseraImage", "TesseraMetadata", "TesseraSystem"],
            swiftSettings: swiftSettings),
        // What each command does, called by the executable (and by tests, in their own process).
        .target(
            name: "TesseraCommands",
            dependencies: [
                "TesseraAlbum", "TesseraAnalysis", "TesseraCluster", "TesseraConfiguration", "TesseraDaemon",
                "TesseraFacts",
                "TesseraImage", "TesseraIndex", "TesseraLayout", "TesseraMetadata", "TesseraObjectStore",
                "TesseraPlaces", "TesseraReport", "TesseraScan", "TesseraSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "tessera",
            dependencies: [
                "TesseraCluster", "TesseraCommands", "TesseraDaemon", "TesseraFacts", "TesseraImage", "TesseraIndex",
                "TesseraLayout", "TesseraSamples", "TesseraScan", "TesseraSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),

        .target(name: "CFuzzer"),
        .executableTarget(
            name: "TesseraFuzz",
            dependencies: [
                "CFuzzer", "TesseraCluster", "TesseraConfiguration", "TesseraDaemon", "TesseraDesktop", "TesseraFacts",
                "TesseraIndex", "TesseraJXL", "TesseraMetadata", "TesseraObjectStore", "TesseraPlaces", "TesseraSystem",
                "TesseraVideo",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TesseraTestSupport",
            dependencies: [],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraSystemTests",
            dependencies: ["TesseraSystem", "TesseraTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraFacesTests",
            dependencies: [
                "TesseraFaces", "TesseraFacts", "TesseraImage", "TesseraSamples", "TesseraSystem",
                "TesseraTestSupport", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraPlacesTests",
            dependencies: ["TesseraFacts", "TesseraPlaces", "TesseraTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraMetadataTests",
            dependencies: [
                "TesseraFacts", "TesseraMetadata", "TesseraSamples", "TesseraSystem", "TesseraTestSupport",
                "TesseraVideo",
            ],
            exclude: ["Fuzz"],  // what the fuzzers found, read by FuzzFindingTests
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraImageTests",
            dependencies: [
                "TesseraFacts", "TesseraImage", "TesseraMetadata", "TesseraSamples", "TesseraSystem",
                "TesseraTestSupport",
                "TesseraVideo",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraDesktopTests",
            dependencies: ["TesseraDesktop", "TesseraSamples", "TesseraSystem"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraIndexTests",
            dependencies: [
                "TesseraFacts", "TesseraIndex", "TesseraImage", "TesseraMetadata", "TesseraSamples", "TesseraSystem",
                "TesseraTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraAlbumTests",
            dependencies: [
                "TesseraAlbum", "TesseraConfiguration", "TesseraImage", "TesseraIndex", "TesseraMetadata",
                "TesseraSamples",
                "TesseraScan", "TesseraSystem", "TesseraTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraClusterTests",
            dependencies: [
                "TesseraCluster", "TesseraFacts", "TesseraIndex", "TesseraObjectStore", "TesseraSystem",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraLayoutTests",
            dependencies: ["TesseraLayout", "TesseraTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraConfigurationTests",
            dependencies: [
                "TesseraConfiguration", "TesseraFacts", "TesseraImage", "TesseraSystem", "TesseraTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraScanTests",
            dependencies: [
                "TesseraAnalysis", "TesseraFacts", "TesseraScan", "TesseraConfiguration", "TesseraIndex",
                "TesseraImage", "TesseraMetadata", "TesseraSamples",
                "TesseraSystem", "TesseraTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraDaemonTests",
            dependencies: [
                "TesseraDaemon", "TesseraConfiguration", "TesseraImage", "TesseraIndex", "TesseraScan",
                "TesseraSamples",
                "TesseraSystem", "TesseraTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TesseraCLITests",
            dependencies: [
                "TesseraDesktop", "TesseraFacts", "TesseraImage", "TesseraIndex", "TesseraMetadata", "TesseraSamples",
                "TesseraSystem",
                "TesseraTestSupport",
            ],
            swiftSettings: swiftSettings),
    ]
)

// Benchmarks are built only on request: ENABLE_TESSERA_BENCHMARKS=1 swift run -c release tessera-layout-bench
if ProcessInfo.processInfo.environment["ENABLE_TESSERA_BENCHMARKS"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "tessera-layout-bench", dependencies: ["TesseraLayout"], path: "bench/LayoutBenchmark",
            swiftSettings: swiftSettings))
}
