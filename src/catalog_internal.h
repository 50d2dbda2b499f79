/*
 * catalog_internal.h: what the pricing catalog's files share (private to
 * the library): catalog.c (one catalog), catalog_spot.c (spot sections and
 * price histories), catalog_capacity.c (capacity instruments),
 * catalog_set.c (sets of catalogs) and catalog_lookup.c.
 * See docs/design/catalog.md.
 */
#ifndef GP_CATALOG_INTERNAL_H
#define GP_CATALOG_INTERNAL_H

#include "json_util.h"
#include "util.h"

#include <stddef.h>

/* Checks that string member `key` with value s is at most max bytes
 * (catalog.c). */
gp_status gp_catalog_check_length(gp_jdoc *d, const char *key, const char *s,
                                  size_t max);

/* dir + "/" + name, or name alone when dir is empty or name is absolute: a
 * new string, or NULL when out of memory (catalog.c). */
char *gp_catalog_join_path(const char *dir, const char *name);

/* Reads the spot object of type t, if any (the current path is the type);
 * its history file is looked for in base_dir (catalog_spot.c). */
gp_status gp_catalog_parse_spot(gp_jdoc *d, const json_t *jt,
                                const char *base_dir, gp_instance_type *t);

/* Reads the capacity_blocks, flex_start and calendar members of type t,
 * if any (the current path is the type) (catalog_capacity.c). */
gp_status gp_catalog_parse_capacity(gp_jdoc *d, const json_t *jt,
                                    gp_instance_type *t);

#endif
