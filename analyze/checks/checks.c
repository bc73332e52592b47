// SPDX-License-Identifier: MIT
/*
 * analyze/checks/checks.c - the checks the analysis attaches (checks.h).
 * trace_integrity comes first so its windows are reported before the
 * doubts they cause in the other checks.
 */
#include "analyze/checks/checks.h"

const struct an_check_desc an_checks_builtin[] = {
	{ AN_CHECK_TRACE_INTEGRITY,	an_check_trace_integrity_attach },
	{ AN_CHECK_RQ_CLAMP,		an_check_rq_clamp_attach },
	{ AN_CHECK_TASK_EFFECTIVE,	an_check_task_effective_attach },
	{ AN_CHECK_REQUEST_RESULT,	an_check_request_result_attach },
	{ AN_CHECK_GROUPS_EXHAUSTED,	an_check_groups_exhausted_attach },
	{ AN_CHECK_FREQ_BELOW_MIN_CLAMP,	an_check_freq_below_min_clamp_attach },
	{ AN_CHECK_FREQ_ABOVE_MAX_CLAMP,	an_check_freq_above_max_clamp_attach },
	{ AN_CHECK_FREQ_PREDICTION,		an_check_freq_prediction_attach },
};

const unsigned int an_checks_nr_builtin = sizeof(an_checks_builtin) / sizeof(an_checks_builtin[0]);
