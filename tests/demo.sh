#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: what ucval answers, on inputs that come with the project:
# two what-if questions to the model, then the analysis of bundled traces
# in which the kernel disagrees with the model (exit status 1 is expected),
# an HTML report next to the database (demo.html), the text report, and
# last a small fleet: two builds merged and compared (docs/fleets.md).
set -e
UCVAL=${1:-./ucval}
DB=${2:-demo.db}
HTML=$(dirname "$DB")/demo.html
mkdir -p "$(dirname "$DB")"
run() {
	echo "\$ ucval $*"
	status=0
	"$UCVAL" "$@" || status=$?
	echo "(exit status $status)"
	echo
}
run model freq --freqs 500000,850000,1100000,1400000 --util 300 --uclamp-min 512
run model rq --util 300 200:800 512:none none:300:rt
rm -f "$DB" "$DB-wal" "$DB-shm"
run analyze --db "$DB" traces/rq_clamp-fail.txt traces/rq_clamp-pass.txt
echo "results stored in $DB; for example:"
echo "\$ sqlite3 $DB 'SELECT check_id, cpu, ts_start_ns, ts_end_ns, expected, observed, rule FROM mismatches'"
sqlite3 "$DB" 'SELECT check_id, cpu, ts_start_ns, ts_end_ns, expected, observed, rule FROM mismatches'
echo
run analyze -q --db "$DB" traces/freq_below_min_clamp-fail.txt
run report "$DB" --format html -o "$HTML"
echo "HTML report (one self-contained file): $HTML"
echo
echo "\$ ucval report $DB"
"$UCVAL" report "$DB"

# A small fleet: two "builds", a clean kernel and one whose rq UCLAMP_MAX
# goes stale (ucval synth --fault rq-max-stale), five runs (seeds) each,
# each build analyzed on its "machine" into its own database, tagged with
# its build; the databases merged; the faulty build judged against the
# clean one (exit status 1: a check is worse).
FLEET=$(dirname "$DB")/demo-fleet
rm -rf "$FLEET"
mkdir -p "$FLEET"
for build in clean faulty; do
	fault=
	[ "$build" = faulty ] && fault="--fault rq-max-stale"
	for seed in 1 2 3 4 5; do
		# shellcheck disable=SC2086 # $fault is empty or two words
		"$UCVAL" synth -q -o "$FLEET/$build-$seed.txt" --seed $seed --events 2000 $fault
	done
	"$UCVAL" analyze -q --db "$FLEET/$build.db" --tag build=$build "$FLEET/$build"-*.txt ||
		true
done
run merge "$FLEET/fleet.db" "$FLEET/clean.db" "$FLEET/faulty.db"
run report --compare build=clean,faulty "$FLEET/fleet.db"
