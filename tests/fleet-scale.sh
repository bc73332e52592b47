#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/fleet-scale.sh UCVAL WORKDIR [SHARDS [PER_SHARD]] - `make
# check-fleet-scale`: `ucval merge` and the fleet reports at 10,000 traces.
#
# SHARDS databases (default 200) of PER_SHARD traces each (default 50):
# even shards are build=clean, odd ones build=faulty (`ucval synth --fault
# rq-max-stale`), shard k is board=b(k mod 4). The traces are short
# synthetic runs (100 events, 2 CPUs) of SEEDS (10) seeds per build; every
# trace file is one of those 20 runs under a first comment line of its own
# ("# fleet shard K trace I"), so each has its own sha256 and is a trace of
# its own to analyze and merge, while only 20 runs need synthesizing. Each
# shard is analyzed by its own `ucval analyze --tag`, two at a time
# (xargs -P 2), as a CI matrix would.
#
# Asserted: the merged database holds every trace and label; a second merge
# of the same shards replaces every trace; every report format of
# --group-by build, --group-by board and --compare build=clean,faulty says
# the group sizes and, per check, the FAIL / decided counts the runs imply:
# a trace fails rq_clamp exactly when its run's truth file (synth --truth)
# lists a window, no other check fails; the faulty build is "worse" on
# rq_clamp (exit status 1) and on nothing else. Wall time and peak RSS of
# the merges and of each report are printed (GNU time -v), never asserted.
# WORKDIR keeps the merged database and the reports; the trace files go
# once analyzed, the shards once everything passed.
set -eu
UCVAL=${1:?usage: fleet-scale.sh UCVAL WORKDIR [SHARDS [PER_SHARD]]}
WORK=${2:?usage: fleet-scale.sh UCVAL WORKDIR [SHARDS [PER_SHARD]]}
SHARDS=${3:-200}
PER=${4:-50}
SEEDS=10
SYNTH="--events 100 --cpus 2 --policies 1"
HERE=$(cd "$(dirname "$0")" && pwd)

fail() {
	echo "check-fleet-scale: FAIL: $*" >&2
	exit 1
}

rm -rf "$WORK"
mkdir -p "$WORK/runs" "$WORK/traces" "$WORK/shards" "$WORK/out"
cd "$WORK"
start=$(date +%s)

# The distinct runs, their truth files and their verdicts analyzed alone.
for build in clean faulty; do
	fault=
	[ "$build" = faulty ] && fault="--fault rq-max-stale"
	s=1
	while [ "$s" -le "$SEEDS" ]; do
		# shellcheck disable=SC2086 # option lists
		"$UCVAL" synth -q -o "runs/$build-$s.txt" --truth "runs/$build-$s.truth" \
			--seed "$s" $SYNTH $fault
		rc=0
		"$UCVAL" analyze -q --json "runs/$build-$s.json" "runs/$build-$s.txt" || rc=$?
		[ "$rc" -le 1 ] || fail "analyze runs/$build-$s.txt: exit status $rc"
		s=$((s + 1))
	done
done

# Every trace: one run under a line of its own; one file list per shard.
awk -v shards="$SHARDS" -v per="$PER" -v seeds="$SEEDS" 'BEGIN {
	for (k = 0; k < shards; k++) {
		build = k % 2 ? "faulty" : "clean"
		list = "traces/shard-" k ".list"
		for (i = 0; i < per; i++) {
			run = "runs/" build "-" ((k * per + i) % seeds + 1) ".txt"
			out = "traces/s" k "-t" i ".txt"
			printf "# fleet shard %d trace %d\n", k, i > out
			while ((getline line < run) > 0)
				print line > out
			close(run)
			close(out)
			print out > list
		}
		close(list)
	}
}'

# The shards, two analyze processes at a time: "K BUILD BOARD" a line.
k=0
while [ "$k" -lt "$SHARDS" ]; do
	build=clean
	[ $((k % 2)) -eq 1 ] && build=faulty
	echo "$k $build b$((k % 4))"
	k=$((k + 1))
