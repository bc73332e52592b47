#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench/run.sh UCVAL TCMD_ITER WORKDIR - `make bench`: how fast is
# `ucval analyze` against `trace-cmd report` and against plain libtracecmd
# iteration (tcmd_iter) on the same trace.dat, how fast are the text and
# systrace readers, and the Perfetto reader against the trace.dat reader on
# the same synthetic trace. Prints wall time (best of $BENCH_RUNS; the worst run too
# when it was 10 % slower: a noisy machine), events/s, peak
# RSS and ratios. It never asserts a time: numbers are for people.
#
# Traces (in WORKDIR):
#   synth.dat  `ucval synth`, $BENCH_SYNTH_EVENTS events (default 5 million),
#              made again each run, its generation timed on its own line
#   synth.pftrace  the same trace (same seed) as Perfetto ftrace bundles
#   real.dat   (made once) `ucval collect` of `perf bench sched pipe` (root, tracefs, perf)
#   real-zstd.dat  real.dat as trace-cmd 3.x writes by default (v7, zstd),
#              converted once with trace-cmd convert
#   juno       the public Juno trace from $UCVAL_SHARED (small: start-up costs)
#   many-N.dat four distinct synthetic traces of $BENCH_MANY_EVENTS events
#              (default 1 million) for -j 1 against -j 2
#   kernel     the patched kernel's trace of `make check-kernel` (KERNEL_TRACE,
#              the 4th argument), analyzed with that loop's options; skipped
#              when the loop has not run
set -u
UCVAL=$1 ITER=$2 WORK=$3 KERNEL_TRACE=${4:-}
RUNS=${BENCH_RUNS:-3}
SYNTH_EVENTS=${BENCH_SYNTH_EVENTS:-5000000}
SHARED=${UCVAL_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
mkdir -p "$WORK"

# best TIME RSS_KB CPU WORST of $RUNS runs of "$@" (stdout discarded): the
# best wall time, the peak RSS, the CPU seconds (user + system, all threads)
# of the best run, and the worst wall time (how noisy the machine was).
# Exit status up to 3 is a verdict (ucval analyze), not a failure.
# $FRESH_DB is removed before each run. The wall time is taken in ns around
# /usr/bin/time, whose own %e counts in 10 ms steps: too coarse for a trace
# of 50 k events.
best() {
	b_t= b_m= b_c= w_t=
	i=0
	while [ $i -lt "$RUNS" ]; do
		[ -n "${FRESH_DB:-}" ] && rm -f "$FRESH_DB" "$FRESH_DB-wal" "$FRESH_DB-shm"
		t0=$(date +%s%N)
		/usr/bin/time -f '%x %e %M %U %S' -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr"
		t1=$(date +%s%N)
		read -r x t m u s <<-END
		$(tail -n 1 "$WORK/time")
		END
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
		if [ "$x" -gt 3 ]; then
			echo "bench: '$*' failed ($x)" >&2
			cat "$WORK/stderr" >&2
			return 1
		fi
		if [ -z "$b_t" ] || awk "BEGIN{exit !($t < $b_t)}"; then
			b_t=$t b_c=$(awk "BEGIN{print $u + $s}")
		fi
		if [ -z "$w_t" ] || awk "BEGIN{exit !($t > $w_t)}"; then w_t=$t; fi
		if [ -z "$b_m" ] || [ "$m" -gt "$b_m" ]; then b_m=$m; fi
		i=$((i + 1))
	done
	echo "$b_t $b_m $b_c $w_t"
}

row() {	# row LABEL TIME RSS EVENTS REF_TIME [WORST]: the worst run when 10 % slower
	awk -v l="$1" -v t="$2" -v m="$3" -v n="$4" -v r="$5" -v w="${6:-}" 'BEGIN {
		if (t < 0.0005) t = 0.0005;
		printf "  %-34s %8.3f s %10.0f ev/s %7.1f MB", l, t, n / t, m / 1024;
		if (r != "") printf "   x%.2f", t / r;
		if (w != "" && w > 1.1 * t) printf "   (worst run %.2f s)", w;
		printf "\n" }'
}

DB=$WORK/bench.db
# every check but freq_below_min_clamp, freq_above_max_clamp, freq_prediction
NOFREQ_CHECKS=trace_integrity,rq_clamp,task_effective,request_result,groups_exhausted
# a fresh database each run, as a CI job would; $AN_ARGS: options of the trace
AN_ARGS=
analyze_db() { FRESH_DB=$DB best "$UCVAL" analyze -q $AN_ARGS --db "$DB" "$@"; }
analyze_nodb() { best "$UCVAL" analyze -q $AN_ARGS "$@"; }

