#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each cmocka test program given as an argument; print one summary line.
# Exit non-zero when any program fails. Programs see $UCVAL (the built binary)
# and $UCVAL_SHARED (../shared, where the public traces and specs are).
: "${UCVAL_SHARED:=$(cd "$(dirname "$0")/../.." && pwd)/shared}"
export UCVAL_SHARED
passed=0 failed=0 failed_names=""
for t in "$@"; do
	echo "=== $t"
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failed_names="$failed_names $(basename "$t")"
	fi
done
echo "programs: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$failed_names" >&2; exit 1; }
