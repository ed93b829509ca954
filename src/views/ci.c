// SPDX-License-Identifier: GPL-2.0-or-later
/* ci-setup's report (ci.h). */
#include <stdio.h>

#include "cli/junit.h"
#include "cli/out.h"
#include "views/ci.h"

void view_ci_setup(struct out *o, const struct view_ci *c)
{
	out_obj_open(o, NULL);
	out_bool(o, "ready", NULL, c->ready);
	out_str(o, "ci", NULL, c->ci);
	out_arr_open(o, "steps");
	for (size_t i = 0; i < c->nsteps; i++) {
		out_obj_open(o, NULL);
		out_str(o, "step", "%-7s", c->steps[i].step);
		out_bool(o, "ok", c->steps[i].ok ? " ok     " : " FAILED ", c->steps[i].ok);
		out_str(o, "how", "%s\n", c->steps[i].how);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_str(o, "ifname", NULL, c->dev);
	out_str(o, "netdev", NULL, c->netdev);
	out_str(o, "address", NULL, c->address);
	if (c->ready)
		out_u64(o, "gid_index", NULL, c->gid_index);
	else
		out_str(o, "gid_index", NULL, NULL);
	out_arr_open(o, "wrote");
	for (size_t i = 0; i < c->nwrote; i++)
		out_str(o, NULL, NULL, c->wrote[i]);
	out_arr_close(o);
	/* Text alone (out_text escapes what it prints): JSON has them as members above. */
	if (c->ready) {
		out_text(o, "ready: %s on %s, %s, GID index %u\n", c->dev, c->netdev, c->address,
			 c->gid_index);
	} else {
		out_text(o, "not ready: RDMA could not be made ready on this machine\n");
	}
	out_obj_close(o);
}

void view_ci_summary(FILE *f, const struct view_ci *c)
{
	if (c->ready)
		fprintf(f, "### RDMA ready: %s on %s, %s, GID index %u\n\n", c->dev, c->netdev,
			c->address, c->gid_index);
	else
		fprintf(f, "### RDMA not ready\n\n");
	fprintf(f, "| step | result | how |\n|---|---|---|\n");
	for (size_t i = 0; i < c->nsteps; i++) {
		fprintf(f, "| %s | %s | ", c->steps[i].step, c->steps[i].ok ? "ok" : "**failed**");
		/* A table cell ends at a bar or a newline: neither is taken as one, nor a control byte. */
		for (const unsigned char *p = (const unsigned char *)c->steps[i].how; *p; p++)
			if (*p == '|')
				fputs("\\|", f);
			else if (*p < 0x20 || *p >= 0x7f)
				fprintf(f, "\\x%02x", *p);
			else
				fputc(*p, f);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

int view_ci_junit(FILE *f, const struct view_ci *c)
{
	static const char *const all[] = { "driver", "link", "env" };
	struct junit_case k[VIEW_CI_STEPS];
	char why[64] = "";
	size_t n = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(*all) && n < VIEW_CI_STEPS; i++, n++) {
		const struct view_ci_step *t = i < c->nsteps ? &c->steps[i] : NULL;

		k[n] = (struct junit_case){ .classname = "rdmactl.ci-setup", .name = all[i] };
		if (!t) {
			k[n].result = JUNIT_SKIP;
			k[n].message = *why ? why : "not tried";
		} else if (t->ok) {
			k[n].result = JUNIT_PASS;
			k[n].out = t->how;
		} else {
			k[n].result = JUNIT_FAIL;
			k[n].message = k[n].text = t->how;
			snprintf(why, sizeof(why), "not tried: the %s step failed", t->step);
		}
	}
	return junit_write(f, "rdmactl ci-setup", k, n);
}

void view_ci_outputs(FILE *f, const struct view_ci *c)
{
	fprintf(f, "device=%s\nnetdev=%s\ngid_index=%u\naddress=%s\n", c->dev, c->netdev,
		c->gid_index, c->address);
}
