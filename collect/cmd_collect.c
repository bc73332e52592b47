// SPDX-License-Identifier: MIT
/*
 * collect/cmd_collect.c - `ucval collect`: record sched, cpufreq and uclamp
 * events into a trace.dat: a tracefs instance of its own, the platform
 * snapshot as markers, per-CPU pages streamed to disk, optionally a command
 * run with requested clamps. Ctrl-C stops cleanly and still writes the file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect/probefmt.h"
#include "collect/probes.h"
#include "collect/snapshot.h"
#include "collect/record.h"
#include "lib/optnum.h"
#include "ucval.h"

static const char collect_usage[] =
	"usage: ucval collect -o FILE [options] [-- COMMAND [ARGS...]]\n"
	"\n"
	"Record the scheduler, cpufreq, idle and uclamp events this kernel has into\n"
	"FILE (trace.dat v6, readable by trace-cmd report, KernelShark and ucval\n"
	"analyze), with the platform snapshot as 'ucval:' markers. Records for -t\n"
	"SECONDS, while COMMAND runs, or until Ctrl-C. Needs root.\n"
	"\n"
	"  -o, --output FILE   trace.dat to write (required)\n"
	"  -t, --time SECONDS  stop after this long (also stops before COMMAND ends)\n"
	"  -b, --buffer KB     per-CPU ring buffer size in KiB (default: the kernel's)\n"
	"      --clock C       trace clock (local, global, mono, boot, ...)\n"
	"  -e, --event EVENT   record this event too ('system:event' or 'event');\n"
	"                      may be repeated\n"
	"      --instance NAME tracefs instance to create and remove (default ucval)\n"
	"      --uclamp-min N  run COMMAND with this util_min request (sched_setattr)\n"
	"      --uclamp-max N  run COMMAND with this util_max request\n"
	"      --probes MODE   BPF probes for the uclamp and PELT values a kernel\n"
	"                      without uclamp trace events has (BTF): auto (default:\n"
	"                      on when the kernel allows and lacks those events),\n"
	"                      on (exit 2 when it cannot) or off\n"
	"  -q, --quiet         no progress and no summary\n"
	"  -h, --help          this text\n"
	"\n"
	"The temporary per-CPU data lives next to FILE until it is written.\n"
	"SIGINT, SIGTERM, SIGHUP and SIGQUIT stop the recording and write FILE;\n"
	"the tracefs instance is removed on every exit, and an instance left by a\n"
	"recorder that was killed (SIGKILL) is removed by the next run.\n"
	"exit status: 0 recorded; 1 recorded, but COMMAND failed (non-zero exit or\n"
	"a signal ucval did not send); 2 bad usage, recording impossible (no\n"
	"tracefs, not root, output not writable) or COMMAND could not be run\n";

#define POLL_MS		100	/* longest wait between two drains of the buffers */
#define PROGRESS_MS	1000	/* progress line and new workload tasks, each second */
#define KILL_WAIT_MS	2000	/* a signalled command gets this long, then SIGKILL */
#define MAX_EVENTS	64	/* -e options */
#define MAX_SEEN_TASKS	4096	/* workload threads given a task marker */
#define MAX_SECONDS	(7 * 24 * 3600)	/* -t: a week */
#define CHILD_ENDED	(1 << 30)	/* in a wait status: ucval stopped the command */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum { OPT_CLOCK = 256, OPT_INSTANCE, OPT_UCLAMP_MIN, OPT_UCLAMP_MAX, OPT_PROBES };

static const struct option collect_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "time", required_argument, NULL, 't' },
	{ "buffer", required_argument, NULL, 'b' },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "event", required_argument, NULL, 'e' },
	{ "instance", required_argument, NULL, OPT_INSTANCE },
	{ "uclamp-min", required_argument, NULL, OPT_UCLAMP_MIN },
	{ "uclamp-max", required_argument, NULL, OPT_UCLAMP_MAX },
	{ "probes", required_argument, NULL, OPT_PROBES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct collect_args {
	const char *output;
	double seconds;		/* 0: no limit */
	struct col_record_opts rec;
	const char *events[MAX_EVENTS];
	long uclamp_min, uclamp_max;	/* -1: not requested */
	enum col_probes_mode probes;
	bool is_quiet;
	char **command;
};

static volatile sig_atomic_t stop_signal;

/* Signals that end a recording the way Ctrl-C does (file written, instance removed). */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;	/* only to interrupt poll() */
}

