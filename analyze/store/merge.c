// SPDX-License-Identifier: MIT
/*
 * analyze/store/merge.c - combine results databases (merge.h).
 *
 * The output is built in "OUT.merge-PID.tmp": a copy of OUT (SQLite's
 * backup API, page by page) or a new database, brought to this ucval's
 * schema by an_db_open(). Each shard is ATTACHed in turn and its traces
 * copied one at a time, each child table with one INSERT ... SELECT, in one
 * transaction per shard. The file is then closed (its WAL checkpointed
 * away), synced and renamed over OUT.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/store/db.h"
#include "analyze/store/merge.h"

/* Tables with a trace_id a schema may have (db.c has a dozen). */
#define MG_MAX_TABLES	64
/* Room for a table's column list, or a statement built from it. */
#define MG_SQL_LEN	2048
#define MG_NAME_LEN	64

/* One table whose rows belong to a trace, and its statements for the shard. */
struct mg_table {
	char name[MG_NAME_LEN];
	sqlite3_stmt *copy;	/* ?1 new trace_id, ?2 the shard's */
	sqlite3_stmt *del;	/* ?1 trace_id */
};

struct mg {
	sqlite3 *conn;		/* the temporary output */
	struct mg_table tab[MG_MAX_TABLES];
	int nr_tab;
	sqlite3_stmt *find;	/* main trace by sha256, options */
	sqlite3_stmt *del_trace;
	sqlite3_stmt *copy_trace;
	sqlite3_stmt *list;	/* the shard's traces */
	struct an_merge_stats *st;
	struct an_diag *d;
};

static int mg_fail(struct mg *m, const char *doing)
{
	return an_diag_fail(m->d, AN_E_DB, "%s: %s", doing, sqlite3_errmsg(m->conn));
}

static int mg_exec(struct mg *m, const char *sql, const char *doing)
{
	return sqlite3_exec(m->conn, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : mg_fail(m, doing);
}

static int mg_prepare(struct mg *m, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(m->conn, sql, -1, st, NULL) != SQLITE_OK)
		return mg_fail(m, "cannot prepare a statement");
	return 0;
}

/* Run @st, which returns no row, and reset it for the next trace. */
static int mg_step(struct mg *m, sqlite3_stmt *st, const char *doing)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : mg_fail(m, doing);
}

/* ---- checking a shard before anything is written ---- */

static int shard_tables(sqlite3 *c, struct an_diag *d)
{
	sqlite3_stmt *st;
	bool has_traces = false;
	int rc, err = 0;

	if (sqlite3_prepare_v2(c, "SELECT name FROM sqlite_master WHERE type = 'table' AND"
			       " name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", -1, &st, NULL) != SQLITE_OK)
		return an_diag_fail(d, AN_E_DB, "not a database: %s", sqlite3_errmsg(c));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		has_traces |= name && !strcmp(name, "traces");
		if (name && !an_db_is_own_table(name)) {
			err = an_diag_fail(d, AN_E_DB, "not a ucval results database: it has a "
					   "table '%.64s' of its own", name);
			break;
		}
	}
	if (!err && rc != SQLITE_DONE)
		err = an_diag_fail(d, AN_E_DB, "not a database: %s", sqlite3_errmsg(c));
	if (!err && !has_traces)
		err = an_diag_fail(d, AN_E_DB, "not a ucval results database: no table 'traces'");
	sqlite3_finalize(st);
	return err;
}

