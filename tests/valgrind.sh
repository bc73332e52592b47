#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/valgrind.sh UCVAL PLAIN_DIR FUZZ_DIR TEST... - `make check-valgrind`:
# what ASan and UBSan cannot see, a read of memory nobody wrote, under
# valgrind's memcheck. The test programs given (the model's: pure C, fast);
# each fuzz target built plain in PLAIN_DIR over its seeds and corpus in
# FUZZ_DIR (and the regression inputs); then ucval itself on every input
# kind: synthetic traces (dat and text, v3 and mainline, a fault), the
# bundled fixtures, the public traces of ../shared, bad input, -j 2, every
# report format, the model command and a one-second recording (root and
# tracefs). Leaks are LSan's business (make check-san); any memcheck report
# fails the target.
set -u
UCVAL=$1 PLAIN=$2 FUZZ=$3
shift 3
if ! command -v valgrind >/dev/null 2>&1; then
	echo "check-valgrind: skipped: valgrind is not installed (make deps installs it)"
	exit 0
fi
WORK=$(mktemp -d /tmp/ucval-vg-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=no --track-origins=yes"
SHARED=${UCVAL_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
fail=0

# check WHAT STATUS: memcheck reported nothing in $WORK/err, and STATUS is
# one ucval may give (0 to 3); the report is shown otherwise
check() {
	if [ "$2" -gt 3 ] || grep -q '^==[0-9]*==' "$WORK/err"; then
		echo "check-valgrind: $1: exit $2" >&2
		cat "$WORK/err" >&2
		fail=1
	else
		echo "check-valgrind: $1: clean (exit $2)"
	fi
}

run() {	# run WHAT ARGS...: ucval ARGS under memcheck
	what=$1
	shift
	$VG "$UCVAL" "$@" >"$WORK/out" 2>"$WORK/err"
	check "$what" $?
}

# The property tests do fewer random steps: memcheck is 30 times slower.
for t in "$@"; do
	UCVAL_PROP_OPS=20000 $VG "$t" >"$WORK/out" 2>"$WORK/err"
	st=$?
	[ "$st" -ne 0 ] && [ "$st" -ne 99 ] && cat "$WORK/out" >&2
	[ "$st" -ne 0 ] && st=99
	check "$(basename "$t")" "$st"
done

# One process per target: the inputs run one after the other.
for bin in "$PLAIN"/fuzz_*; do
	t=${bin##*/fuzz_}
	set -- "$FUZZ/seeds/$t" "$FUZZ/corpus/$t"
	[ "$t" = tracedat ] && set -- "$@" tests/fuzz/regressions
	$VG "$bin" "$@" >"$WORK/out" 2>"$WORK/err"
	check "fuzz_$t, $(sed -n 's/.*: \([0-9]*\) inputs$/\1/p' "$WORK/out") inputs" $?
done

run "synth dat, mainline" synth -q -o "$WORK/a.dat" --events 20000 --seed 31
run "synth text, v3, a fault" synth -q -o "$WORK/b.txt" --events 20000 --seed 32 \
	--model v3 --fault sugov-ignores-min --truth "$WORK/b.truth"
run "synth dat, lost events" synth -q -o "$WORK/c.dat" --events 20000 --seed 33 \
	--cpus 2 --policies 1 --fault lost-events
printf 'not a trace\n' >"$WORK/bad.txt"
head -c 12000 "$WORK/a.dat" >"$WORK/cut.dat"
set -- "$WORK/a.dat" "$WORK/b.txt" "$WORK/c.dat" traces/*.txt traces/perfetto/*.pftrace
for f in "$SHARED"/traces/*.dat "$SHARED"/traces/*.txt "$SHARED"/traces/*.html; do
	case $f in */LICENSE*) continue ;; esac
	[ -f "$f" ] && set -- "$@" "$f"
done
run "analyze --db, $# traces" analyze -q --db "$WORK/r.db" "$@"
run "analyze -j 2 --json, bad input among them" analyze -q -j 2 --json "$WORK/j.json" \
	"$WORK/bad.txt" "$WORK/cut.dat" "$WORK/b.txt" "$WORK/a.dat"
for fmt in text md html json junit; do
	run "report --format $fmt" report --format "$fmt" --top 0 "$WORK/r.db"
done
run "report --diff" report --diff "$WORK/r.db" 1 2
run "model freq, a 4.14 shared policy" model freq --freqs 500000,1000000,1500000,2000000 \
	--util 0,0 --uclamp-min 600 --kernel 4.14
run "model freq, v3 seed" model freq --freqs 500000,1000000,2000000 --util 300 \
	--uclamp-max 200 --model v3 --fidelity seed
run "model rq" model rq --kernel 5.10 --util 900 200:800 512:none none:300:rt
# A real recording needs root and a writable tracefs (test_col_record says
# the same); its own instance name, so a test running beside it is not hit.
if [ "$(id -u)" = 0 ] && [ -w /sys/kernel/tracing/instances ]; then
	run "collect, 1 s" collect -q -t 1 --instance ucval-vg-$$ -o "$WORK/rec.dat"
	run "analyze the recording" analyze -q "$WORK/rec.dat"
else
	echo "check-valgrind: collect: skipped: needs root and a writable /sys/kernel/tracing"
fi

exit $fail
