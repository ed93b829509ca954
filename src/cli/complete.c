// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bash completion, generated from the command tree: the words each node
 * takes (aliases included), each command's options, and each option's
 * values as its table row says (files, devices, words, a command's list).
 */
#include <string.h>

#include "cli/grammar.h"

static void bash_opt(const struct cli_opt *o, void *arg)
{
	fprintf(arg, " --%s", o->name);
	if (o->letter)
		fprintf(arg, " -%c", o->letter);
}

/* An option whose value is the next word (not one given as --name=VALUE). */
static bool takes_word(const struct cli_opt *o)
{
	return o->kind != CLI_FLAG && !o->optional;
}

static void bash_valued(const struct cli_opt *o, void *arg)
{
	if (!takes_word(o))
		return;
	fprintf(arg, " --%s", o->name);
	if (o->letter)
		fprintf(arg, " -%c", o->letter);
}

/* What an ARGS word stands for: a netdev, an RDMA device, a host, a command... */
static void word_kind(FILE *f, const struct cli_cmd *c, const char *w, size_t len)
{
	static const struct { const char *word, *kind; } kinds[] = {
		{ "DEV", "rdma" }, { "NAME", "rdma" }, { "NETDEV", "netdev" },
		{ "NAME|NETDEV", "both" }, { "NETNS", "netns" }, { "HOST", "host" },
		{ "DIR", "file" }, { "COMMAND", "command" }, { "VERB", "command" },
	};
	bool lower = len && w[0] >= 'a' && w[0] <= 'z';

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].word) == len && !strncmp(kinds[i].word, w, len)) {
			fputs(kinds[i].kind, f);
			return;
		}
	if (lower) {			/* a word typed as it is: "netns" */
		fprintf(f, "words:%.*s", (int)len, w);
	} else if (c->arg_words) {	/* MODE: the words the table gives */
		fputs("words:", f);
		for (size_t i = 0; c->arg_words[i]; i++)
			fprintf(f, "%s%s", i ? "," : "", c->arg_words[i]);
	} else {
		fputs("none", f);	/* a number, an address, free words */
	}
}

/*
 * What each positional word of C is, in order ("rdma netns"); "..." after
 * the last when it repeats. Where an optional word comes first ("[NAME]
 * NETDEV"), any word may be either: one kind for all, repeating.
 */
static void arg_kinds(FILE *f, const struct cli_cmd *c)
{
	const char *a = c->args ? c->args : "";
	const char *sep = "";

	if (!strncmp(a, "[NAME]", 6)) {
		fputs("both...", f);
		return;
	}
	while (*a) {
		size_t len;

		a += strspn(a, " [");
		len = strcspn(a, " []");
		if (len > 3 && !strncmp(a + len - 3, "...", 3)) {
			fputs(sep, f);
			word_kind(f, c, a, len - 3);
			fputs("...", f);
			return;
		}
		if (len) {
			fputs(sep, f);
			word_kind(f, c, a, len);
			sep = " ";
		}
		a += len;
		a += strspn(a, "]");
		if (!strncmp(a, "...", 3)) {	/* "[NETDEV]...": the word before repeats */
			fputs("...", f);
			return;
		}
	}
}

/*
 * The words a node takes next, the hidden ones too (help leaves them out;
 * the parser takes them): each verb's name and aliases (NAMES false), or for
 * each of those words the verb's own name.
 */
static void node_words(FILE *f, const struct cli_cmd *tab, bool names)
{
	const char *sep = "";

	for (const struct cli_cmd *v = tab; v->name; v++) {
		fprintf(f, "%s%s", sep, v->name);
		sep = " ";
		for (size_t i = 0; i < sizeof(v->aliases) / sizeof(v->aliases[0]) && v->aliases[i];
		     i++)
			fprintf(f, " %s", names ? v->name : v->aliases[i]);
	}
}

