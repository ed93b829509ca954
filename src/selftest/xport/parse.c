// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selftest --transport's words: the transports, claims and results by name,
 * and the option's list parsed. No libibverbs here: help and completion use it.
 */
#include <stdio.h>
#include <string.h>

#include "selftest/selftest.h"

const char *const xp_transport_words[XP_NTRANSPORTS + 2] = {
	"rc", "uc", "ud", "srq", "xrc", "mw", "all", NULL,
};

const char *xp_transport_name(enum xp_transport t)
{
	return t < XP_NTRANSPORTS ? xp_transport_words[t] : t == XP_NTRANSPORTS ? "device" : "?";
}

const char *xp_claim_name(enum xp_claim c)
{
	static const char *const n[] = { "implied", "yes", "no" };

	return n[c];
}

const char *xp_result_name(enum xp_result r)
{
	static const char *const n[] = { "pass", "fail", "not supported", "not run" };

	return n[r];
}

int xp_parse(const char *list, unsigned int *mask, char *bad, size_t badlen)
{
	char buf[128], *save = NULL, *w;

	*mask = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int t;

		if (!strcmp(w, "all")) {
			*mask = XP_ALL;
			continue;
		}
		for (t = 0; t < XP_NTRANSPORTS && strcmp(w, xp_transport_words[t]); t++)
			;
		if (t == XP_NTRANSPORTS) {
			snprintf(bad, badlen, "%s", w);
			return -1;
		}
		*mask |= 1u << t;
	}
	if (!*mask)
		snprintf(bad, badlen, "%s", list);
	return *mask ? 0 : -1;
}
