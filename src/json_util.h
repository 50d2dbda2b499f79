/*
 * json_util.h: what the two JSON loaders (catalog.c, scenario.c) share: a
 * gp_jdoc that keeps the path a loader is at, so that gp_json_locate()
 * can find it again in the text for file:line:column, and typed readers
 * (gp_jdoc_number, gp_jdoc_enum, ...) that word every mistake the same
 * way.  Not a public header: json_t stays out of gpuplan.h.  Why it works
 * so: docs/design/json_util.md.
 */
#ifndef GP_JSON_UTIL_H
#define GP_JSON_UTIL_H

#include "gpuplan.h"

#include <jansson.h>

/* Deeper paths still work; the part beyond this is left out of messages and
 * locations.  The loaders' formats are far shallower. */
#define GP_JPATH_MAX 16

/* One step of a path into a JSON document: an object key, or, when key is
 * NULL, an array index.  Keys are borrowed. */
typedef struct gp_jstep {
    const char *key;
    size_t index;
} gp_jstep;

/*
 * Finds the value at `path` (depth steps) in the JSON text and sets *line
 * and *column (1-based; columns count characters, as jansson's do) to its
 * first character.  Returns true when the whole path exists; otherwise the
 * position is that of the deepest value of the path that does exist (the
 * root when none does), which is where a "missing key" belongs.  The text
 * need not be valid JSON: the scan stops safely at the end of the buffer.
 */
bool gp_json_locate(const char *text, size_t len, const gp_jstep *path,
                    size_t depth, long *line, long *column);

/* Writes a path the way messages show it: keys joined by '.', indices in
 * brackets, e.g. "instance_types.p4d.24xlarge.reserved[0].hourly"; a
 * key's control bytes are escaped as gp_append_escaped does ("\x1b"). */
void gp_json_path_format(const gp_jstep *path, size_t depth, char *buf,
                         size_t size);

/* "a string", "a number", "an object", ... for "expected X, got Y". */
const char *gp_json_type_phrase(const json_t *v);

/* The shortest decimal that reads back as v ("2.5", "0.125", "1e+20"). */
void gp_json_format_number(double v, char *buf, size_t size);

/*
 * jansson's allocations go through gp_malloc (so tests can fail them), and
 * one that fails is remembered: json_object_set_new and its kin drop a key
 * whose value could not be made and go on, so a document built while
 * memory ran out may lack parts without any call failing.  Writers check
 * gp_json_alloc_failed() before they write one, and write nothing if it
 * holds.  gp_json_alloc_init() must run before jansson's first
 * allocation (main; the tests' setups); the flag stays set.
 */
void gp_json_alloc_init(void);
bool gp_json_alloc_failed(void);
/* Forgets a failure: for tests only, between runs. */
void gp_json_alloc_clear(void);

/* Writes a document to f with jansson's dump `flags` and a newline, keys in
 * insertion order, all at once: nothing when it cannot be made whole (out
 * of memory, or a part dropped while building it: gp_json_alloc_failed).
 * GP_OK, or GP_ERR_NOMEM / GP_ERR_IO with err set against `name` (NULL:
 * standard output). */
gp_status gp_json_write(const json_t *doc, size_t flags, FILE *f,
                        const char *name, gp_error *err);

/* Writes s into buf as a double-quoted string for a message, with quotes
 * and backslashes escaped, control characters and bytes that are not UTF-8
 * escaped as gp_append_escaped does (\n, \r, \t, \xNN: an error stays on
 * one line, and a field reads the same in every message) and long strings
 * cut short with "...".  Returns buf. */
const char *gp_json_quote(const char *s, char *buf, size_t size);

/* A JSON document being read: its text (to locate errors), its name (the
 * errors' source), the caller's error record and the current path. */
typedef struct gp_jdoc {
    const char *text;
    size_t len;
    const char *source;
    gp_error *err;
    /* NULL: the read stops at the first error; else a reader that calls
     * gp_jdoc_go_on goes on past a part that failed, its error put here */
    gp_error_list *all;
    gp_jstep path[GP_JPATH_MAX];
    size_t depth; /* may exceed GP_JPATH_MAX; only the first steps count */
} gp_jdoc;

/* Starts reading text (len bytes) named `source`.  text may be NULL when
 * there is no document to point into; errors then carry no position. */
void gp_jdoc_init(gp_jdoc *d, const char *text, size_t len, const char *source,
                  gp_error *err);

/* Parses the document with jansson into *root (a new reference), which
 * must be an object.  A UTF-8 byte order mark is skipped.  Duplicate keys
 * are errors.  Malformed JSON gets jansson's line, column and text. */
gp_status gp_jdoc_parse(gp_jdoc *d, json_t **root);

/* Descends into member `key` (borrowed; must outlive the step) or array
 * element `index`; gp_jdoc_pop goes back up one step. */
