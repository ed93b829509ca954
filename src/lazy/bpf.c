// SPDX-License-Identifier: GPL-2.0-or-later
/* libbpf, opened at the first call into it (lazy.h): capture's loopback source only. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_bpf = { .soname = "libbpf.so.1", .package = "libbpf1" };

LAZY(lazy_bpf, libbpf_print_fn_t, libbpf_set_print, (libbpf_print_fn_t print), (print))
LAZY(lazy_bpf, int, bpf_object__open_skeleton,
     (struct bpf_object_skeleton *s, const struct bpf_object_open_opts *opts), (s, opts))
LAZY(lazy_bpf, int, bpf_object__load_skeleton, (struct bpf_object_skeleton *s), (s))
LAZY(lazy_bpf, int, bpf_object__attach_skeleton, (struct bpf_object_skeleton *s), (s))
LAZY_VOID(lazy_bpf, bpf_object__detach_skeleton, (struct bpf_object_skeleton *s), (s))
LAZY_VOID(lazy_bpf, bpf_object__destroy_skeleton, (struct bpf_object_skeleton *s), (s))
LAZY(lazy_bpf, int, bpf_map__fd, (const struct bpf_map *map), (map))
LAZY(lazy_bpf, struct ring_buffer *, ring_buffer__new,
     (int map_fd, ring_buffer_sample_fn cb, void *ctx, const struct ring_buffer_opts *opts),
     (map_fd, cb, ctx, opts))
LAZY(lazy_bpf, int, ring_buffer__epoll_fd, (const struct ring_buffer *rb), (rb))
LAZY(lazy_bpf, int, ring_buffer__consume, (struct ring_buffer *rb), (rb))
LAZY_VOID(lazy_bpf, ring_buffer__free, (struct ring_buffer *rb), (rb))
LAZY(lazy_bpf, int, bpf_program__set_autoload, (struct bpf_program *prog, bool autoload),
     (prog, autoload))
LAZY(lazy_bpf, int, bpf_program__fd, (const struct bpf_program *prog), (prog))
LAZY(lazy_bpf, int, bpf_obj_get_info_by_fd, (int bpf_fd, void *info, __u32 *info_len),
     (bpf_fd, info, info_len))
LAZY(lazy_bpf, int, bpf_map__set_max_entries, (struct bpf_map *map, __u32 max_entries),
     (map, max_entries))
LAZY(lazy_bpf, int, bpf_map_update_elem, (int fd, const void *key, const void *value,
					  __u64 flags), (fd, key, value, flags))
