// swift-tools-version:5.4
// 5.4, not 6.0: from 5.5 on SwiftPM renames an executable's entry point and links it as `main`,
// which collides with the `main` libFuzzer brings (the link fails). Tools 5.4 links as swiftc does.
import PackageDescription

// libFuzzer targets for the parsers of outside bytes, built by scripts/fuzz.sh with
// `-sanitize=fuzzer,address`: a package of its own, so the main build never sees the flag.
let package = Package(
    name: "OfflineTodoFuzz",
    dependencies: [.package(name: "OfflineTodo", path: "..")],
    targets: [
        // Each target, then the library of checks it runs (the same ones FuzzReplayTests runs).
        ["fuzz-json", "FuzzChecks"], ["fuzz-filter", "FuzzChecks"], ["fuzz-query", "FuzzChecks"],
        ["fuzz-icalendar", "FuzzChecks"], ["fuzz-todo-file", "FuzzChecks"], ["fuzz-item-file", "FuzzChecks"], ["fuzz-quick-add", "FuzzChecks"],
        ["fuzz-webdav-xml", "FuzzChecks"], ["fuzz-sse", "FuzzChecks"], ["fuzz-config", "FuzzChecks"],
        ["fuzz-router", "FuzzRouterCheck"],
    ].map { names in
        .executableTarget(
            name: names[0],
            dependencies: names.dropFirst().map { .product(name: $0, package: "OfflineTodo") },
            // No top-level code: the target only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
