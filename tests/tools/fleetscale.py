#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
tests/tools/fleetscale.py WORKDIR SHARDS PER_SHARD SEEDS - the assertions of
tests/fleet-scale.sh on its reports.

What every report must say is computed from the runs alone: shard k is
build=clean (k even) or build=faulty (k odd) and board=b(k mod 4); its
trace i is the run of seed (k * PER_SHARD + i) mod SEEDS + 1 of its build.
A run's verdicts are those of `ucval analyze --json` on the run alone
(runs/BUILD-SEED.json), and they must agree with its truth file
(runs/BUILD-SEED.truth, `ucval synth --truth`): a check fails exactly when
the truth lists a window of it. A group's expected counts per check are
the sums over its traces.

Checked: --group-by build (json, text, md, html), --group-by board (json)
and --compare build=clean,faulty (json, text, md, html, junit).
"""
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

VERDICTS = ("FAIL", "PASS", "UNDECIDED")
errors = []


def expect(cond, what):
    if not cond:
        errors.append(what)


def load_run(work, build, seed):
    """Per check of one run: (verdict, n_failed), checked against its truth."""
    base = os.path.join(work, "runs", f"{build}-{seed}")
    with open(base + ".json") as f:
        trace = json.load(f)["traces"][0]
    verdicts = {v["check_id"]: (v["verdict"], v["n_failed"]) for v in trace["verdicts"]}
    truth = set()
    with open(base + ".truth") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            expect(len(words) == 5, f"{base}.truth: a 'may' window makes the run ambiguous")
            truth.add(words[0])
    for check, (verdict, _) in verdicts.items():
        expect((verdict == "FAIL") == (check in truth),
               f"{base}: {check} {verdict} but the truth lists {sorted(truth)}")
    return verdicts


def expected_groups(work, shards, per, seeds):
    """{label: {value: {"n": traces, "checks": {check: [fail, pass, undecided, windows]}}}}"""
    runs = {(b, s): load_run(work, b, s) for b in ("clean", "faulty")
            for s in range(1, seeds + 1)}
    groups = {"build": {}, "board": {}}
    for k in range(shards):
        build = "faulty" if k % 2 else "clean"
        for label, value in (("build", build), ("board", f"b{k % 4}")):
            g = groups[label].setdefault(value, {"n": 0, "checks": {}})
            for i in range(per):
                g["n"] += 1
                for check, (verdict, nw) in runs[(build, (k * per + i) % seeds + 1)].items():
                    c = g["checks"].setdefault(check, [0, 0, 0, 0])
                    c[VERDICTS.index(verdict)] += 1
                    c[3] += nw
    return groups


def check_group_json(path, label, want):
    with open(path) as f:
        rep = json.load(f)
    expect(rep["group_by"] == label and rep["n_unlabelled"] == 0, f"{path}: header")
    got = {g["value"]: g for g in rep["groups"]}
    expect(sorted(got) == sorted(want), f"{path}: groups {sorted(got)}")
    for value, w in want.items():
        g = got.get(value)
        if not g:
            continue
        expect(g["n_traces"] == w["n"] and len(g["traces"]) == w["n"],
               f"{path}: {value}: {g['n_traces']} traces, expected {w['n']}")
        checks = {c["check_id"]: c for c in g["checks"]}
        expect(sorted(checks) == sorted(w["checks"]), f"{path}: {value}: checks")
        for check, (nf, np_, nu, nw) in w["checks"].items():
            c = checks.get(check, {})
            got_c = [c.get("n_fail"), c.get("n_pass"), c.get("n_undecided"), c.get("n_windows")]
            expect(got_c == [nf, np_, nu, nw],
                   f"{path}: {value} {check}: {got_c}, expected {[nf, np_, nu, nw]}")
            if nf + np_:
                expect(math.isclose(c.get("fail_rate", -1), nf / (nf + np_), abs_tol=1e-9),
                       f"{path}: {value} {check}: fail_rate {c.get('fail_rate')}")
                expect(c["ci95_lo"] <= c["fail_rate"] <= c["ci95_hi"],
                       f"{path}: {value} {check}: interval")


def lines_with(text, word):
    return [ln for ln in text.splitlines() if re.search(r"\b" + re.escape(word) + r"\b", ln)]


def check_group_text(path, want):
    """text, md and html: a heading per group with its size, then a row per check."""
    with open(path) as f:
        plain = re.sub(r"<[^>]+>", " ", f.read())
    # the sections of the groups, each from its heading to the next
    parts = re.split(r"build=(\w+): (\d+) traces", plain)
    sections = {parts[i]: (int(parts[i + 1]), parts[i + 2]) for i in range(1, len(parts) - 2, 3)}
    expect(sorted(sections) == sorted(want), f"{path}: groups {sorted(sections)}")
    for value, w in want.items():
        n, section = sections.get(value, (None, ""))
        expect(n == w["n"], f"{path}: build={value}: {n} traces, expected {w['n']}")
        for check, (nf, np_, nu, _) in w["checks"].items():
            cells = f"{check} {nf + np_ + nu} {nf} {nf + np_} "
            expect(any(re.sub(r"[\s|]+", " ", ln).strip().startswith(cells)
                       for ln in section.splitlines()),
                   f"{path}: build={value}: no row '{cells}' (traces, FAIL, decided)")


def compare_want(groups):
    """Per check: (A fail, A decided, B fail, B decided, verdict)."""
    a, b = groups["build"]["clean"]["checks"], groups["build"]["faulty"]["checks"]
    want = {}
    for check in sorted(set(a) | set(b)):
        fa, pa = a.get(check, [0, 0])[:2]
        fb, pb = b.get(check, [0, 0])[:2]
        # every run of a build is repeated hundreds of times: any difference
        # in rate is far beyond chance, and equal rates are no evidence
        ra = fa / (fa + pa) if fa + pa else None
        rb = fb / (fb + pb) if fb + pb else None
        verdict = ("no evidence" if ra is None or rb is None or ra == rb else
                   "worse" if rb > ra else "better")
        want[check] = (fa, fa + pa, fb, fb + pb, verdict)
    return want


def check_compare(work, want):
    out = os.path.join(work, "out")
    with open(os.path.join(out, "compare.json")) as f:
        rep = json.load(f)
    got = {c["check_id"]: c for c in rep["checks"]}
    expect(sorted(got) == sorted(want), "compare.json: checks")
    for check, (fa, da, fb, db, verdict) in want.items():
        c = got.get(check, {})
        got_c = (c.get("n_fail_a"), c.get("n_decided_a"), c.get("n_fail_b"),
                 c.get("n_decided_b"), c.get("verdict"))
        expect(got_c == (fa, da, fb, db, verdict),
               f"compare.json: {check}: {got_c}, expected {(fa, da, fb, db, verdict)}")
        if da and db:
            expect(math.isclose(c["rate_b"] - c["rate_a"], fb / db - fa / da, abs_tol=1e-9)
                   and c["ci_lo"] <= c["difference"] <= c["ci_hi"],
                   f"compare.json: {check}: difference and interval")
            expect((c["p"] < rep["alpha"]) == (verdict != "no evidence"),
                   f"compare.json: {check}: p {c['p']}")
    for fmt in ("text", "md", "html"):
        with open(os.path.join(out, "compare." + fmt)) as f:
            plain = re.sub(r"<[^>]+>", " ", f.read())
        for check, (fa, da, fb, db, verdict) in want.items():
            expect(any(f"{fa}/{da}" in ln and f"{fb}/{db}" in ln and verdict in ln
                       for ln in lines_with(plain, check)),
                   f"compare.{fmt}: {check}: no row with {fa}/{da}, {fb}/{db}, {verdict}")
    suite = ET.parse(os.path.join(out, "compare.junit")).getroot().find("testsuite")
    worse = sorted(c for c, w in want.items() if w[4] == "worse")
    failed = sorted(tc.get("name") for tc in suite.iter("testcase")
                    if tc.find("failure") is not None)
    expect(failed == worse and suite.get("failures") == str(len(worse)),
           f"compare.junit: failed {failed}, expected {worse}")


def main():
    work, shards, per, seeds = sys.argv[1], *map(int, sys.argv[2:5])
    groups = expected_groups(work, shards, per, seeds)
    faulty = groups["build"]["faulty"]["checks"]["rq_clamp"]
    # the fault must show in some runs and not in others: a rate strictly
    # between 0 and 1, which a report adding rows wrongly would not hit
    expect(0 < faulty[0] < faulty[0] + faulty[1], f"rq_clamp in build=faulty: {faulty}")
    expect(all(c[0] == 0 for c in groups["build"]["clean"]["checks"].values()),
           "a clean run fails a check")
    out = os.path.join(work, "out")
    check_group_json(os.path.join(out, "by-build.json"), "build", groups["build"])
    check_group_json(os.path.join(out, "by-board.json"), "board", groups["board"])
    for fmt in ("text", "md", "html"):
        check_group_text(os.path.join(out, "by-build." + fmt), groups["build"])
    want = compare_want(groups)
    expect([c for c, w in want.items() if w[4] == "worse"] == ["rq_clamp"],
           f"worse: {[c for c, w in want.items() if w[4] == 'worse']}, expected rq_clamp")
    check_compare(work, want)
    for e in errors[:20]:
        print("fleetscale:", e, file=sys.stderr)
    n = groups["build"]["faulty"]["n"] + groups["build"]["clean"]["n"]
    print(f"fleetscale: {n} traces; rq_clamp fails {faulty[0]} of {faulty[0] + faulty[1]} "
          f"decided in build=faulty, 0 in build=clean; {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
