// SPDX-License-Identifier: MIT
/*
 * analyze/store/pfconv.c - a stored trace's events as Perfetto ftrace
 * bundles (pfconv.h): the reader's canonical events, one by one, into the
 * encoder.
 */
#include "analyze/read/reader.h"
#include "analyze/store/pfconv.h"

int an_pfconv_events(const char *path, struct an_pfenc *enc, struct an_diag *d)
{
	struct an_reader *r;
	struct an_event ev;
	int ret = an_reader_open(path, &r, d);

	if (ret)
		return ret;
	while ((ret = an_reader_next(r, &ev, d)) != 0) {
		if (ret > 0) {
			an_pfenc_event(enc, &ev);
			continue;
		}
		if (!an_error_is_recoverable(ret))
			break;
		an_diag_clear(d);
		an_diag_set_file(d, "read", path);
	}
	an_reader_close(r);
	return ret;
}
