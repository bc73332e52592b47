// SPDX-License-Identifier: MIT
/*
 * lib/error.c - messages of the AN_E_* codes (the list is in diag.h).
 */
#include <string.h>

#include "lib/diag.h"

static const struct error_desc {
	bool is_recoverable;
	const char *msg;
} errors[] = {
#define AN_E_DESC(name, recoverable, text) \
	[AN_E_##name - AN_E__START - 1] = { recoverable, text },
	AN_ERRORS(AN_E_DESC)
#undef AN_E_DESC
};

static const struct error_desc *find_desc(int err)
{
	if (err <= AN_E__START || err >= AN_E__END)
		return NULL;
	return &errors[err - AN_E__START - 1];
}

/**
 * an_error_str() - the message of an error code
 * @err: 0, a negative errno or a negative AN_E_* code
 *
 * Return: a static string, never NULL.
 */
const char *an_error_str(int err)
{
	const struct error_desc *desc = find_desc(err);

	if (desc)
		return desc->msg;
	if (err == 0)
		return "success";
	if (err < 0 && err > AN_E__BASE)
		return strerror(-err);
	return "unknown error";
}

/**
 * an_error_is_recoverable() - whether a reader may go on after @err
 * @err: a code returned by an_reader_next() or one of the format readers
 *
 * Return: true for per-line/per-record codes (the item was skipped).
 */
bool an_error_is_recoverable(int err)
{
	const struct error_desc *desc = find_desc(err);

	return desc && desc->is_recoverable;
}
