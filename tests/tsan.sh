#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tsan.sh UCVAL_TSAN - `make check-tsan`: the threads of `ucval
# analyze` under ThreadSanitizer. The sha256 thread beside every analysis
# (fed by the reader, from files and from a FIFO);
# the replay on a thread of its own while the reader reads (analyze.c,
# struct feed; forced with UCVAL_FEED=thread, then the timed choice); a
# single trace whose rows stream into the database while it is read
# (analyze/stream.c); several traces, each written by the worker's writer
# thread while the next is read (analyze/run.c, struct writer), with an
# unreadable one among them; and -j 2. Any report fails the target.
set -u
UCVAL=$1
WORK=$(mktemp -d /tmp/ucval-tsan-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
fail=0

run() {	# run WHAT ARGS...: exit status 0, 1 or 3 expected (2 where noted)
	what=$1
	shift
	"$UCVAL" "$@" >/dev/null 2>"$WORK/err"
	st=$?
	if grep -q ThreadSanitizer "$WORK/err" || [ "$st" -gt 3 ]; then
		echo "check-tsan: $what: exit $st" >&2
		cat "$WORK/err" >&2
		fail=1
	else
		echo "check-tsan: $what: no race (exit $st)"
	fi
}

"$UCVAL" synth -q -o "$WORK/a.dat" --events 200000 --cpus 4 --seed 21 2>/dev/null &&
"$UCVAL" synth -q -o "$WORK/b.dat" --events 100000 --cpus 4 --seed 22 2>/dev/null || {
	echo "check-tsan: cannot make the synthetic traces" >&2
	exit 1
}
printf 'not a trace\n' > "$WORK/bad.txt"
"$UCVAL" synth -q -o "$WORK/text.txt" --events 100000 --cpus 4 --seed 23 2>/dev/null || {
	echo "check-tsan: cannot make the synthetic text trace" >&2
	exit 1
}
export UCVAL_FEED=thread
run "one trace, streamed, replay thread" analyze -q --db "$WORK/1.db" "$WORK/a.dat"
run "traces and a writer thread, replay thread" analyze -q --db "$WORK/2.db" "$WORK/b.dat" \
	"$WORK/bad.txt" traces/rq_clamp-fail.txt "$WORK/a.dat"
# the hash fed by the reader from a FIFO: text, and trace.dat through its spool
# (a writer left blocked by a failed run is stopped, not waited for)
mkfifo "$WORK/fifo"
cat "$WORK/b.dat" > "$WORK/fifo" &
run "trace.dat from a FIFO, replay thread" analyze -q --db "$WORK/3.db" "$WORK/fifo"
kill $! 2>/dev/null
cat "$WORK/text.txt" > "$WORK/fifo" &
run "text from a FIFO, replay thread" analyze -q "$WORK/fifo"
kill $! 2>/dev/null
unset UCVAL_FEED
run "-j 2" analyze -q -j 2 --db "$WORK/2.db" "$WORK/a.dat" "$WORK/b.dat" \
	traces/freq_prediction-pass.txt traces/task_effective-fail.txt
exit $fail
