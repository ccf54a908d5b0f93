// `ServerSentEvent` and `ServerSentEventParser` stay part of the SDK's API: they live in a target
// of their own (EventStream) only so that fuzz-sse can build them without the SDK's dependencies.
@_exported import EventStream
