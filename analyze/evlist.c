// SPDX-License-Identifier: MIT
/*
 * analyze/evlist.c - which events a trace recorded, in words (evlist.h).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/evlist.h"

bool an_evlist_has(const struct an_summary *s, enum an_evlist_which which,
		   enum an_event_type type)
{
	bool is_seen = s->n_type[type] > 0;

	switch (which) {
	case AN_EVLIST_RECORDED:
		return is_seen && type != AN_EV_UNKNOWN && type != AN_EV_LOST_EVENTS;
	case AN_EVLIST_MISSING:
		return !is_seen && (AN_EVLIST_FOLLOWED & AN_EV_BIT(type));
	case AN_EVLIST_UNLISTED:
		return !is_seen && (AN_EVLIST_FOLLOWED & AN_EV_BIT(type)) &&
		       s->ev_list != AN_EV_LIST_NONE && !(s->ev_listed & AN_EV_BIT(type));
	}
	return false;
}

unsigned int an_evlist_names(const struct an_summary *s, enum an_evlist_which which, char *buf,
			     size_t len)
{
	unsigned int n = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (int type = 0; type < AN_EV__COUNT; type++) {
		const char *name = an_event_type_name((enum an_event_type)type);
		size_t need = strlen(name) + (n ? 1 : 0);

		if (!an_evlist_has(s, which, (enum an_event_type)type) || at + need >= len)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", n ? " " : "", name);
		n++;
	}
	return n;
}

const char *an_evlist_evidence(const struct an_summary *s)
{
	switch (s->ev_list) {
	case AN_EV_LIST_FORMATS:
		return "events seen, saved event formats";
	case AN_EV_LIST_ENABLED:
		return "events seen, enabled events header";
	case AN_EV_LIST_NONE:
		break;
	}
	return "events seen";
}

const char *an_evlist_list_name(const struct an_summary *s)
{
	switch (s->ev_list) {
	case AN_EV_LIST_FORMATS:
		return "saved event formats";
	case AN_EV_LIST_ENABLED:
		return "enabled events";
	case AN_EV_LIST_NONE:
		break;
	}
	return NULL;
}
