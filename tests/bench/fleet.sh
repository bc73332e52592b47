#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench/fleet.sh UCVAL WORKDIR [SHARDS [PER_SHARD]] - the scale of
# `ucval merge` and the fleet reports: SHARDS databases (default 50) of
# PER_SHARD synthetic traces each (default 20, `ucval synth --events 1000`,
# every trace its own seed, half the shards build=clean, half build=other),
# merged into a new database and then merged again into the result (every
# trace replaced), then `report --compare`. Prints wall time and peak RSS
# (GNU time); never asserts a time: numbers are for people.
set -e
UCVAL=${1:?usage: fleet.sh UCVAL WORKDIR [SHARDS [PER_SHARD]]}
WORK=${2:?usage: fleet.sh UCVAL WORKDIR [SHARDS [PER_SHARD]]}
SHARDS=${3:-50}
PER=${4:-20}
mkdir -p "$WORK"
cd "$WORK"
rm -f shard-*.db fleet.db t-*.txt
k=0
while [ "$k" -lt "$SHARDS" ]; do
	build=clean
	[ $((k % 2)) -eq 1 ] && build=other
	i=1
	files=
	while [ "$i" -le "$PER" ]; do
		seed=$((k * PER + i))
		"$UCVAL" synth -q -o "t-$seed.txt" --seed "$seed" --events 1000
		files="$files t-$seed.txt"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # $files is a list of names without spaces
	"$UCVAL" analyze -q --db "shard-$k.db" --tag build=$build $files || true
	k=$((k + 1))
done
echo "shards: $SHARDS of $PER traces, $(du -ch shard-*.db | tail -1 | cut -f1) in all"
for what in "into a new database" "again (every trace replaced)"; do
	/usr/bin/time -f "merge $what: %e s wall, %M KiB peak RSS" \
		"$UCVAL" merge -q fleet.db shard-*.db
done
/usr/bin/time -f "report --compare: %e s wall, %M KiB peak RSS" \
	"$UCVAL" report --compare build=clean,other fleet.db > /dev/null || true
sqlite3 fleet.db "SELECT count(*) || ' traces, ' || (SELECT count(*) FROM trace_labels) ||
		  ' labels in the merged database' FROM traces"