static void print_diag(const struct an_diag *d)
{
	char line[AN_DIAG_MSG_LEN + AN_DIAG_FILE_LEN + 64];

	an_diag_format(d, line, sizeof(line));
	fprintf(stderr, "ucval collect: %s\n", line);
}

static int parse_args(int argc, char **argv, struct collect_args *a)
{
	unsigned int nr_events = 0;
	unsigned long long v;
	int c;

	memset(a, 0, sizeof(*a));
	a->uclamp_min = a->uclamp_max = -1;
	a->rec.extra = a->events;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:t:b:e:qh", collect_options, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o': a->output = optarg; break;
		case 't':
			a->seconds = strtod(optarg, &end);
			if (end == optarg || *end || !(a->seconds > 0) ||
			    a->seconds > MAX_SECONDS) {
				fprintf(stderr, "ucval collect: bad duration '%s': expected "
					"seconds in (0, %d]\n", optarg, MAX_SECONDS);
				return -EINVAL;
			}
			break;
		case 'b':
			if (an_optnum_parse("collect", "--buffer", optarg, 1, INT_MAX, &v))
				return -EINVAL;
			a->rec.buffer_kb = (unsigned int)v;
			break;
		case OPT_CLOCK: a->rec.clock = optarg; break;
		case 'e':
			if (nr_events == MAX_EVENTS) {
				fprintf(stderr, "ucval collect: more than %d -e options\n", MAX_EVENTS);
				return -EINVAL;
			}
			a->events[nr_events++] = optarg;
			break;
		case OPT_INSTANCE: a->rec.instance = optarg; break;
		case OPT_UCLAMP_MIN:
		case OPT_UCLAMP_MAX:
			if (an_optnum_parse("collect", c == OPT_UCLAMP_MIN ? "--uclamp-min" :
					    "--uclamp-max", optarg, 0, UINT32_MAX, &v))
				return -EINVAL;
			*(c == OPT_UCLAMP_MIN ? &a->uclamp_min : &a->uclamp_max) = (long)v;
			break;
		case OPT_PROBES:
			if (col_probes_mode_parse(optarg, &a->probes)) {
				fprintf(stderr, "ucval collect: bad --probes '%s': expected auto, "
					"on or off\n", optarg);
				return -EINVAL;
			}
			break;
		case 'q': a->is_quiet = true; break;
		case 'h': fputs(collect_usage, stdout); return 1;
		default: fputs(collect_usage, stderr); return -EINVAL;
		}
	}
	a->rec.nr_extra = nr_events;
	if (a->rec.instance && (!*a->rec.instance || strchr(a->rec.instance, '/') ||
				!strcmp(a->rec.instance, ".") || !strcmp(a->rec.instance, ".."))) {
		fprintf(stderr, "ucval collect: bad instance name '%s'\n", a->rec.instance);
		return -EINVAL;
	}
	if (optind < argc)
		a->command = argv + optind;
	if (!a->output) {
		fprintf(stderr, "ucval collect: no output file (-o FILE)\n\n%s", collect_usage);
		return -EINVAL;
	}
	if ((a->uclamp_min >= 0 || a->uclamp_max >= 0) && !a->command) {
		fprintf(stderr, "ucval collect: --uclamp-min/--uclamp-max need a COMMAND\n");
		return -EINVAL;
	}
	return 0;
}

