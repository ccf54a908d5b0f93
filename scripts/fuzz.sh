#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers of outside bytes (the Fuzz/ package, libFuzzer + ASan).
#
#   scripts/fuzz.sh            every target for FUZZ_SECONDS (default 600) each, then a table of
#                              executions, coverage and crashes; a crash, leak or timeout input is
#                              saved in Fuzz/Regressions/<target>/ and the exit status is 1.
#   scripts/fuzz.sh --replay   every input of Fuzz/Corpus/<target> and Fuzz/Regressions/<target>
#                              once: the regression test (exit 1 when any fails).
#
# FUZZ_TARGETS picks targets (default: all). Builds in release into .build-fuzz, under nice: the
# fuzzers share the machine's two cores with whatever else is building.
set -euo pipefail

# Swift's own crash handler would catch a failed property's trap first and, reading the stack of
# the crashed thread, trip ASan: libFuzzer must see the trap to save the input.
export SWIFT_BACKTRACE=enable=no

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FUZZ="$ROOT/Fuzz"
SCRATCH="$ROOT/.build-fuzz"
SECONDS_EACH="${FUZZ_SECONDS:-600}"
TARGETS=(${FUZZ_TARGETS:-$(ls "$FUZZ/Sources")})  # one folder per target

# Longest input per target: JSON needs room for 513 nested brackets (the depth limit is 512);
# filters and query strings past a few hundred bytes only repeat what shorter ones reach. The
# XML and iCalendar readers get long inputs, so that one slower than linear shows (below).
max_len() {
    case "$1" in
        fuzz-json) echo 4096 ;;
        fuzz-filter) echo 1024 ;;
        fuzz-webdav-xml | fuzz-icalendar) echo 262144 ;;
        *) echo 2048 ;;
    esac
}

# Seconds one input may take (libFuzzer's -timeout, whole seconds). The XML and iCalendar readers
# must be linear in their input: their limit is a budget per kilobyte of the longest input
# (LINEAR_BUDGET_MS_PER_KB, in the sanitizer build). A linear reader takes a few tens of ms at
# 256 KB, so the budget leaves room for a busy machine; the old quadratic attribute check took
# 1.2 s for 200 KB in a release build without the sanitizer (BENCHMARKS.md, "Bounded work").
LINEAR_BUDGET_MS_PER_KB="${LINEAR_BUDGET_MS_PER_KB:-10}"
input_timeout() {
    case "$1" in
        fuzz-webdav-xml | fuzz-icalendar) echo $(( ($(max_len "$1") / 1024 * LINEAR_BUDGET_MS_PER_KB + 999) / 1000 )) ;;
        *) echo 10 ;;
    esac
}

# The environment and flags a target needs beyond the common ones, as words for `env`.
# fuzz-router runs the whole server across inputs (its database, caches, thread pools):
# LeakSanitizer takes Swift objects held only through tagged enum payloads, and a pool's parked
# queue, for leaks (one on the first sign-in), so its leak checks (libFuzzer's per input, ASan's
# at exit) are off and its memory is bounded by -rss_limit_mb over the whole run instead.
target_flags() {
    case "$1" in
        fuzz-router) echo ASAN_OPTIONS=detect_leaks=0 "$SCRATCH/release/$1" -detect_leaks=0 ;;
        *) echo "$SCRATCH/release/$1" ;;
    esac
}

build() {
    local start=$SECONDS
    # SwiftPM does not see a file added to the parent package (a path dependency here) until it
    # plans again; a new plan costs seconds, a stale one a "cannot find in scope" error.
    rm -f "$SCRATCH/release.yaml"
    # Tools 5.4 package (see Fuzz/Package.swift); ASan adds the leak check at exit.
    # With FUZZ_TARGETS, only those are built (fuzz-router alone links the whole server).
    local products=("")
    [[ -z ${FUZZ_TARGETS:-} ]] || products=("${TARGETS[@]}")
    for product in "${products[@]}"; do
        (cd "$FUZZ" && nice -n 10 swift build -c release --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address \
            ${product:+--product "$product"}) >&2
    done
    echo "Built the fuzz targets in $((SECONDS - start)) s" >&2
}