static int shard_version(sqlite3 *c, struct an_diag *d)
{
	sqlite3_stmt *st;
	int version = -1;

	if (sqlite3_prepare_v2(c, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return an_diag_fail(d, AN_E_DB, "not a database: %s", sqlite3_errmsg(c));
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version == AN_DB_SCHEMA_VERSION)
		return 0;
	return an_diag_fail(d, AN_E_SCHEMA, "schema version %d, merge takes shards of version "
			    "%d only (analyzing any trace into a shard with this ucval upgrades "
			    "an older one)", version, AN_DB_SCHEMA_VERSION);
}

static bool is_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* @path must be a ucval results database of this schema version, and not @out. */
static int check_shard(const char *out, const char *path, struct an_diag *d)
{
	struct stat sb;
	sqlite3 *c = NULL;
	int err;

	an_diag_set_file(d, "read shard", path);
	if (stat(path, &sb))
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return an_diag_fail(d, AN_E_DB, "not a regular file");
	if (is_same_file(out, path))
		return an_diag_fail(d, AN_E_DB, "is the output too");
	if (sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err = an_diag_fail(d, AN_E_DB, "cannot open: %s", sqlite3_errmsg(c));
		sqlite3_close(c);
		return err;
	}
	err = shard_tables(c, d);
	if (!err)
		err = shard_version(c, d);
	sqlite3_close(c);
	return err;
}

/* ---- the temporary output ---- */

/*
 * A copy of the existing @out at @tmp, through SQLite: consistent even with
 * a WAL. @out is opened for writing only so that its closing checkpoints a
 * WAL away (its content stays what it was).
 */
static int copy_out(const char *out, const char *tmp, struct an_diag *d)
{
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b;
	int rc = SQLITE_ERROR;

	if (sqlite3_open_v2(out, &src, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) ==
	    SQLITE_OK) {
		b = sqlite3_backup_init(dst, "main", src, "main");
		if (b) {
			while ((rc = sqlite3_backup_step(b, 1024)) == SQLITE_OK)
				;
			sqlite3_backup_finish(b);
		}
	}
	if (rc != SQLITE_DONE)
		an_diag_fail(d, AN_E_DB, "cannot copy the output: %s",
			     sqlite3_errmsg(dst ? dst : src));
	sqlite3_close(dst);
	sqlite3_close(src);
	return rc == SQLITE_DONE ? 0 : AN_E_DB;
}

/* The tables of the output with a trace_id, traces itself aside. */
static int find_tables(struct mg *m)
{
	sqlite3_stmt *st;
	int rc, err;

	err = mg_prepare(m, "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c"
			 " WHERE m.type = 'table' AND c.name = 'trace_id' AND m.name != 'traces'"
			 " ORDER BY m.name", &st);
	if (err)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && m->nr_tab < MG_MAX_TABLES)
		snprintf(m->tab[m->nr_tab++].name, MG_NAME_LEN, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return an_diag_fail(m->d, AN_E_DB, "more than %d tables of traces", MG_MAX_TABLES);
	return rc == SQLITE_DONE ? 0 : mg_fail(m, "cannot read the schema");
}

/*
 * The columns of main.@table that the shard's table has too, trace_id aside,
 * as "a, b, c" into @buf (empty: the shard has no such table).
 */
static int common_columns(struct mg *m, const char *table, char *buf, size_t len)
{
	sqlite3_stmt *st;
	size_t n = 0;
	int rc, err;

	err = mg_prepare(m, "SELECT c.name FROM pragma_table_info(?1, 'main') c"
			 " WHERE c.name != 'trace_id' AND c.name IN"
			 " (SELECT name FROM pragma_table_info(?1, 's')) ORDER BY c.cid", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	buf[0] = '\0';
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s\"%s\"", n ? ", " : "",
				      sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (n >= len)
		return an_diag_fail(m->d, AN_E_DB, "%s: too many columns", table);
	return rc == SQLITE_DONE ? 0 : mg_fail(m, "cannot read the schema");
}

static void finalize_shard(struct mg *m)
{
	for (int i = 0; i < m->nr_tab; i++) {
		sqlite3_finalize(m->tab[i].copy);
		sqlite3_finalize(m->tab[i].del);
		m->tab[i].copy = m->tab[i].del = NULL;
	}
	sqlite3_finalize(m->find);
	sqlite3_finalize(m->del_trace);
	sqlite3_finalize(m->copy_trace);
	sqlite3_finalize(m->list);
	m->find = m->del_trace = m->copy_trace = m->list = NULL;
}

/* The statements of one table for the attached shard (none if it lacks the table). */
static int prepare_table(struct mg *m, struct mg_table *t)
{
	char cols[MG_SQL_LEN], sql[2 * MG_SQL_LEN + 256];
	int err = common_columns(m, t->name, cols, sizeof(cols));

	if (!err) {
		snprintf(sql, sizeof(sql), "DELETE FROM main.\"%s\" WHERE trace_id = ?1", t->name);
		err = mg_prepare(m, sql, &t->del);
	}
	if (err || !cols[0])
		return err;
	snprintf(sql, sizeof(sql), "INSERT INTO main.\"%s\"(trace_id, %s) SELECT ?1, %s"
		 " FROM s.\"%s\" WHERE trace_id = ?2", t->name, cols, cols, t->name);
	return mg_prepare(m, sql, &t->copy);
}

static int prepare_shard(struct mg *m)
{
	char cols[MG_SQL_LEN], sql[2 * MG_SQL_LEN + 256];
	int err = 0;

	for (int i = 0; i < m->nr_tab && !err; i++)
		err = prepare_table(m, &m->tab[i]);
	if (!err)
		err = common_columns(m, "traces", cols, sizeof(cols));
	if (err)
		return err;
	snprintf(sql, sizeof(sql), "INSERT INTO main.traces(%s) SELECT %s FROM s.traces"
		 " WHERE trace_id = ?1", cols, cols);
	err = mg_prepare(m, sql, &m->copy_trace);
	if (!err)
		err = mg_prepare(m, "SELECT trace_id FROM main.traces WHERE sha256 = ?1 AND"
				 " options = ?2", &m->find);
	if (!err)
		err = mg_prepare(m, "DELETE FROM main.traces WHERE trace_id = ?1", &m->del_trace);
	if (!err)
		err = mg_prepare(m, "SELECT trace_id, sha256, options FROM s.traces"
				 " ORDER BY trace_id", &m->list);
	return err;
}

/* ---- copying ---- */

/* The output's trace with @sha256 and @options goes, with every row of it. */
static int delete_same(struct mg *m, sqlite3_value *sha256, sqlite3_value *options)
{
	int64_t old = 0;
	int rc, err = 0;

	sqlite3_bind_value(m->find, 1, sha256);
	sqlite3_bind_value(m->find, 2, options);
	rc = sqlite3_step(m->find);
	if (rc == SQLITE_ROW)
		old = sqlite3_column_int64(m->find, 0);
	sqlite3_reset(m->find);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : mg_fail(m, "cannot look up a trace");
	m->st->nr_replaced++;
	for (int i = 0; i < m->nr_tab && !err; i++) {
		sqlite3_bind_int64(m->tab[i].del, 1, old);
		err = mg_step(m, m->tab[i].del, "cannot replace a trace");
	}
	if (err)
		return err;
	sqlite3_bind_int64(m->del_trace, 1, old);
	return mg_step(m, m->del_trace, "cannot replace a trace");
}

static int copy_trace(struct mg *m, int64_t from)
{
	int64_t to;
	int err;

	sqlite3_bind_int64(m->copy_trace, 1, from);
	err = mg_step(m, m->copy_trace, "cannot copy a trace");
	if (err)
		return err;
	to = sqlite3_last_insert_rowid(m->conn);
	m->st->nr_traces++;
	m->st->nr_rows++;
	for (int i = 0; i < m->nr_tab && !err; i++) {
		sqlite3_stmt *st = m->tab[i].copy;

		if (!st)
			continue;
		sqlite3_bind_int64(st, 1, to);
		sqlite3_bind_int64(st, 2, from);
		err = mg_step(m, st, "cannot copy a trace's rows");
		m->st->nr_rows += (uint64_t)sqlite3_changes(m->conn);
	}
	return err;
}

static int copy_shard_traces(struct mg *m)
{
	int rc, err = 0;

	while (!err && (rc = sqlite3_step(m->list)) == SQLITE_ROW) {
		err = delete_same(m, sqlite3_column_value(m->list, 1),
				  sqlite3_column_value(m->list, 2));
		if (!err)
			err = copy_trace(m, sqlite3_column_int64(m->list, 0));
	}
	if (!err && rc != SQLITE_DONE)
		err = mg_fail(m, "cannot read the shard's traces");
	sqlite3_reset(m->list);
	return err;
}

static int merge_shard(struct mg *m, const char *path)
{
	sqlite3_stmt *st;
	int err;

	an_diag_set_file(m->d, "merge shard", path);
	err = mg_prepare(m, "ATTACH ?1 AS s", &st);
	if (err)
		return err;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	err = sqlite3_step(st) == SQLITE_DONE ? 0 : mg_fail(m, "cannot attach");
	sqlite3_finalize(st);
	if (err)
		return err;
	err = prepare_shard(m);
	if (!err)
		err = mg_exec(m, "BEGIN", "cannot begin");
	if (!err)
		err = copy_shard_traces(m);
	if (!err)
		err = mg_exec(m, "COMMIT", "cannot commit");
	if (err)
		sqlite3_exec(m->conn, "ROLLBACK", NULL, NULL, NULL);
	finalize_shard(m);
	if (mg_exec(m, "DETACH s", "cannot detach") && !err)
		err = AN_E_DB;
	return err;
}

/* ---- the whole ---- */

/* @tmp as a results database of this schema: a copy of @out, or new. */
static int make_tmp(const char *out, const char *tmp, struct an_diag *d)
{
	struct an_db *db;
	struct stat sb;
	int err;

	if (stat(out, &sb) == 0) {
		if (!S_ISREG(sb.st_mode))
			return an_diag_fail(d, AN_E_DB, "not a regular file");
		err = copy_out(out, tmp, d);
		if (err)
			return err;
	} else if (errno != ENOENT) {
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	}
	err = an_db_open(&db, tmp, d);
	an_diag_set_file(d, "write database", out);
	an_db_close(db);
	return err;
}

static int open_tmp(struct mg *m, const char *tmp)
{
	if (sqlite3_open_v2(tmp, &m->conn, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		return mg_fail(m, "cannot open the temporary output");
	/*
	 * A temporary file: a crash throws it away, so no sync until the
	 * rename. Each INSERT ... SELECT inside the shard's transaction keeps a
	 * statement journal of the pages it changes that the transaction had
	 * already changed; in memory it is a few pages of one trace and one
	 * table, where a temporary file costs two writes a page (measured: 1.1
	 * million writes, half the time of merging 10,000 small traces).
	 */
	if (mg_exec(m, "PRAGMA synchronous = OFF", "cannot set up") ||
	    mg_exec(m, "PRAGMA temp_store = MEMORY", "cannot set up") ||
	    mg_exec(m, "PRAGMA foreign_keys = OFF", "cannot set up"))
		return AN_E_DB;
	return find_tables(m);
}

static int sync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	int err = fd < 0 || fsync(fd) ? -errno : 0;

	if (fd >= 0)
		close(fd);
	return err;
}

/* @tmp, closed and whole on disk, becomes @out. */
static int publish(const char *tmp, const char *out, struct an_diag *d)
{
	char wal[4096], dir[4096];
	int err;

	if (snprintf(wal, sizeof(wal), "%s-wal", tmp) >= (int)sizeof(wal))
		return an_diag_fail(d, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	if (!access(wal, F_OK))
		return an_diag_fail(d, AN_E_DB, "the temporary output kept a WAL");
	if (snprintf(wal, sizeof(wal), "%s-wal", out) >= (int)sizeof(wal))
		return an_diag_fail(d, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	if (!access(wal, F_OK))
		return an_diag_fail(d, AN_E_DB, "in use (it has a WAL file): merge into a "
				    "database no ucval is writing");
	err = sync_path(tmp, O_RDONLY);
	if (!err && rename(tmp, out))
		err = -errno;
	snprintf(dir, sizeof(dir), "%s", out);
	if (!err)
		err = sync_path(dirname(dir), O_RDONLY | O_DIRECTORY);
	return err ? an_diag_fail(d, err, "cannot replace: %s", strerror(-err)) : 0;
}

static void remove_tmp(const char *tmp)
{
	char side[4096];

	unlink(tmp);
	snprintf(side, sizeof(side), "%s-wal", tmp);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", tmp);
	unlink(side);
}

int an_merge(const char *out, char *const *shards, int nr_shards, struct an_merge_stats *st,
	     struct an_diag *d)
{
	struct mg m = { .st = st, .d = d };
	char tmp[4096];
	int err = 0;

	an_diag_clear(d);
	memset(st, 0, sizeof(*st));
	an_diag_set_file(d, "write database", out);
	if (!*out)
		return an_diag_fail(d, AN_E_DB, "empty path");
	for (int i = 0; i < nr_shards && !err; i++)
		err = check_shard(out, shards[i], d);
	if (err)
		return err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.merge-%ld.tmp", out, (long)getpid()) >=
	    sizeof(tmp))
		return an_diag_fail(d, -ENAMETOOLONG, "path too long");
	remove_tmp(tmp);
	err = make_tmp(out, tmp, d);
	if (!err)
		err = open_tmp(&m, tmp);
	for (int i = 0; i < nr_shards && !err; i++)
		err = merge_shard(&m, shards[i]);
	if (m.conn && sqlite3_close(m.conn) != SQLITE_OK && !err)
		err = an_diag_fail(d, AN_E_DB, "cannot close the temporary output");
	if (!err) {
		an_diag_set_file(d, "write database", out);
		err = publish(tmp, out, d);
	}
	if (err)
		remove_tmp(tmp);
	return err;
}
