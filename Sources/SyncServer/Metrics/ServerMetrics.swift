import Metrics
import Prometheus

/// The process's Prometheus registry behind `GET /metrics`.
///
/// swift-metrics has one factory per process, so the registry is made and bootstrapped once, on
/// first use: a server started without `--metrics` never touches it.
enum ServerMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Most requests take well below the default 5 ms first bucket (BENCHMARKS.md, "todo-server").
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        factory.nameAndLabelSanitizer = { name, labels in (metricName(name), labels.map { (labelName($0.0), $0.1) }) }
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// Hummingbird's metric labels as Prometheus names: counters end in `_total`, durations in `_seconds`.
    static func metricName(_ label: String) -> String {
        switch label {
        case "hb.requests": "http_requests_total"
        case "hb.request.errors": "http_request_errors_total"
        case "http.server.request.duration": "http_server_request_duration_seconds"
        default: labelName(label)
        }
    }

    /// Prometheus names allow letters, digits and underscores only.
    static func labelName(_ label: String) -> String {
        String(label.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }
}