bench_dat() {	# bench_dat NAME FILE
	name=$1 f=$2
	n=$("$ITER" "$f" | awk '{print $1}')
	size=$(stat -c %s "$f")
	echo
	echo "$name: $f, $n events, $((size / 1048576)) MB"
	set -- $(best trace-cmd report -i "$f") || return; tr_t=$1 tr_m=$2 tr_w=$4
	set -- $(best "$ITER" "$f") || return; it_t=$1 it_m=$2 it_w=$4
	set -- $(analyze_db "$f") || return; an_t=$1 an_m=$2 an_c=$3 an_w=$4
	rows=$(sqlite3 "$DB" "SELECT (SELECT COUNT(*) FROM clamp_intervals) +
		(SELECT COUNT(*) FROM freq_intervals) + (SELECT COUNT(*) FROM task_requests)" \
		2>/dev/null || echo 0)
	# decidable intervals the three frequency checks judged: each is a
	# new answer (bound or observed frequency) that must be computed
	ivals=$(sqlite3 "$DB" "SELECT COALESCE(SUM(n_checked), 0) FROM verdicts WHERE check_id IN
		('freq_below_min_clamp', 'freq_above_max_clamp', 'freq_prediction')" \
		2>/dev/null || echo 0)
	set -- $(analyze_db --checks "$NOFREQ_CHECKS" "$f") || return; df_t=$1 df_m=$2 df_w=$4
	set -- $(analyze_nodb "$f") || return; nd_t=$1 nd_m=$2 nd_c=$3 nd_w=$4
	set -- $(analyze_nodb --checks "$NOFREQ_CHECKS" "$f") || return; nf_t=$1 nf_m=$2 nf_w=$4
	echo "                                      wall       events/s      peak RSS  ratio"
	row "trace-cmd report > /dev/null" "$tr_t" "$tr_m" "$n" "" "$tr_w"
	row "libtracecmd iteration (tcmd_iter)" "$it_t" "$it_m" "$n" "" "$it_w"
	row "ucval analyze --db" "$an_t" "$an_m" "$n" "$it_t" "$an_w"
	row "  the same, frequency checks off" "$df_t" "$df_m" "$n" "$it_t" "$df_w"
	row "ucval analyze (no db)" "$nd_t" "$nd_m" "$n" "$it_t" "$nd_w"
	row "  the same, frequency checks off" "$nf_t" "$nf_m" "$n" "$it_t" "$nf_w"
	awk -v tr="$tr_t" -v an="$an_t" -v it="$it_t" 'BEGIN {
		if (an < 0.0005) an = 0.0005; if (it < 0.0005) it = 0.0005;
		printf "  => analyze --db is %.1fx faster than trace-cmd report (target >= 10x)\n", tr / an;
		printf "  => analyze --db takes %.2fx the libtracecmd iteration time (target <= 1.5x)\n", an / it }'
	# the three frequency checks' share of the analysis (no db)
	awk -v a="$nd_t" -v b="$nf_t" -v tr="$tr_t" 'BEGIN { if (a > b && a > 0)
		printf "  => the frequency checks: %.3f s of %.3f s (%.0f %%); without them " \
		       "%.1fx faster than report\n", a - b, a, 100 * (a - b) / a, tr / (b > 0.0005 ? b : 0.0005) }'
	# the same ratios with the three frequency checks at no cost at all: no
	# design of those checks can do better than this row
	awk -v tr="$tr_t" -v an="$df_t" -v it="$it_t" 'BEGIN {
		if (an < 0.0005) an = 0.0005; if (it < 0.0005) it = 0.0005;
		printf "  => frequency checks off: analyze --db %.1fx faster than report, %.2fx the " \
		       "iteration (the bound for any frequency-check design)\n", tr / an, an / it }'
	awk -v i="$ivals" -v n="$n" 'BEGIN { if (i > 0)
		printf "  => the frequency checks judged %d intervals: a new answer every %.1f events\n",
		       i, n / i }'
	# what the database costs: its rows against the CPU time --db adds
	awk -v r="$rows" -v a="$an_c" -v b="$nd_c" 'BEGIN { if (r > 1000 && a > b)
		printf "  => the database: %d interval and request rows, %.2f s of CPU more " \
		       "than no db (%.2f us a row)\n", r, a - b, (a - b) * 1e6 / r }'
	echo "$n $an_t" > "$WORK/$name.an"
}

