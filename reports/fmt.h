/* SPDX-License-Identifier: MIT */
/*
 * reports/fmt.h - how every report writes times, tasks and values, so the
 * text, markdown, HTML and JUnit outputs agree to the character.
 */
#ifndef UCVAL_REPORTS_FMT_H
#define UCVAL_REPORTS_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "reports/rdb.h"

/* Room for any one formatted field (times, "pid 123 (comm)"). */
#define REP_FMT_LEN	64
/* Room for a window on one line, message included. */
#define REP_FMT_LINE_LEN	512

const char *rep_fmt_rel_s(char buf[REP_FMT_LEN], int64_t ts_ns, int64_t t0_ns);
const char *rep_fmt_ms(char buf[REP_FMT_LEN], int64_t dur_ns);
const char *rep_fmt_task(char buf[REP_FMT_LEN], int pid, const char *comm);
const char *rep_fmt_cpu(char buf[REP_FMT_LEN], int cpu);
const char *rep_fmt_value(const struct rep_value *v);
const char *rep_fmt_or(const char *s, const char *if_null);
const char *rep_fmt_window(char buf[REP_FMT_LINE_LEN], const struct rep_trace *t,
			   const struct rep_window *w);

#endif /* UCVAL_REPORTS_FMT_H */
