#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: what ucval answers, on inputs that come with the project:
# two what-if questions to the model, then the analysis of bundled traces
# in which the kernel disagrees with the model (exit status 1 is expected),
# an HTML report next to the database (demo.html), and last the text report.
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