# The Perfetto reader against the trace.dat reader: the synthetic trace of
# the same seed in both formats, analyzed without a database, all checks and
# trace_integrity alone (the least the replay can do: mostly reading).
bench_pftrace() {
	n=$SYNTH_EVENTS
	rm -f "$WORK/synth.pftrace"
	"$UCVAL" synth -q -o "$WORK/synth.pftrace" --format pftrace --events "$n" --cpus 8 \
		--seed 1 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; return 1; }
	echo
	echo "perfetto: the same $n events as trace.dat ($(($(stat -c %s "$WORK/synth.dat") / 1048576)) MB)" \
		"and as Perfetto ($(($(stat -c %s "$WORK/synth.pftrace") / 1048576)) MB)"
	set -- $(analyze_nodb "$WORK/synth.dat") || return; d_t=$1 d_m=$2 d_w=$4
	set -- $(analyze_nodb "$WORK/synth.pftrace") || return; p_t=$1 p_m=$2 p_w=$4
	set -- $(analyze_nodb --checks trace_integrity "$WORK/synth.dat") || return
	di_t=$1 di_m=$2 di_w=$4
	set -- $(analyze_nodb --checks trace_integrity "$WORK/synth.pftrace") || return
	pi_t=$1 pi_m=$2 pi_w=$4
	echo "                                      wall       events/s      peak RSS  ratio to trace.dat"
	row "trace.dat: ucval analyze (no db)" "$d_t" "$d_m" "$n" "" "$d_w"
	row "perfetto:  ucval analyze (no db)" "$p_t" "$p_m" "$n" "$d_t" "$p_w"
	row "trace.dat: --checks trace_integrity" "$di_t" "$di_m" "$n" "" "$di_w"
	row "perfetto:  --checks trace_integrity" "$pi_t" "$pi_m" "$n" "$di_t" "$pi_w"
	awk -v dt="$d_t" -v pt="$p_t" -v dm="$d_m" -v pm="$p_m" -v di="$di_t" -v pi="$pi_t" \
	    -v dim="$di_m" -v pim="$pi_m" 'BEGIN {
		if (dt < 0.005) dt = 0.005; if (di < 0.005) di = 0.005;
		printf "  => perfetto/trace.dat: %.2fx the time, %.2fx the peak RSS (all checks);" \
		       " %.2fx the time, %.2fx the peak RSS (trace_integrity only)\n",
		       pt / dt, pm / dm, pi / di, pim / dim }'
}

echo "ucval bench: best of $RUNS runs (the worst shown when 10 % slower); ratio = time / libtracecmd iteration time"
if "$UCVAL" synth --help >/dev/null 2>&1; then
	# made again each run (it is quick) with this ucval; timed on its own,
	# never as part of analyze
	echo
	echo "bench: making a $SYNTH_EVENTS-event synthetic trace.dat (ucval synth)"
	rm -f "$WORK/synth.dat"
	if /usr/bin/time -f '%e %M' -o "$WORK/time" "$UCVAL" synth -q -o "$WORK/synth.dat" \
		--events "$SYNTH_EVENTS" --cpus 8 --seed 1 2>"$WORK/stderr"; then
		read -r t m < "$WORK/time"
		awk -v t="$t" -v m="$m" -v n="$SYNTH_EVENTS" 'BEGIN { if (t < 0.005) t = 0.005;
			printf "  %-34s %8.2f s %10.0f ev/s %7.1f MB\n", "ucval synth (generation)",
			t, n / t, m / 1024 }'
	else
		cat "$WORK/stderr" >&2
		rm -f "$WORK/synth.dat"
	fi
	[ -s "$WORK/synth.dat" ] && bench_dat synth "$WORK/synth.dat"
	[ -s "$WORK/synth.dat" ] && bench_pftrace
else
	echo "bench: skipped the synthetic trace: this ucval has no 'synth' command yet"
fi
if [ ! -s "$WORK/real.dat" ]; then
	if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/instances ] && command -v perf >/dev/null; then
		echo "bench: recording a real trace (ucval collect -- perf bench sched pipe)"
		"$UCVAL" collect -q -b 16384 -o "$WORK/real.dat" -- \
			perf bench sched pipe -l 400000 >/dev/null 2>&1 || rm -f "$WORK/real.dat"
	fi
fi
if [ -s "$WORK/real.dat" ]; then
	bench_dat real "$WORK/real.dat"
	if [ ! -s "$WORK/real-zstd.dat" ]; then
		trace-cmd convert --file-version 7 --compression zstd -i "$WORK/real.dat" \
			-o "$WORK/real-zstd.dat" >/dev/null 2>&1 || rm -f "$WORK/real-zstd.dat"
	fi
	if [ -s "$WORK/real-zstd.dat" ]; then
		bench_dat real-zstd "$WORK/real-zstd.dat"
	else
		echo "bench: skipped the compressed recording: trace-cmd convert failed"
	fi
else
	echo "bench: skipped the real recording: needs root, tracefs and perf"