/* The directory of @path, for the output check and the temporary files. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Fail early, before recording, when the output cannot be written. */
static int check_output(const char *path, const char *dir)
{
	char *probe = NULL;
	struct stat st;
	int fd;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ucval collect: cannot write '%s': is a directory\n", path);
		return -EISDIR;
	}
	if (asprintf(&probe, "%s/.ucval-probe.XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkstemp(probe);
	if (fd < 0) {
		int err = -errno;

		fprintf(stderr, "ucval collect: cannot write '%s': %s\n", path, strerror(errno));
		free(probe);
		return err;
	}
	close(fd);
	unlink(probe);
	free(probe);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Snapshot lines into the trace; pages are saved as they fill (small -b). */
static int emit_marker(void *ctx, const char *line)
{
	struct col_record *rec = ctx;
	int err = col_record_marker(rec, line);

	return err ? err : col_record_poll(rec, 0, NULL);
}

/* Fork @argv stopped on a pipe: it execs on a byte on @go, exits 127 on EOF. */
static pid_t start_command(char **argv, int *go)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		char byte;

		close(p[1]);
		for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
			signal(stop_signals[i], SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		if (read(p[0], &byte, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(argv[0], argv);
		fprintf(stderr, "ucval collect: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* sched_setattr() of the clamps on @pid; the setattr marker records the result. */
static int apply_clamps(struct col_record *rec, const struct collect_args *a, pid_t pid)
{
	unsigned long long flags;
	char line[COL_MARKER_LEN];
	size_t n;
	int ret;

	ret = col_snapshot_setattr(pid, a->uclamp_min, a->uclamp_max, &flags);
	n = (size_t)snprintf(line, sizeof(line), "ucval: setattr pid=%d", (int)pid);
	if (a->uclamp_min >= 0)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " util_min=%ld", a->uclamp_min);
	if (a->uclamp_max >= 0)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " util_max=%ld", a->uclamp_max);
	snprintf(line + n, sizeof(line) - n, " flags=0x%llx ret=%d",
		 flags, ret);
	col_record_marker(rec, line);
	return ret;
}

/* Task markers for workload threads not seen yet. */
static void mark_new_tasks(struct col_record *rec, pid_t pid, pid_t *seen, unsigned int *nr)
{
	char path[64], line[COL_MARKER_LEN];
	struct dirent *de;
	DIR *dh;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dh = opendir(path);
	if (!dh)
		return;
	while ((de = readdir(dh)) && *nr < MAX_SEEN_TASKS) {
		pid_t tid = (pid_t)atoi(de->d_name);
		bool is_known = false;

		if (tid <= 0)
			continue;
		for (unsigned int i = 0; i < *nr && !is_known; i++)
			is_known = seen[i] == tid;
		if (is_known || col_snapshot_task_line(NULL, tid, line, sizeof(line)))
			continue;
		seen[(*nr)++] = tid;
		col_record_marker(rec, line);
	}
	closedir(dh);
}

static void progress(struct col_record *rec, double elapsed, bool is_final)
{
	uint64_t events = 0, bytes = 0, lost = 0;

	for (unsigned int c = 0; c < col_record_nr_cpus(rec); c++) {
		struct col_cpu_stat st;

		if (col_record_stat(rec, c, &st))
			continue;
		events += st.read_events + st.entries;
		bytes += st.bytes;
		lost += col_record_lost(&st);
	}
	fprintf(stderr, "\rucval collect: %.1f s, %llu events, %.1f MiB, %llu lost%s",
		elapsed, (unsigned long long)events, (double)bytes / (1 << 20),
		(unsigned long long)lost, is_final ? "\n" : "   ");
}

/* Stop a command still running when the recording ends on a signal or -t. */
static int end_command(pid_t pid, int sig)
{
	int status = 0;

	kill(pid, sig);
	for (int ms = 0; ms < KILL_WAIT_MS; ms += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return status;
}

/* The canonical types the probes write (a kernel without uclamp: PELT ones only). */
static bool probes_give(const struct col_probes *probes, enum an_event_type type)
{
	if (!probes)
		return false;
	switch (type) {
	case AN_EV_UCLAMP_UTIL_CFS:
	case AN_EV_UCLAMP_UTIL_SE:
	case AN_EV_UCLAMP_TASK_EFF:	/* at wakeups only without the enqueue probes */
		return col_probes_have_uclamp(probes);
	case AN_EV_SCHED_PELT_CFS:
		return true;
	default:
		return false;
	}
}

static void report_missing(const struct col_record *rec, const struct col_probes *probes)
{
	const struct col_events *ev = col_record_events(rec);

	for (unsigned int i = 0; i < ev->nr_missing; i++)
		if (!probes_give(probes, ev->missing[i]))
			fprintf(stderr, "ucval collect: no %s event on this kernel: %s\n",
				an_event_type_name(ev->missing[i]),
				col_events_why(ev->missing[i]));
}

static void report_end(struct col_record *rec, const char *output)
{
	uint64_t total = 0, lost_total = 0;

	for (unsigned int c = 0; c < col_record_nr_cpus(rec); c++) {
		struct col_cpu_stat st;
		uint64_t lost;

		if (col_record_stat(rec, c, &st))
			continue;
		lost = col_record_lost(&st);
		total += st.read_events;
		lost_total += lost;
		fprintf(stderr, "ucval collect: cpu %u: %llu events, %llu bytes, %llu lost"
			" (overrun %llu, commit overrun %llu, dropped %llu)\n", c,
			(unsigned long long)st.read_events, (unsigned long long)st.bytes,
			(unsigned long long)lost, (unsigned long long)st.overrun,
			(unsigned long long)st.commit_overrun, (unsigned long long)st.dropped);
	}
	fprintf(stderr, "ucval collect: wrote '%s': %llu events, %llu lost%s\n", output,
		(unsigned long long)total, (unsigned long long)lost_total,
		lost_total ? " (the analysis marks those windows undecided; try a larger -b)" : "");
}

static int record_loop(struct col_record *rec, struct col_probes *probes,
		       const struct collect_args *a, pid_t child, int *child_status,
		       struct an_diag *d)
{
	double start = now_s(), last_progress = start;
	bool is_tty = !a->is_quiet && isatty(STDERR_FILENO);
	pid_t *seen = NULL;
	unsigned int nr_seen = 0;
	int err = 0;

	if (child > 0)
		seen = calloc(MAX_SEEN_TASKS, sizeof(*seen));
	while (!err && !stop_signal) {
		double t;

		err = col_record_poll(rec, POLL_MS, d);
		if (!err && probes)
			err = col_probes_poll(probes, d);
		t = now_s();
		if (child > 0 && waitpid(child, child_status, WNOHANG) == child) {
			child = -1;
			break;
		}
		if (a->seconds > 0 && t - start >= a->seconds)
			break;
		if ((t - last_progress) * 1000 >= PROGRESS_MS) {
			last_progress = t;
			if (child > 0 && seen)
				mark_new_tasks(rec, child, seen, &nr_seen);
			if (is_tty)
				progress(rec, t - start, false);
		}
	}
	if (child > 0)
		*child_status = end_command(child, stop_signal ? stop_signal : SIGTERM) |
				CHILD_ENDED;
	if (is_tty)
		progress(rec, now_s() - start, true);
	free(seen);
	return err;
}

/*
 * The exit status for how COMMAND ended: its failure shows, its end by
 * ucval's own signal (-t, Ctrl-C) does not.
 */
static int child_exit(int status)
{
	if (status & CHILD_ENDED)
		return UCVAL_EXIT_OK;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127))
		return UCVAL_EXIT_USAGE;	/* not found, not executable */
	return WIFEXITED(status) && !WEXITSTATUS(status) ? UCVAL_EXIT_OK : UCVAL_EXIT_FAIL;
}

static void report_child(char **command, int status)
{
	status &= ~CHILD_ENDED;
	if (WIFEXITED(status))
		fprintf(stderr, "ucval collect: '%s' exited with status %d\n", command[0],
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "ucval collect: '%s' was killed by signal %d (%s)\n", command[0],
			WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/* Whether this kernel has uclamp_util_cfs (or an alias) of its own. */
static bool has_uclamp_events(void)
{
	struct col_events ev = { 0 };
	struct an_diag d;
	bool has = false;

	an_diag_clear(&d);
	if (!col_events_find(NULL, NULL, 0, &ev, &d)) {
		has = true;
		for (unsigned int i = 0; i < ev.nr_missing; i++)
			has &= ev.missing[i] != AN_EV_UCLAMP_UTIL_CFS;
	}
	col_events_free(&ev);
	return has;
}

/*
 * --probes: whether they run, before anything is recorded; @why says why
 * not. UCVAL_PROBES_NO_UCLAMP=1 runs them on a kernel without uclamp (the
 * PELT, util_est and capacity probes only: tests).
 */
static bool want_probes(struct collect_args *a, char *why, size_t len)
{
	bool need_uclamp = !getenv("UCVAL_PROBES_NO_UCLAMP");

	if (a->probes == COL_PROBES_OFF) {
		snprintf(why, len, "--probes off");
		return false;
	}
	if (!col_probes_check(need_uclamp, why, len))
		return false;
	if (a->rec.clock && strcmp(a->rec.clock, COL_PROBES_CLOCK)) {
		snprintf(why, len, "--clock %s: the probes stamp their events on the %s clock",
			 a->rec.clock, COL_PROBES_CLOCK);
		return false;
	}
	if (a->probes == COL_PROBES_AUTO && has_uclamp_events()) {
		snprintf(why, len, "the kernel has uclamp trace events of its own");
		return false;
	}
	if (!a->rec.clock)
		a->rec.clock = COL_PROBES_CLOCK;	/* the instance's clock is theirs */
	return true;
}

/* Load the probes beside @rec: the BPF ring buffer holds what all CPUs' buffers hold. */
static int start_probes(struct col_record *rec, const char *dir, struct col_probes **out,
			struct an_diag *d)
{
	struct col_probes_opts o = {
		.nr_cpus = col_record_nr_cpus(rec), .page_size = col_record_page_size(rec),
		.ring_bytes = (uint64_t)col_record_buffer_kb(rec) * 1024 * col_record_nr_cpus(rec),
		.tmpdir = dir,
		.hold_ms = getenv("UCVAL_PROBES_HOLD_MS") ?
			   (unsigned int)atoi(getenv("UCVAL_PROBES_HOLD_MS")) : 0,
	};

	return col_probes_open(&o, out, d);
}

/*
 * After an attach that returned @err: with --probes auto a failure closes
 * the probes (*@probes = NULL) and the recording goes on without them.
 */
static int probes_attached(struct col_probes **probes, int err, const struct collect_args *a,
			   struct an_diag *d)
{
	if (!err || a->probes == COL_PROBES_ON)
		return err;
	print_diag(d);
	col_probes_close(*probes);
	*probes = NULL;
	an_diag_clear(d);
	return 0;
}

static void report_probes(const struct col_probes *probes)
{
	uint64_t events, lost;

	col_probes_counts(probes, &events, &lost);
	fprintf(stderr, "ucval collect: probes: %llu events, %llu lost%s\n",
		(unsigned long long)events, (unsigned long long)lost,
		lost ? " (the analysis marks those windows undecided; try a larger -b)" : "");
}

int cmd_collect(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal }, sc = { .sa_handler = on_child };
	struct collect_args a;
	struct col_record *rec = NULL;
	struct col_probes *probes = NULL;
	struct an_diag d;
	char why[256];
	bool use_probes;
	char *dir = NULL;
	int go = -1, child_status = 0, ret = UCVAL_EXIT_USAGE, err;
	pid_t child = -1;

	/* a closed stdout/stderr or a file size limit is an error, not a death */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	err = parse_args(argc, argv, &a);
	if (err)
		return err > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
	if (geteuid()) {
		fprintf(stderr, "ucval collect: recording needs root (tracefs instances and "
			"events), run it with sudo\n");
		return UCVAL_EXIT_USAGE;
	}
	dir = dir_of(a.output);
	if (!dir || check_output(a.output, dir))
		goto out_free;
	a.rec.tmpdir = dir;
	use_probes = want_probes(&a, why, sizeof(why));
	if (!use_probes && a.probes == COL_PROBES_ON) {
		fprintf(stderr, "ucval collect: --probes on: %s\n", why);
		goto out_free;
	}
	if (!use_probes && a.probes == COL_PROBES_AUTO && !a.is_quiet)
		fprintf(stderr, "ucval collect: probes off: %s\n", why);
	/*
	 * Before the instance exists, so Ctrl-C never leaves it behind. No
	 * SA_RESTART: a signal must end poll() at once.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
	sigaction(SIGCHLD, &sc, NULL);
	an_diag_clear(&d);
	err = col_record_open(&a.rec, &rec, &d);
	if (err) {
		print_diag(&d);
		goto out_free;
	}
	if (use_probes) {
		err = start_probes(rec, dir, &probes, &d);
		if (err && a.probes == COL_PROBES_ON) {
			print_diag(&d);
			goto out_close;
		}
		if (err && !a.is_quiet) {
			an_diag_format(&d, why, sizeof(why));
			fprintf(stderr, "ucval collect: probes off: %s\n", why);
		} else if (!a.is_quiet) {
			fprintf(stderr, "ucval collect: probes on: BPF reads the uclamp and PELT "
				"values (instance '%s', clock %s)\n", COL_PROBEFMT_INSTANCE,
				COL_PROBES_CLOCK);
		}
		an_diag_clear(&d);
		err = 0;
	}
	if (!a.is_quiet)
		report_missing(rec, probes);
	err = col_record_start(rec, &d);
	if (!err)
		err = col_snapshot_take(NULL, emit_marker, rec, &d);
	if (!err && probes)
		err = probes_attached(&probes, col_probes_attach_early(probes, &d), &a, &d);
	if (!err)
		err = col_record_enable(rec, &d);
	if (!err && probes) {
		col_probes_trace_from(probes);
		err = probes_attached(&probes, col_probes_attach(probes, &d), &a, &d);
	}
	if (!err && probes && col_probes_without_enqueue(probes) && !a.is_quiet)
		fprintf(stderr, "ucval collect: no fexit programs on this kernel: "
			"uclamp_task_eff at wakeups only, re-enqueues unseen\n");
	if (!err)
		err = col_snapshot_tasks(NULL, emit_marker, rec, &d);
	if (!err && a.command) {
		child = start_command(a.command, &go);
		if (child < 0)
			err = an_diag_fail(&d, -errno, "cannot start '%s': %s", a.command[0],
					   strerror(errno));
	}
	if (!err && child > 0 && (a.uclamp_min >= 0 || a.uclamp_max >= 0)) {
		int r = apply_clamps(rec, &a, child);

		if (r)
			fprintf(stderr, "ucval collect: sched_setattr(util_min/util_max) of '%s' "
				"failed: %s (%d); recorded in the setattr marker, running it "
				"unclamped\n", a.command[0], strerror(-r), r);
	}
	if (child > 0) {
		char line[COL_MARKER_LEN];

		if (!col_snapshot_task_line(NULL, child, line, sizeof(line)))
			col_record_marker(rec, line);
		if (!err && write(go, "g", 1) != 1)	/* let the command exec */
			err = an_diag_fail(&d, -errno, "cannot start '%s': %s", a.command[0],
					   strerror(errno));
		close(go);	/* without the byte, the command exits 127 */
		go = -1;
	}
	if (!err)
		err = record_loop(rec, probes, &a, child, &child_status, &d);
	else if (child > 0)
		waitpid(child, &child_status, 0);
	/* the probes' records up to the last kernel event, not short of it */
	if (!err && probes) {
		err = col_record_halt(rec, &d);
		if (!err)
			col_probes_trace_until(probes);
	}
	if (!err)
		err = col_record_stop(rec, &d);
	if (!err && probes) {
		const int *fds;

		err = col_probes_stop(probes, &fds, &d);
		if (!err)
			col_record_add_instance(rec, col_probefmt_system(), COL_PROBEFMT_INSTANCE,
						fds);
	}
	if (!err)
		err = col_record_write(rec, a.output, &d);
	if (err) {
		print_diag(&d);
		goto out_close;
	}
	if (!a.is_quiet)
		report_end(rec, a.output);
	if (probes && !a.is_quiet)
		report_probes(probes);
	if (a.command && !a.is_quiet)
		report_child(a.command, child_status);
	if (stop_signal && !a.is_quiet)
		fprintf(stderr, "ucval collect: stopped by signal %d (%s)\n", (int)stop_signal,
			strsignal(stop_signal));
	ret = a.command ? child_exit(child_status) : UCVAL_EXIT_OK;
out_close:
	col_probes_close(probes);
	err = col_record_close(rec);
	if (err) {
		fprintf(stderr, "ucval collect: cannot remove the tracefs instance: %s\n",
			strerror(-err));
		ret = UCVAL_EXIT_USAGE;
	}
out_free:
	if (go >= 0)
		close(go);
	free(dir);
	return ret;
}
