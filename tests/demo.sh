#!/bin/sh
# `make demo`: what ucval answers, on inputs that come with the project.
# (Trace analysis joins the demo when `ucval analyze` lands.)
set -e
UCVAL=${1:-./ucval}
run() {
	echo "\$ ucval $*"
	"$UCVAL" "$@"
	echo
}
run model freq --freqs 500000,850000,1100000,1400000 --util 300 --uclamp-min 512
run model freq --freqs 500000,850000,1100000,1400000 --util 300 --uclamp-min 512 --kernel 6.8
run model rq --util 300 200:800 512:none none:300:rt