fi
[ -f "$SHARED/traces/juno-r0-schedutil-sched_load.dat" ] &&
	bench_dat juno "$SHARED/traces/juno-r0-schedutil-sched_load.dat"
if [ -n "$KERNEL_TRACE" ] && [ -s "$KERNEL_TRACE" ]; then
	# tests/kernel/loop.sh's options (emulation: GRACE_US, EARLY_US)
	AN_ARGS="--model mainline --grace-us 20000 --early-us 5000"
	bench_dat kernel "$KERNEL_TRACE"
	AN_ARGS=
else
	echo "bench: skipped the kernel loop's trace: run make check-kernel first" \
		"(or give KERNEL_TRACE=path/to/trace.dat)"
fi

# text and systrace readers, on the real recording's `trace-cmd report` text
src=$WORK/real.dat
[ -s "$src" ] || src=$WORK/synth.dat
if [ -s "$src" ]; then
	[ -s "$WORK/report.txt" ] || trace-cmd report -i "$src" > "$WORK/report.txt" 2>/dev/null
	if [ ! -s "$WORK/systrace.html" ]; then
		{ printf '<!DOCTYPE html>\n<html><head><title>bench</title></head><body>\n'
		  printf '<script class="trace-data" type="application/text">\n'
		  cat "$WORK/report.txt"
		  printf '</script>\n</body></html>\n'; } > "$WORK/systrace.html"
	fi
	n=$("$ITER" "$src" | awk '{print $1}')
	echo
	echo "text readers: trace-cmd report output of $(basename "$src") ($n events)"
	set -- $(analyze_nodb "$WORK/report.txt") &&
		row "ucval analyze ftrace text" "$1" "$2" "$n" "" "$4"
	set -- $(analyze_nodb "$WORK/systrace.html") &&
		row "ucval analyze systrace html" "$1" "$2" "$n" "" "$4"
fi

# -j 2 over several traces: four distinct ones (one file four times has one
# sha256, and each analysis would replace the previous one's rows: a run
# that measured deletes more than analyses).
MANY_EVENTS=${BENCH_MANY_EVENTS:-1000000}
if "$UCVAL" synth --help >/dev/null 2>&1; then
	ok=1
	for i in 1 2 3 4; do
		rm -f "$WORK/many-$i.dat"
		"$UCVAL" synth -q -o "$WORK/many-$i.dat" --events "$MANY_EVENTS" --cpus 4 \
			--seed $((10 + i)) 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; ok=; }
	done
	if [ -n "$ok" ]; then
		echo
		echo "many traces: 4 distinct synthetic traces of $MANY_EVENTS events into one database"
		echo "  (each worker writes trace i in a thread while it analyzes trace i + 1:"
		echo "  -j 1 uses more than one core too; 'cores' = CPU time / wall time)"
		set -- $(RUNS=1 analyze_db "$WORK"/many-[1-4].dat) && j1=$1 c1=$3 &&
			row "-j 1" "$1" "$2" "$((4 * MANY_EVENTS))" "" &&
			awk -v c="$3" -v t="$1" 'BEGIN { if (t < 0.005) t = 0.005;
				printf "  %-34s %8.2f s CPU, %.2f cores\n", "", c, c / t }'
		set -- $(RUNS=1 analyze_db -j 2 "$WORK"/many-[1-4].dat) && j2=$1 &&
			row "-j 2" "$1" "$2" "$((4 * MANY_EVENTS))" "" &&
			awk -v c="$3" -v t="$1" 'BEGIN { if (t < 0.005) t = 0.005;
				printf "  %-34s %8.2f s CPU, %.2f cores\n", "", c, c / t }'
		awk -v a="$j1" -v b="$j2" -v c="$c1" 'BEGIN { if (b < 0.005) b = 0.005;
			printf "  => -j 2 speed-up %.2fx over -j 1, %.2fx over the CPU time of -j 1 (2 cores)\n",
				a / b, c / b }'
		# the same without a database: its writes, one transaction at a
		# time, do not bound -j 2 here
		set -- $(analyze_nodb "$WORK"/many-[1-4].dat) && n1=$1 &&
			row "-j 1, no db" "$1" "$2" "$((4 * MANY_EVENTS))" ""
		set -- $(analyze_nodb -j 2 "$WORK"/many-[1-4].dat) && n2=$1 &&
			row "-j 2, no db" "$1" "$2" "$((4 * MANY_EVENTS))" ""
		awk -v a="$n1" -v b="$n2" 'BEGIN { if (b < 0.005) b = 0.005;
			printf "  => -j 2 speed-up without a database %.2fx\n", a / b }'
	fi
fi