void gp_jdoc_push_key(gp_jdoc *d, const char *key);
void gp_jdoc_push_index(gp_jdoc *d, size_t index);
void gp_jdoc_pop(gp_jdoc *d);

/* Records an input error about the value at the current path, or about its
 * member `key` when key is not NULL, with the location and the field path
 * filled in.  Returns GP_ERR_INPUT, so loaders can `return gp_jdoc_error(..)`.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
gp_status
gp_jdoc_error(gp_jdoc *d, const char *key, const char *fmt, ...);

/* The same as a warning: "source:line:column: path: message" is added to w
 * (nothing when w is NULL), and reading goes on. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void gp_jdoc_warning(gp_jdoc *d, gp_warnings *w, const char *key,
                     const char *fmt, ...);

/* Records "out of memory" at the document and returns GP_ERR_NOMEM. */
gp_status gp_jdoc_nomem(gp_jdoc *d);

/* After a part of the document (a member, an array element) was read with
 * status st: with d->all, a part that failed for its input (GP_ERR_INPUT)
 * has its error moved from d->err to d->all and the path set back to
 * `depth`, and the read goes on: GP_OK.  Else st. */
gp_status gp_jdoc_go_on(gp_jdoc *d, gp_status st, size_t depth);

/*
 * Typed readers of member `key` of object `obj` (the value at the current
 * path).  A missing member, or one that is null, is an error ("missing
 * required key") when `required`; otherwise the reader returns GP_OK,
 * leaves *out alone and sets *present (which may be NULL) to false.  A
 * member of the wrong JSON type is "expected a number, got a string".
 * Strings and values are borrowed from obj.
 */
gp_status gp_jdoc_number(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, double *out, bool *present);
gp_status gp_jdoc_string(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, const char **out, bool *present);
gp_status gp_jdoc_bool(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, bool *out, bool *present);
gp_status gp_jdoc_object(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, json_t **out);
gp_status gp_jdoc_array(gp_jdoc *d, const json_t *obj, const char *key,
                        bool required, json_t **out);

/* Checks that element value v (at the current path) is an object. */
gp_status gp_jdoc_expect_object(gp_jdoc *d, const json_t *v);

/*
 * Checks that every member of object obj (the value at the current path)
 * is one of the `known` keys or of the `read_past` ones (NULL-terminated
 * lists; read_past may be NULL), so that a misspelt key is an error rather
 * than a default silently kept.  A member whose name starts with '_' is a
 * comment and passes.  The message names the nearest known key, or else
 * lists them all (read_past keys are neither suggested nor listed: they
 * are there for files gpuplan writes, not for people to write):
 *   polcy: unknown key (did you mean "policy"?)
 */
gp_status gp_jdoc_known_keys(gp_jdoc *d, const json_t *obj,
                             const char *const *known,
                             const char *const *read_past);

/*
 * A string member that must be one of `names` (n of them); *out gets the
 * index.  `what` names the thing in the message:
 *   unknown payment "upfront" (expected no_upfront, partial_upfront or
 *   all_upfront)
 */
gp_status gp_jdoc_enum(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, const char *what,
                       const char *const *names, int n, int *out,
                       bool *present);

/* The shared vocabularies, in the order of their gpuplan.h enums. */
extern const char *const gp_json_payment_names[3];
extern const char *const gp_json_provider_names[3];
extern const char *const gp_json_plan_kind_names[2];
/* the first two are the fallbacks a policy may take */
extern const char *const gp_json_launch_names[5];

/* term_years: a number that must be 1 or 3. */
gp_status gp_jdoc_term_years(gp_jdoc *d, const json_t *obj, const char *key,
                             bool required, int *out, bool *present);

/* A string member holding an ISO 8601 time or epoch seconds (gp_parse_time),
 * stored as whole epoch seconds. */
gp_status gp_jdoc_time(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, int64_t *out, bool *present);

/*
 * Range checks on a number already read from member `key`; each returns
 * GP_OK or records an error such as "must be a whole number, got 2.5".
 */
/* v is a whole number in [min, max]. */
gp_status gp_jdoc_check_whole(gp_jdoc *d, const char *key, double v, double min,
                              double max);
/* The most any price, size, duration or factor may be (see json_util.c),
 * and how messages write it. */
#define GP_NUMBER_MAX 1e15
#define GP_NUMBER_MAX_TEXT "1e15"
/* 0 <= v <= GP_NUMBER_MAX */
gp_status gp_jdoc_check_nonnegative(gp_jdoc *d, const char *key, double v);
/* 0 < v <= GP_NUMBER_MAX */
gp_status gp_jdoc_check_positive(gp_jdoc *d, const char *key, double v);
/* v in [0, 1), with a hint when v looks like a percent:
 *   expected <what> in [0, 1), got 12.5 (a percent? write 0.125) */
gp_status gp_jdoc_check_fraction(gp_jdoc *d, const char *key, double v,
                                 const char *what);

#endif
