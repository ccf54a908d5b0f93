#!/usr/bin/env python3
"""Prints the slowest tests of a `swift test` log (Swift Testing's "passed after N seconds"
lines), slowest first: `make test` ends with its ten. Usage: slowest-tests.py LOG [COUNT].

Swift Testing times a test from its start event, and under a parallelization width (`make
test`'s TEST_WIDTH) a test can start and then wait for a free slot: a time here is an upper
bound on the test's own. `swift test --filter NAME` alone gives its own."""
import re
import sys

# ✔ Test foo() passed after 1.234 seconds.   ✘ Test "name" failed after 1.2 seconds with 1 issue.
LINE = re.compile(r'Test (?P<name>.+?) (?:passed|failed) after (?P<seconds>[0-9.]+) seconds')
# A parameterised test's cases also end in "passed after"; their lines name the test, then the case.


def main() -> int:
    log, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    times = {}
    with open(log, encoding='utf-8', errors='replace') as handle:
        for line in handle:
            match = LINE.search(line)
            if match and ' with ' not in match.group('name'):
                times[match.group('name')] = max(times.get(match.group('name'), 0.0), float(match.group('seconds')))
    if not times:
        print('slowest-tests: no timed test in', log)
        return 0
    print(f'The slowest {min(count, len(times))} of {len(times)} tests (waits for a free slot included):')
    for name, seconds in sorted(times.items(), key=lambda item: -item[1])[:count]:
        print(f'{seconds:8.2f} s  {name}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
