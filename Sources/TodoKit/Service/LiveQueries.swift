/// A live query's results, transformed one by one (the newest only, like the query's own).
func mapLatest<Result: Sendable, Value: Sendable>(_ results: AsyncThrowingStream<Result, any Error>,
                                                  _ transform: @escaping @Sendable (Result) -> Value) -> AsyncThrowingStream<Value, any Error> {
    let (values, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
    let relay = Task {
        do {
            for try await result in results { continuation.yield(transform(result)) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
    continuation.onTermination = { _ in relay.cancel() }
    return values
}