done > traces/shards.txt
# shellcheck disable=SC2016 # the inner sh expands them; a list holds names without spaces
xargs -P 2 -L 1 sh -c '
	rc=0
	"$0" analyze -q --db "shards/shard-$1.db" --tag "build=$2" --tag "board=$3" \
		$(cat "traces/shard-$1.list") || rc=$?
	[ "$rc" -ne 2 ] || exit 255
' "$UCVAL" < traces/shards.txt || fail "a shard could not be analyzed"
rm -rf traces
echo "check-fleet-scale: $((SHARDS * PER)) traces analyzed into $SHARDS shards" \
	"($(du -ch shards/*.db | tail -1 | cut -f1)) in $(($(date +%s) - start)) s"

# timed NAME EXPECTED_STATUS ucval-args...: run ucval under GNU time -v
# (its standard error into out/stderr.txt), check its exit status and add
# a line to the table: wall time, CPU time (user + system), peak RSS.
timed() {
	name=$1
	want=$2
	shift 2
	rc=0
	/usr/bin/time -v -o out/time.txt "$UCVAL" "$@" 2> out/stderr.txt || rc=$?
	[ "$rc" -eq "$want" ] || fail "ucval $*: exit status $rc, expected $want: $(cat out/stderr.txt)"
	awk -v name="$name" -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); wall = p[n] + (n > 1 ? 60 * p[n - 1] : 0) }
		/User time|System time/ { cpu += $2 }
		/Maximum resident set size/ { rss = $2 }
		END { printf "  %-34s %7.2f s %7.2f s %7.1f MB\n", name, wall, cpu, rss / 1024 }' \
		out/time.txt >> out/table.txt
}

printf "  %-34s %9s %9s %10s\n" step wall cpu "peak RSS" > out/table.txt
timed "merge $SHARDS shards into a new db" 0 merge -q fleet.db shards/*.db
n=$(sqlite3 fleet.db "SELECT count(*) FROM traces")
[ "$n" -eq $((SHARDS * PER)) ] || fail "fleet.db has $n traces, expected $((SHARDS * PER))"
n=$(sqlite3 fleet.db "SELECT count(*) FROM trace_labels WHERE key IN ('build', 'board')")
[ "$n" -eq $((2 * SHARDS * PER)) ] || fail "fleet.db has $n build and board labels"
timed "merge them again (all replaced)" 0 merge fleet.db shards/*.db
grep -q "^ucval merge: $((SHARDS * PER)) traces from $SHARDS shards ($((SHARDS * PER)) replaced" \
	out/stderr.txt || fail "merge again: $(cat out/stderr.txt)"
n=$(sqlite3 fleet.db "SELECT count(*) FROM traces")
[ "$n" -eq $((SHARDS * PER)) ] || fail "merged twice: $n traces"

for f in text md html json; do
	timed "report --group-by build, $f" 0 report fleet.db --group-by build --format "$f" \
		-o "out/by-build.$f"
done
timed "report --group-by board, json" 0 report fleet.db --group-by board --format json \
	-o out/by-board.json
for f in text md html json junit; do
	timed "report --compare, $f" 1 report fleet.db --compare build=clean,faulty \
		--format "$f" -o "out/compare.$f"
done
rc=0
"$UCVAL" report fleet.db --group-by build --format junit > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--group-by --format junit: exit status $rc, expected 2"
if command -v xmllint > /dev/null; then
	xmllint --noout --schema "$HERE/junit.xsd" out/compare.junit 2> out/xmllint.txt ||
		fail "compare.junit: $(cat out/xmllint.txt)"
fi

python3 "$HERE/tools/fleetscale.py" . "$SHARDS" "$PER" "$SEEDS" ||
	fail "the reports do not say what the runs imply"

echo "check-fleet-scale: $((SHARDS * PER)) traces, every format as expected; wall time and" \
	"peak RSS:"
cat out/table.txt
rm -rf shards
echo "check-fleet-scale: PASS in $(($(date +%s) - start)) s"
