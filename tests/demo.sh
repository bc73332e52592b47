#!/bin/sh
# `make demo`: what ucval answers, on inputs that come with the project:
# two what-if questions to the model, then the analysis of a bundled trace
# in which the kernel disagrees with the model (exit status 1 is expected).
set -e
UCVAL=${1:-./ucval}
DB=${2:-demo.db}
run() {
	echo "\$ ucval $*"
	status=0
	"$UCVAL" "$@" || status=$?
	echo "(exit status $status)"
	echo
}
run model freq --freqs 500000,850000,1100000,1400000 --util 300 --uclamp-min 512
run model rq --util 300 200:800 512:none none:300:rt
rm -f "$DB"
run analyze --db "$DB" traces/rq_clamp-fail.txt traces/rq_clamp-pass.txt
echo "results stored in $DB; for example:"
echo "\$ sqlite3 $DB 'SELECT check_id, cpu, ts_start_ns, ts_end_ns, expected, observed, rule FROM mismatches'"
sqlite3 "$DB" 'SELECT check_id, cpu, ts_start_ns, ts_end_ns, expected, observed, rule FROM mismatches'
