#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
tests/bench/manypids.py - an ftrace text trace of N distinct short-lived
pids, to measure what `ucval analyze` keeps per task (docs/performance.md,
"Memory per task").

  manypids.py N [--mode full|nofree|switch] [--comms K] > trace.txt

Each pid runs once on CPU 1 while init (pid 1) stays on CPU 0:
  full    fork, wakeup_new, switch in, exit, final switch (X), free
  nofree  the same without sched_process_free (a trace that did not
          record it: the dead task is never freed)
  switch  wakeup, switch in, switch out (S): only sched_switch and
          sched_wakeup recorded, so nothing says the task is gone
The task takes one of K names when it runs (as after an exec; K = 0: its
own name "w<pid>" each); 64 by default. The same arguments give the same bytes.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="distinct pids")
    ap.add_argument("--mode", choices=("full", "nofree", "switch"), default="full")
    ap.add_argument("--comms", type=int, default=64, help="task names (0: one a pid)")
    a = ap.parse_args()
    out = sys.stdout
    buf = ["# tracer: nop\n#\ncpus=2\n"]
    t = [100_000_000]		# microseconds

    def ev(comm, pid, cpu, name, body):
        t[0] += 1
        buf.append("%16s-%-7d [%03d] d..2 %d.%06d: %s: %s\n" %
                   (comm, pid, cpu, t[0] // 1000000, t[0] % 1000000, name, body))

    ev("<idle>", 0, 0, "sched_switch", "prev_comm=swapper/0 prev_pid=0 prev_prio=120"
       " prev_state=R ==> next_comm=init next_pid=1 next_prio=120")
    for i in range(a.n):
        p = 2 + i
        c = "w%d" % p if a.comms == 0 else "prog%d" % (i % a.comms)
        if a.mode == "switch":
            ev("init", 1, 0, "sched_wakeup", "comm=%s pid=%d prio=120 target_cpu=001" % (c, p))
        else:
            ev("init", 1, 0, "sched_process_fork",
               "comm=init pid=1 child_comm=init child_pid=%d" % p)
            ev("init", 1, 0, "sched_wakeup_new", "comm=init pid=%d prio=120 target_cpu=001" % p)
        ev("<idle>", 0, 1, "sched_switch", "prev_comm=swapper/1 prev_pid=0 prev_prio=120"
           " prev_state=R ==> next_comm=%s next_pid=%d next_prio=120" % (c, p))
        if a.mode != "switch":
            ev(c, p, 1, "sched_process_exit", "comm=%s pid=%d prio=120" % (c, p))
        ev(c, p, 1, "sched_switch", "prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s"
           " ==> next_comm=swapper/1 next_pid=0 next_prio=120"
           % (c, p, "S" if a.mode == "switch" else "X"))
        if a.mode == "full":
            ev("<idle>", 0, 1, "sched_process_free", "comm=%s pid=%d prio=120" % (c, p))
        if len(buf) >= 8192:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))


if __name__ == "__main__":
    main()