# The lines of a libFuzzer log that tell what failed: the input, the message, the stack (Swift
# symbols demangled).
report() {
    { grep -E '^Running: ' "$1" | tail -1
      grep -E 'Fatal error|==[0-9]+==|^SUMMARY|^Test unit written|^ +#[0-9]+ ' "$1" | head -40
    } | { swift demangle --simplified 2>/dev/null || cat; } || true  # a line not found is no error
}

# Runs files (not directories) once each, whole, with no length cap; prints one line, and on a
# failure what failed. libFuzzer stops at the first failing file.
run_files() {
    local target=$1 label=$2 log
    shift 2
    log="$(mktemp)"
    # shellcheck disable=SC2046 # the flags are words
    if nice -n 10 env $(target_flags "$target") -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" "$@" >"$log" 2>&1; then
        printf '%-12s %-60s ok\n' "$target" "$label"
    else
        printf '%-12s %-60s FAILED\n' "$target" "$label"
        report "$log"
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

replay() {
    local failed=0
    for target in "${TARGETS[@]}"; do
        local corpus=()
        while IFS= read -r -d '' file; do corpus+=("$file"); done < <(find "$FUZZ/Corpus/$target" -type f -print0 2>/dev/null)
        # With no file libFuzzer would start fuzzing instead of replaying.
        ((${#corpus[@]} == 0)) || run_files "$target" "${#corpus[@]} corpus inputs" "${corpus[@]}" || failed=1
        # One process per regression, so every one still failing is reported, not only the first.
        while IFS= read -r -d '' file; do
            run_files "$target" "${file#"$ROOT/"}" "$file" || failed=1
        done < <(find "$FUZZ/Regressions/$target" -type f -print0 2>/dev/null | sort -z)
    done
    return $failed
}

fuzz() {
    local failed=0 rows=()
    work="$(mktemp -d)"  # global: the EXIT trap runs after this function has returned
    trap 'rm -rf "$work"' EXIT
    for target in "${TARGETS[@]}"; do
        # A copy: libFuzzer adds every new input to its first directory, and the committed corpus
        # stays as small as `-merge=1` left it.
        mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
        cp -r "$FUZZ/Corpus/$target/." "$work/$target/corpus/"
        local dict="$FUZZ/Dictionaries/${target#fuzz-}.dict" args=()
        [[ -f $dict ]] && args+=("-dict=$dict")
        echo "Fuzzing $target for $SECONDS_EACH s" >&2
        local log="$work/$target/log" status=0 start=$SECONDS
        # shellcheck disable=SC2046 # the target's words
        nice -n 10 timeout $((SECONDS_EACH + 120)) env $(target_flags "$target") "${args[@]}" \
            -max_total_time="$SECONDS_EACH" -max_len="$(max_len "$target")" -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" \
            -print_final_stats=1 -artifact_prefix="$work/$target/artifacts/" "$work/$target/corpus" >"$log" 2>&1 || status=$?
        local elapsed=$((SECONDS - start))  # less than asked when a crash stopped the run
        local runs rate cov ft crashes=0
        # A target that fails on its seed corpus prints no coverage: `|| true`, so pipefail does
        # not end the script before the failure is saved and reported.
        runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
        rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
        cov="$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)"
        ft="$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)"
        # Slow units are only a note; crashes, leaks, timeouts and out-of-memory inputs fail the run.
        for artifact in "$work/$target/artifacts"/{crash,leak,timeout,oom}-*; do
            [[ -f $artifact ]] || continue
            mkdir -p "$FUZZ/Regressions/$target"
            cp "$artifact" "$FUZZ/Regressions/$target/"
            echo "$target: saved Fuzz/Regressions/$target/$(basename "$artifact")" >&2
            crashes=$((crashes + 1))
        done
        if ((status != 0 || crashes > 0)); then
            failed=1
            ((crashes > 0)) || crashes="exit $status"
            report "$log" >&2
        fi
        rows+=("$(printf '%-12s %8s %13s %9s %6s %7s %8s' "$target" "$elapsed" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes")")
    done
    printf '%-12s %8s %13s %9s %6s %7s %8s\n' target seconds executions exec/s cov ft crashes
    printf '%s\n' "${rows[@]}"
    return $failed
}

cd "$ROOT"
build
if [[ ${1:-} == --replay ]]; then replay; else fuzz; fi
