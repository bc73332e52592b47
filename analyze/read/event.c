// SPDX-License-Identifier: MIT
/*
 * analyze/read/event.c - helpers over the canonical event (event.h).
 */
#include <string.h>

#include "analyze/read/event.h"

static const char *const type_names[] = {
#define AN_EV_NAME(type, name) [AN_EV_##type] = name,
	AN_EVENT_TYPES(AN_EV_NAME)
#undef AN_EV_NAME
};

/**
 * an_event_type_name() - canonical name of @type ("sched_pelt_cfs")
 * @type: event type
 *
 * Return: a static string.
 */
const char *an_event_type_name(enum an_event_type type)
{
	if ((unsigned int)type >= AN_EV__COUNT)
		return "?";
	return type_names[type];
}

/**
 * an_event_state_is_runnable() - whether a prev_state leaves the task runnable
 * @state: prev_state letters of a sched_switch ("R", "R+", "S", "D|K", ...)
 *
 * Return: true for "R" and "R+" (preempted): the task stays on the runqueue.
 */
bool an_event_state_is_runnable(const char *state)
{
	return state[0] == 'R' && (state[1] == '\0' ||
				   (state[1] == '+' && state[2] == '\0'));
}

bool an_event_is_enqueue(enum an_event_type type)
{
	return type == AN_EV_SCHED_WAKEUP || type == AN_EV_SCHED_WAKEUP_NEW ||
	       type == AN_EV_SCHED_MIGRATE_TASK;
}

bool an_comm_set(char dst[AN_COMM_LEN], const char *comm)
{
	size_t len;

	if (!comm || !comm[0] || !strncmp(dst, comm, AN_COMM_LEN - 1))
		return false;
	len = strnlen(comm, AN_COMM_LEN - 1);
	memcpy(dst, comm, len);
	dst[len] = '\0';
	return true;
}
