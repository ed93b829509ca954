// SPDX-License-Identifier: GPL-2.0-or-later
/* The firewall check: nftables (or iptables) rules that drop RoCE v2's UDP 4791. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "checks/checks.h"
#include "kernel/roce.h"
#include "kernel/spawn.h"


/* The whole output of the program ARGV, which exited 0, or NULL. */
static char *output_of(const char *const argv[])
{
	char *out;

	return spawn_read(argv, 64 << 20, &out) ? NULL : out;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* Does nft's "right" side of a match (a number, a set, a range) include 4791? */
static bool includes_port(struct json_object *right)
{
	struct json_object *set = get(right, "set"), *range = get(right, "range");

	if (json_object_is_type(right, json_type_int))
		return json_object_get_int(right) == ROCE_V2_UDP_PORT;
	if (range && json_object_array_length(range) == 2)
		return json_object_get_int(json_object_array_get_idx(range, 0)) <= ROCE_V2_UDP_PORT &&
		       json_object_get_int(json_object_array_get_idx(range, 1)) >= ROCE_V2_UDP_PORT;
	for (size_t i = 0; set && i < json_object_array_length(set); i++)
		if (includes_port(json_object_array_get_idx(set, i)))
			return true;
	return false;
}

/*
 * What a rule does to UDP 4791: 1 drops or rejects it, 2 accepts it, 0 neither
 * (a rule that matches other traffic, or none). A rule without matches applies
 * to everything.
 */
static int rule_effect(struct json_object *expr)
{
	bool port = false, other = false;
	int verdict = 0;

	for (size_t i = 0; i < json_object_array_length(expr); i++) {
		struct json_object *e = json_object_array_get_idx(expr, i);
		struct json_object *m = get(e, "match");

		if (m) {
			struct json_object *payload = get(get(m, "left"), "payload");
			const char *field = json_object_get_string(get(payload, "field"));

			if (field && !strcmp(field, "dport") && includes_port(get(m, "right")))
				port = true;
			else
				other = true;	/* a condition this check does not judge */
		}
		if (json_object_object_get_ex(e, "drop", NULL) ||
		    json_object_object_get_ex(e, "reject", NULL))
			verdict = 1;
		if (json_object_object_get_ex(e, "accept", NULL))
			verdict = 2;
	}
	if (!verdict || (other && !port))
		return 0;
	return verdict;
}

static void nft_check(struct check_ctx *c, const char *json)
{
	struct json_object *root = json_tokener_parse(json), *items = get(root, "nftables");
	char fix[256];
	bool ok = true;

	if (!items) {
		check_report(c, V_SKIP, NULL, "nft -j list ruleset gave no ruleset to read");
		json_object_put(root);
		return;
	}
	for (size_t i = 0; i < json_object_array_length(items); i++) {
		struct json_object *rule = get(json_object_array_get_idx(items, i), "rule");
		const char *fam, *tab, *chain;

		if (!rule || rule_effect(get(rule, "expr")) != 1)
			continue;
		fam = json_object_get_string(get(rule, "family"));
		tab = json_object_get_string(get(rule, "table"));
		chain = json_object_get_string(get(rule, "chain"));
		snprintf(fix, sizeof(fix), "nft delete rule %s %s %s handle %d", fam, tab, chain,
			 json_object_get_int(get(rule, "handle")));
		check_report(c, V_FAIL, fix, "nftables rule %s %s %s (handle %d) drops RoCE v2 (UDP %d)", fam,
			     tab, chain, json_object_get_int(get(rule, "handle")), ROCE_V2_UDP_PORT);
		ok = false;
	}
	/* An input chain whose policy drops, with no rule that accepts UDP 4791. */
	for (size_t i = 0; i < json_object_array_length(items); i++) {
		struct json_object *ch = get(json_object_array_get_idx(items, i), "chain");
		const char *hook = json_object_get_string(get(ch, "hook"));
		const char *policy = json_object_get_string(get(ch, "policy"));
		const char *name = json_object_get_string(get(ch, "name"));
		const char *tab = json_object_get_string(get(ch, "table"));
		bool accepted = false;

		if (!ch || !hook || strcmp(hook, "input") || !policy || strcmp(policy, "drop"))
			continue;
		for (size_t j = 0; j < json_object_array_length(items); j++) {
			struct json_object *rule = get(json_object_array_get_idx(items, j), "rule");
			const char *rc = json_object_get_string(get(rule, "chain"));
			const char *rt = json_object_get_string(get(rule, "table"));

			if (rule && rc && rt && !strcmp(rc, name) && !strcmp(rt, tab) &&
			    rule_effect(get(rule, "expr")) == 2)
				accepted = true;
		}
		if (accepted)
			continue;
		snprintf(fix, sizeof(fix), "nft insert rule %s %s %s udp dport %d accept",
			 json_object_get_string(get(ch, "family")), tab, name, ROCE_V2_UDP_PORT);
		check_report(c, V_FAIL, fix, "nftables chain %s %s drops input by policy and no rule accepts "
			     "RoCE v2 (UDP %d)", tab, name, ROCE_V2_UDP_PORT);
		ok = false;
	}
	if (ok)
		check_report(c, V_PASS, NULL, "no nftables rule or policy drops UDP %d", ROCE_V2_UDP_PORT);
	json_object_put(root);
}

static void iptables_check(struct check_ctx *c, const char *text)
{
	char *copy = strdup(text), *line, *save = NULL, fix[256], port[16];
	bool ok = true, drop_policy = false, accepted = false;

	if (!copy)
		return;
	snprintf(port, sizeof(port), "--dport %d ", ROCE_V2_UDP_PORT);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, ":INPUT DROP", 11))
			drop_policy = true;
		if (strncmp(line, "-A ", 3) || !strstr(line, port))
			continue;
		if (strstr(line, "-j ACCEPT")) {
			accepted = true;
		} else if (strstr(line, "-j DROP") || strstr(line, "-j REJECT")) {
			/* The same rule with -D instead of -A deletes it. */
			snprintf(fix, sizeof(fix), "iptables -D %s", line + 3);
			check_report(c, V_FAIL, fix, "iptables rule '%s' drops RoCE v2 (UDP %d)", line, ROCE_V2_UDP_PORT);
			ok = false;
		}
	}
	if (drop_policy && !accepted) {
		check_report(c, V_FAIL, "iptables -I INPUT -p udp --dport 4791 -j ACCEPT",
			     "iptables INPUT drops by policy and no rule accepts RoCE v2 (UDP %d)", ROCE_V2_UDP_PORT);
		ok = false;
	}
	if (ok)
		check_report(c, V_PASS, NULL, "no iptables rule or policy drops UDP %d", ROCE_V2_UDP_PORT);
	free(copy);
}

void check_firewall(struct check_ctx *c)
{
	char *out;

	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "the firewall is read on the live system only");
		return;
	}
	if (access("/usr/sbin/nft", X_OK) == 0) {
		out = output_of((const char *const[]){ "/usr/sbin/nft", "-j", "list", "ruleset", NULL });
		if (!out) {
			check_report(c, V_SKIP, NULL, "nft cannot list the ruleset (run as root)");
			return;
		}
		nft_check(c, out);
		free(out);
		return;
	}
	if (access("/usr/sbin/iptables-save", X_OK) == 0) {
		out = output_of((const char *const[]){ "/usr/sbin/iptables-save", NULL });
		if (!out) {
			check_report(c, V_SKIP, NULL, "iptables-save cannot list the rules (run as root)");
			return;
		}
		iptables_check(c, out);
		free(out);
		return;
	}
	check_report(c, V_SKIP, NULL, "neither nft nor iptables-save is installed: no firewall to read");
}
