import FuzzChecks

/// libFuzzer's entry: `FilterFuzzCheck` (Sources/FuzzChecks), which `FuzzReplayTests` also runs on every
/// kept input in the ordinary test build. A failed property traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzFailure.trap(FilterFuzzCheck.check(UnsafeRawBufferPointer(start: data, count: size)))
}