static void words_and_names(FILE *f, const struct cli_cmd *tab)
{
	fputs(" words='", f);
	node_words(f, tab, false);
	fputs("' names='", f);
	node_words(f, tab, true);
	fputs("'", f);
}

static const struct cli_cmd *find_verb(const struct cli_cmd *c, const char *name)
{
	for (const struct cli_cmd *v = c->verbs; v && v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

/* A leaf's options and arguments (a node's: its default verb's, which takes its other words). */
static void leaf_fields(FILE *f, const struct cli_cmd *c)
{
	fputs(" opts='", f);
	cli_each_opt(c, bash_opt, f);
	fputs("' valued='", f);
	cli_each_opt(c, bash_valued, f);
	fputs("' kind='", f);
	arg_kinds(f, c);
	fputs("'", f);
}

static void bash_node(FILE *f, const struct cli_cmd *c, const char *path)
{
	const struct cli_cmd *d = c->dflt ? find_verb(c, c->dflt) : NULL;

	fprintf(f, "\t\"%s\")", path);
	if (c->verbs) {
		words_and_names(f, c->verbs);
		fprintf(f, " dflt='%s'", c->dflt ? c->dflt : "");
		if (d && !d->verbs)
			leaf_fields(f, d);
	} else {
		leaf_fields(f, c);
	}
	fputs(" ;;\n", f);
	for (const struct cli_cmd *v = c->verbs; v && v->name; v++) {
		char sub[64];

		snprintf(sub, sizeof(sub), "%s %s", path, v->name);
		bash_node(f, v, sub);
	}
}

struct value_ctx {
	FILE *f;
	const char *path;	/* "" for the global options: any command */
};

/* The case pattern for option O at the command PATH, its short letter too. */
static void value_pattern(const struct value_ctx *v, const struct cli_opt *o)
{
	const char *any = *v->path ? "" : "*";

	fprintf(v->f, "\t%s\"%s|--%s\"", any, v->path, o->name);
	if (o->letter)
		fprintf(v->f, "|%s\"%s|-%c\"", any, v->path, o->letter);
	fputs(") ", v->f);
}

static void bash_value(const struct cli_opt *o, void *arg)
{
	const struct value_ctx *v = arg;
	enum cli_complete what = o->kind == CLI_CHOICE ? CLI_C_WORDS : o->complete;

	/* An optional value is completed after '=' (--bench=lat). */
	if (o->kind == CLI_FLAG || what == CLI_C_NONE)
		return;
	value_pattern(v, o);
	switch (what) {
	case CLI_C_FILE:
		fputs("_rdmactl_args file", v->f);
		break;
	case CLI_C_RDMA:
		fputs("_rdmactl_args rdma", v->f);
		break;
	case CLI_C_NETDEV:
		fputs("_rdmactl_args netdev", v->f);
		break;
	case CLI_C_NETNS:
		fputs("_rdmactl_words \"$(ip netns list 2>/dev/null | awk '{ print $1 }')\" 0", v->f);
		break;
	case CLI_C_WORDS:
		fputs("_rdmactl_words '", v->f);
		for (size_t i = 0; o->choices && o->choices[i]; i++)
			fprintf(v->f, "%s%s", i ? " " : "", o->choices[i]);
		fprintf(v->f, "' %d", o->list);
		break;
	case CLI_C_COMMAND:
		fprintf(v->f, "_rdmactl_words \"$(\"${COMP_WORDS[0]}\" %s 2>/dev/null | "
			"awk '{ print $1 }')\" %d", o->from, o->list);
		break;
	case CLI_C_NONE:
		break;
	}
	fputs(" ;;\n", v->f);
}

/* Every leaf's options' values, and a node's for its default verb's. */
static void bash_values(FILE *f, const struct cli_cmd *c, const char *path)
{
	const struct cli_cmd *d = c->dflt ? find_verb(c, c->dflt) : NULL;
	struct value_ctx v = { f, path };

	if (!c->verbs)
		cli_each_opt(c, bash_value, &v);
	else if (d && !d->verbs)
		cli_each_opt(d, bash_value, &v);
	for (const struct cli_cmd *s = c->verbs; s && s->name; s++) {
		char sub[64];

		snprintf(sub, sizeof(sub), "%s %s", path, s->name);
		bash_values(f, s, sub);
	}
}

/* The completion's helpers that the tree does not shape: words of a list, arguments of a kind. */
static void bash_helpers(FILE *f)
{
	fputs("# The words $1 that start with $cur; with $2 1, the last of a comma-separated list.\n"
	      "_rdmactl_words() {\n"
	      "\tlocal c\n"
	      "\tif [[ $2 == 1 ]]; then\n"
	      "\t\tc=${cur%\"${cur##*,}\"}\n"
	      "\t\tmapfile -t COMPREPLY < <(compgen -P \"$c\" -W \"$1\" -- \"${cur##*,}\")\n"
	      "\t\tcompopt -o nospace 2>/dev/null\n"
	      "\telse\n"
	      "\t\tmapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\")\n"
	      "\tfi\n"
	      "}\n"
	      "\n"
	      "# Appends the words of KIND that start with $cur: netdevs and RDMA devices\n"
	      "# (the fixture's, with --sysfs-root), files, namespaces, hosts, the words of\n"
	      "# a command (those after help, in $pos, name it), or the words KIND lists.\n"
	      "_rdmactl_args() {\n"
	      "\tlocal w='' words names dflt opts valued kind\n"
	      "\tcase $1 in\n"
	      "\tcommand) _rdmactl_node \"${pos[*]}\"; w=$words ;;\n"
	      "\thost) w=$(compgen -A hostname -- \"$cur\") ;;\n"
	      "\tfile)\n"
	      "\t\tmapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\")\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\t\treturn ;;\n"
	      "\tnetns) w=$(ip netns list 2>/dev/null | awk '{ print $1 }') ;;\n"
	      "\tnetdev) w=$(ls \"$root/sys/class/net\" 2>/dev/null) ;;\n"
	      "\trdma) w=$(ls \"$root/sys/class/infiniband\" 2>/dev/null) ;;\n"
	      "\tboth) w=\"$(ls \"$root/sys/class/infiniband\" 2>/dev/null) $(ls \"$root/sys/class/net\" 2>/dev/null)\" ;;\n"
	      "\twords:*) w=${1#words:} w=${w//,/ } ;;\n"
	      "\tesac\n"
	      "\tmapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -W \"$w\" -- \"$cur\")\n"
	      "}\n"
	      "\n", f);
}

/* The completion function itself: the words typed walked down the tree to the node completed. */
static void bash_main(FILE *f, const struct cli_opt *globals)
{
	fputs("_rdmactl() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal path='' i j w words names dflt opts valued kind root=${RDMACTL_SYSFS_ROOT-}\n"
	      "\tlocal -a pos=() ka\n"
	      "\tlocal gopts='", f);
	for (const struct cli_opt *o = globals; o->name; o++)
		bash_opt(o, f);
	fputs("' gvalued='", f);
	for (const struct cli_opt *o = globals; o->name; o++)
		bash_valued(o, f);
	fputs(" '\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tw=${COMP_WORDS[i]}\n"
	      "\t\t_rdmactl_node \"$path\"\n"
	      "\t\tcase \"$w\" in\n"
	      "\t\t=) ((i++)); continue ;;\t# --name=VALUE: bash makes '=' a word of its own\n"
	      "\t\t--sysfs-root)\n"
	      "\t\t\t[[ ${COMP_WORDS[i+1]} == = ]] && ((i++))\n"
	      "\t\t\troot=${COMP_WORDS[i+1]}\n"
	      "\t\t\t((i++))\n"
	      "\t\t\tcontinue ;;\n"
	      "\t\t-*) [[ \"$gvalued$valued \" == *\" $w \"* ]] && ((i++)); continue ;;\n"
	      "\t\tesac\n"
	      "\t\tif [[ -n $words && \" $words \" == *\" $w \"* ]]; then\n"
	      "\t\t\t# an alias stands for its verb, by its place in the lists\n"
	      "\t\t\tlocal -a wa na\n"
	      "\t\t\tread -ra wa <<<\"$words\"\n"
	      "\t\t\tread -ra na <<<\"$names\"\n"
	      "\t\t\tfor j in \"${!wa[@]}\"; do\n"
	      "\t\t\t\t[[ ${wa[j]} == \"$w\" ]] && w=${na[j]} && break\n"
	      "\t\t\tdone\n"
	      "\t\t\tpath=${path:+$path }$w\n"
	      "\t\telse\n"
	      "\t\t\t# an argument: of the default verb, where the node has one\n"
	      "\t\t\t[[ -n $dflt ]] && path=${path:+$path }$dflt\n"
	      "\t\t\tpos+=(\"$w\")\n"
	      "\t\tfi\n"
	      "\tdone\n"
	      "\t_rdmactl_node \"$path\"\n"
	      "\tif [[ $cur == = || $prev == = ]]; then\n"
	      "\t\t# --name=VALUE: the value of the option before the '='\n"
	      "\t\t[[ $cur == = ]] && cur= || prev=${COMP_WORDS[COMP_CWORD-2]}\n"
	      "\t\t_rdmactl_value \"$path\" \"$prev\"\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tif [[ \"$gvalued$valued \" == *\" $prev \"* ]]; then\n"
	      "\t\t_rdmactl_value \"$path\" \"$prev\"\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tmapfile -t COMPREPLY < <(compgen -W \"$opts $gopts\" -- \"$cur\")\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\t[[ -n $words ]] && mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
	      "\t# The kind of this argument by its place; the last repeats where it ends in \"...\".\n"
	      "\tread -ra ka <<<\"$kind\"\n"
	      "\tif ((${#pos[@]} < ${#ka[@]})); then\n"
	      "\t\tkind=${ka[${#pos[@]}]}\n"
	      "\telif ((${#ka[@]})) && [[ ${ka[${#ka[@]}-1]} == *... ]]; then\n"
	      "\t\tkind=${ka[${#ka[@]}-1]}\n"
	      "\telse\n"
	      "\t\tkind=none\n"
	      "\tfi\n"
	      "\t_rdmactl_args \"${kind%...}\"\n"
	      "}\n"
	      "complete -F _rdmactl rdmactl\n", f);
}

void cli_print_bash(FILE *f, const struct cli_cmd *root, const struct cli_opt *globals)
{
	struct value_ctx gv = { f, "" };

	fputs("# bash completion for rdmactl: generated by 'rdmactl help --format bash' from\n"
	      "# its command tree. Install as /usr/share/bash-completion/completions/rdmactl.\n"
	      "\n"
	      "# The node at path $1: the words it takes next (verbs and their aliases), its\n"
	      "# default verb, its options, those that take the next word as their value,\n"
	      "# and what its arguments are.\n"
	      "_rdmactl_node() {\n"
	      "\twords='' names='' dflt='' opts='' valued='' kind=''\n"
	      "\tcase \"$1\" in\n"
	      "\t\"\")", f);
	words_and_names(f, root);
	fputs(" ;;\n", f);
	for (const struct cli_cmd *c = root; c->name; c++)
		bash_node(f, c, c->name);
	fputs("\tesac\n"
	      "}\n"
	      "\n"
	      "# The value of option $2 of the command at path $1.\n"
	      "_rdmactl_value() {\n"
	      "\tcase \"$1|$2\" in\n", f);
	for (const struct cli_cmd *c = root; c->name; c++)
		bash_values(f, c, c->name);
	for (const struct cli_opt *o = globals; o->name; o++)
		bash_value(o, &gv);
	fputs("\tesac\n"
	      "}\n"
	      "\n", f);
	bash_helpers(f);
	bash_main(f, globals);
}
