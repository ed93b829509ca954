// SPDX-License-Identifier: GPL-2.0-or-later
/* libpcap, opened at the first call into it (lazy.h): only capture uses it. */
#include <pcap/pcap.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_pcap = { .soname = "libpcap.so.0.8", .package = "libpcap0.8" };

LAZY(lazy_pcap, pcap_t *, pcap_create, (const char *source, char *errbuf), (source, errbuf))
LAZY(lazy_pcap, int, pcap_set_snaplen, (pcap_t *p, int snaplen), (p, snaplen))
LAZY(lazy_pcap, int, pcap_set_timeout, (pcap_t *p, int ms), (p, ms))
LAZY(lazy_pcap, int, pcap_set_buffer_size, (pcap_t *p, int size), (p, size))
LAZY(lazy_pcap, int, pcap_activate, (pcap_t *p), (p))
LAZY(lazy_pcap, int, pcap_compile, (pcap_t *p, struct bpf_program *fp, const char *str,
				     int optimize, bpf_u_int32 netmask),
     (p, fp, str, optimize, netmask))
LAZY(lazy_pcap, int, pcap_setfilter, (pcap_t *p, struct bpf_program *fp), (p, fp))
LAZY_VOID(lazy_pcap, pcap_freecode, (struct bpf_program *fp), (fp))
LAZY(lazy_pcap, int, pcap_setnonblock, (pcap_t *p, int nonblock, char *errbuf),
     (p, nonblock, errbuf))
LAZY(lazy_pcap, int, pcap_get_selectable_fd, (pcap_t *p), (p))
LAZY(lazy_pcap, int, pcap_next_ex, (pcap_t *p, struct pcap_pkthdr **h, const u_char **data),
     (p, h, data))
LAZY(lazy_pcap, int, pcap_datalink, (pcap_t *p), (p))
LAZY(lazy_pcap, int, pcap_stats, (pcap_t *p, struct pcap_stat *ps), (p, ps))
LAZY(lazy_pcap, char *, pcap_geterr, (pcap_t *p), (p))
LAZY(lazy_pcap, const char *, pcap_statustostr, (int error), (error))
LAZY_VOID(lazy_pcap, pcap_close, (pcap_t *p), (p))
LAZY(lazy_pcap, pcap_t *, pcap_fopen_offline, (FILE *fp, char *errbuf), (fp, errbuf))
LAZY(lazy_pcap, pcap_t *, pcap_open_dead, (int linktype, int snaplen), (linktype, snaplen))
LAZY(lazy_pcap, pcap_dumper_t *, pcap_dump_fopen, (pcap_t *p, FILE *fp), (p, fp))
LAZY_VOID(lazy_pcap, pcap_dump, (u_char *user, const struct pcap_pkthdr *h, const u_char *sp),
	  (user, h, sp))
LAZY(lazy_pcap, FILE *, pcap_dump_file, (pcap_dumper_t *p), (p))
LAZY(lazy_pcap, int, pcap_dump_flush, (pcap_dumper_t *p), (p))
LAZY_VOID(lazy_pcap, pcap_dump_close, (pcap_dumper_t *p), (p))
