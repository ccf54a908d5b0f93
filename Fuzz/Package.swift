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
        // Each target, then the libraries it links.
        ["fuzz-json", "TableProtocol"], ["fuzz-filter", "TableProtocol"], ["fuzz-query", "TableProtocol"],
        ["fuzz-icalendar", "TodoModel"], ["fuzz-todo-file", "TodoModel"], ["fuzz-item-file", "TodoModel"], ["fuzz-quick-add", "TodoModel"],
        ["fuzz-webdav-xml", "WebDAVXML"], ["fuzz-sse", "EventStream"], ["fuzz-config", "TodoConfig"],
        ["fuzz-router", "SyncServer", "CalDAV"],
    ].map { names in
        .executableTarget(
            name: names[0],
            dependencies: names.dropFirst().map { .product(name: $0, package: "OfflineTodo") },
            // No top-level code: the target only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
