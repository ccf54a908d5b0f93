// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OfflineTodo",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .library(name: "TableProtocol", targets: ["TableProtocol"]),
        // The todo's rules (also what the fuzz targets of Fuzz/ link).
        .library(name: "TodoModel", targets: ["TodoModel"]),
        .library(name: "OfflineSync", targets: ["OfflineSync"]),
        .library(name: "OfflineSyncURLSession", targets: ["OfflineSyncURLSession"]),
        .library(name: "SyncServer", targets: ["SyncServer"]),
        .library(name: "CalDAV", targets: ["CalDAV"]),
        .library(name: "WebDAVXML", targets: ["WebDAVXML"]),
        .library(name: "EventStream", targets: ["EventStream"]),
        .library(name: "TodoConfig", targets: ["TodoConfig"]),
        // What Fuzz/'s libFuzzer targets check (and FuzzReplayTests, on every kept input).
        .library(name: "FuzzChecks", targets: ["FuzzChecks"]),
        .library(name: "FuzzRouterCheck", targets: ["FuzzRouterCheck"]),
        .executable(name: "todo-server", targets: ["todo-server"]),
        .executable(name: "todo", targets: ["todo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Property tests of the sync's laws: random histories, seeds printed and replayed.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `make docs`: the OfflineSync DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The wire: OData $filter language, query options, system properties. Foundation only.
        .target(name: "TableProtocol"),
        // OData $filter → parameterised SQL per dialect; shared by the server and the SDK's local store.
        .target(name: "FilterSQL", dependencies: ["TableProtocol"]),
        // Server-Sent Events read from bytes as they arrive, bounded; fuzzed by fuzz-sse.
        .target(name: "EventStream"),
        // The client SDK: local SQLite store, operation queue, push, pull, purge.
        .target(
            name: "OfflineSync",
            dependencies: [
                "TableProtocol", "FilterSQL", "EventStream", .product(name: "GRDB", package: "GRDB.swift"),
                // The text collation goes straight to SQLite's C API (see HumanOrder).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Only for a server whose certificate authority is given by file (URLSession cannot trust one on Linux).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // URLSession as a transport, apart: on Linux it links libcurl into every process that uses it.
        .target(name: "OfflineSyncURLSession", dependencies: ["OfflineSync"]),
        // The sync backend: routes, storage protocol, SQLite and PostgreSQL stores.
        .target(
            name: "SyncServer",
            dependencies: [
                "TableProtocol",
                "FilterSQL",
                "WebPush",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // InProcessRouter's request contexts (a channel with no socket).
                .product(name: "NIOEmbedded", package: "swift-nio"),
                // The request and response parts Hummingbird's HTTP/1 pipeline carries (ConnectionDeadlines).
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // GET /metrics: Hummingbird's request metrics and ours, in Prometheus' text format.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The top-level Resources/ folder: the help text and the sample list, bundled with the app.
        .target(name: "TodoResources", path: "Resources", resources: [.copy("help.txt"), .copy("sample-todos.json")]),
        // The todo's rules, once: an item's and a list's fields, due dates, repeat rules and the
        // next instance, priorities, completion, quick add, todo.txt and the export formats. The
        // app and the server's CalDAV face both use it. Foundation only (and the wire's values).
        .target(name: "TodoModel", dependencies: ["TableProtocol"]),
        // Web Push's sending half: message encryption (RFC 8291), VAPID (RFC 8292), and which
        // push resources a server may send to. Knows nothing of HTTP or of what is pushed.
        .target(
            name: "WebPush",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "JWTKit", package: "jwt-kit")]
        ),
        // WebDAV request bodies as element trees (bounded, no entities; hand-written, as
        // FoundationXML leaks on every malformed body): the CalDAV face's, fuzzed by fuzz-webdav-xml.
        .target(name: "WebDAVXML"),
        // todo-server's CalDAV face: lists as calendar collections, items as VTODO resources, over
        // SyncServer's tables and the shared model's rules.
        .target(
            name: "CalDAV",
            dependencies: [
                "SyncServer", "TodoModel", "TableProtocol", "WebDAVXML", "WebPush",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The app without a screen: TodoService, view models, key table, over the model.
        .target(name: "TodoKit", dependencies: ["TodoModel", "OfflineSync", "TableProtocol", "TodoResources"]),
        // `todo`'s config.toml (a strict TOML subset, hand-written: see ConfigReader); fuzzed by fuzz-config.
        .target(name: "TodoConfig"),
        // Asks for a password with echo off (todo login, todo-server users).
        .target(name: "PasswordPrompt"),
        // A C façade over ncursesw; only TerminalUI imports it.
        .target(
            name: "CNCurses",
            cSettings: [.define("NCURSES_WIDECHAR", to: "1"), .define("_XOPEN_SOURCE_EXTENDED", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        // Drawing and input: Frame, screens, the ncurses terminal, the main loop.
        .target(name: "TerminalUI", dependencies: ["TodoKit", "TodoModel", "CNCurses"]),
        .executableTarget(
            name: "todo",
            dependencies: [
                "TerminalUI", "TodoKit", "TodoModel", "OfflineSync", "TableProtocol", "PasswordPrompt", "TodoConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "todo-server",
            dependencies: [
                "SyncServer", "CalDAV", "PasswordPrompt",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // `make bench` floor: a trivial Hummingbird route with a pre-built page.
        .executableTarget(
            name: "todo-bench-floor",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOPosix", package: "swift-nio")],
            path: "Benchmarks/FloorServer"
        ),
        .executableTarget(name: "todo-bench-handler", dependencies: ["SyncServer", "TableProtocol", .product(name: "Logging", package: "swift-log")], path: "Benchmarks/HandlerBench"),
        // The README's SDK example.
        .executableTarget(name: "offline-sync-example", dependencies: ["OfflineSync", "TableProtocol"], path: "Examples/QuickStart"),
        // Typed tables and a live query between two devices (README, "Typed tables and live queries").
        .executableTarget(name: "offline-sync-typed-example", dependencies: ["OfflineSync", "TableProtocol"], path: "Examples/TypedLive"),
        // `make bench` for the SDK: pull, push and local inserts beside raw floors.
        .executableTarget(
            name: "todo-bench-sdk",
            dependencies: ["OfflineSync", "TableProtocol", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/SDKBench"
        ),
        // `make bench` for the terminal client with 100,000 local items.
        // `make load`: simulated devices on the real SDK against running servers, with end checks.
        .executableTarget(name: "todo-load", dependencies: ["OfflineSync", "OfflineSyncURLSession", "TableProtocol"], path: "Benchmarks/LoadTest"),
        .executableTarget(
            name: "todo-bench-client",
            dependencies: ["TerminalUI", "TodoKit", "TodoModel", "OfflineSync", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/ClientBench"
        ),
        // The properties each fuzz target holds its inputs to, once for libFuzzer and the replay test.
        .target(name: "FuzzChecks", dependencies: ["TableProtocol", "TodoModel", "TodoConfig", "EventStream", "WebDAVXML"]),
        .target(name: "FuzzRouterCheck", dependencies: ["FuzzChecks", "SyncServer", "CalDAV"]),
        // Every kept fuzz input (Fuzz/Corpus, Fuzz/Regressions) through its target's check, in the debug build.
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzChecks", "FuzzRouterCheck"]),
        .testTarget(name: "TableProtocolTests", dependencies: ["TableProtocol", "ServerTestSupport"]),
        .testTarget(name: "TodoModelTests", dependencies: ["TodoModel", .product(name: "PropertyBased", package: "swift-property-based")]),
        // Drives the app's state in pure tests, with store reads answered from memory.
        .target(name: "TodoKitTestSupport", dependencies: ["TodoKit", "TodoModel", "OfflineSync"], path: "Tests/TodoKitTestSupport"),
        .testTarget(name: "TodoKitTests", dependencies: ["TodoKit", "TodoModel", "TodoKitTestSupport", "OfflineSync", "ServerTestSupport", "todo-server"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TodoKit", "TodoModel", "TodoKitTestSupport", "OfflineSync"]),
        .testTarget(name: "TodoEndToEndTests", dependencies: ["ServerTestSupport", "todo", "todo-server"]),
        // The CalDAV face through real todo-server processes, on SQLite and PostgreSQL.
        .testTarget(name: "CalDAVTests", dependencies: ["ServerTestSupport", "todo-server", "CalDAV"]),
        .testTarget(name: "WebDAVXMLTests", dependencies: ["WebDAVXML"]),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "TodoConfigTests", dependencies: ["TodoConfig"]),
        .testTarget(name: "FilterSQLTests", dependencies: ["FilterSQL", "TableProtocol"]),
        // Starts real todo-server processes for the integration tests.
        .target(name: "ServerTestSupport", path: "Tests/ServerTestSupport"),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "TableProtocol", "FilterSQL", "SyncServer", "ServerTestSupport", "todo-server", "todo-load",
                // `make test` builds only the test product and what it depends on (not the
                // dependencies' own executables and plugin tools); named here, the benchmark tools
                // are built and kept compiling with it.
                "todo-bench-client", "todo-bench-floor", "todo-bench-sdk", "todo-bench-handler",
                // The route, query, schema and account suites drive the application in process.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // PostgresDataType, for the prepared pages' placeholder casts.
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Child process of the crash test: random writes, pushes and pulls until SIGKILL.
        .executableTarget(name: "sync-crash-worker", dependencies: ["OfflineSync", "TableProtocol", "ServerTestSupport"], path: "Tests/SyncCrashWorker"),
        .testTarget(
            name: "OfflineSyncTests",
            dependencies: [
                "OfflineSync", "OfflineSyncURLSession", "TableProtocol", "ServerTestSupport", "todo-server", "sync-crash-worker", "offline-sync-example", "offline-sync-typed-example",
                // The subtask law reads the laws' rows through the todo's outline rule (ConvergenceLaws); OfflineSync itself knows no todos.
                "TodoModel",
                // The simulation's server: its routes and storage in process (SimulatedServer).
                "SyncServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)
