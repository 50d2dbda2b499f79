/*
 * util_files.c: files written whole or not at all (reading: source.c):
 * a temporary file renamed into place (or copied into a device or a pipe),
 * and sets of such files committed together; scratch files in $TMPDIR.
 */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- scratch files -------------------------------------------------------- */

/* A scratch file in $TMPDIR (else /tmp), removed as soon as it is open;
 * NULL with errno set on failure (dir says where it was tried). */
FILE *gp_scratch_file(char *dir, size_t size)
{
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    FILE *f;
    int fd, saved;

    if (!tmpdir || !*tmpdir)
        tmpdir = "/tmp";
    if (dir)
        snprintf(dir, size, "%s", tmpdir);
    if (snprintf(path, sizeof path, "%s/gpuplan-XXXXXX", tmpdir) >=
        (int)sizeof path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    if ((fd = mkstemp(path)) < 0)
        return NULL;
    unlink(path);
    if (!(f = fdopen(fd, "w+b"))) {
        saved = errno;
        close(fd);
        errno = saved;
    }
    return f;
}

/* ---- writing whole files ------------------------------------------------ */

bool gp_path_is_special(const char *path)
{
    struct stat sb;

    if (lstat(path, &sb) != 0)
        return false;
    return S_ISLNK(sb.st_mode) ||
           (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode));
}

/* The folder part of path ("." when it has none), into buf. */
static void folder_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* ---- temporaries: the live ones, and stale ones of stopped runs ------- */

/* The temporaries this process has made and not yet removed, for
 * gp_temp_remove_live: kept without allocating (nothing to fail, nothing
 * a signal handler could see half-made); written only by the thread that
 * writes outputs.  A name too long for a slot is not cleaned on a
 * signal; a later run's remove_stale finds it. */
#define MAX_LIVE 64
static char live[MAX_LIVE][1024];

static void live_add(const char *tmp)
{
    if (strlen(tmp) >= sizeof live[0])
        return;
    for (size_t i = 0; i < MAX_LIVE; i++)
        if (!live[i][0]) {
            memcpy(live[i], tmp, strlen(tmp) + 1);
            return;
        }
}

static void live_drop(const char *tmp)
{
    for (size_t i = 0; i < MAX_LIVE; i++)
        if (live[i][0] && strcmp(live[i], tmp) == 0) {
            live[i][0] = '\0';
            return;
        }
}

void gp_temp_remove_live(void)
{
    static char dir[4096];

    /* only async-signal-safe calls: unlink, rmdir, and copying by hand */
    for (size_t i = 0; i < MAX_LIVE; i++) {
        const char *p = live[i];
        if (!p[0])
            continue;
        unlink(p);
        size_t n = 0, slash = 0;
        for (; p[n] && n + 1 < sizeof dir; n++) {
            dir[n] = p[n];
            if (p[n] == '/')
                slash = n;
        }
        if (slash > 0) {
            dir[slash] = '\0';
            rmdir(dir);
        }
    }
}

/* Holds off SIGINT, SIGTERM and SIGHUP while a temporary is made or
 * removed, so that a stop always finds the registry and the folders
 * agreeing (a folder made but not yet listed would be left behind);
 * *old is the mask to give back to stops_allowed. */
static void stops_held(sigset_t *old)
{
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stops, old);
}

static void stops_allowed(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Removes the temporary folders in dir of runs that stopped without
 * removing them (killed, or the machine went down): ".gpuplan-tmp-PID-"
 * folders whose process is gone, with the file in each. */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096 + 264], file[4096 + 528];

    if (!d)
        return;
    while ((e = readdir(d))) {
        long pid;
        if (sscanf(e->d_name, ".gpuplan-tmp-%ld-", &pid) != 1 || pid <= 0 ||
            pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
            errno != ESRCH)
            continue;
        int k = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (k < 0 || (size_t)k >= sizeof path)
            continue;
        DIR *inner = opendir(path);
        struct dirent *f;
        while (inner && (f = readdir(inner)))
            if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0) {
                k = snprintf(file, sizeof file, "%s/%s", path, f->d_name);
                if (k > 0 && (size_t)k < sizeof file)
                    unlink(file);
            }
        if (inner)
            closedir(inner);
        rmdir(path);
    }
    closedir(d);
}

gp_status gp_temp_name(const char *path, const char *suffix, char **tmp,
                       gp_error *err)
{
    char dir[4096];
    const char *base = strrchr(path, '/');

    *tmp = NULL;
    if (gp_path_is_special(path)) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s", t && *t ? t : "/tmp");
    } else {
        folder_of(path, dir, sizeof dir);
    }
    base = base ? base + 1 : path;
    size_t n = strlen(dir) + strlen(base) + strlen(suffix) + 64;
    if (!(*tmp = gp_malloc(n))) {
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    /* a folder of its own, made new under a random name and closed to
     * everybody else: nothing in it can be planted, swapped or linked; its
     * name carries the process, so that a later run in the same folder
     * removes it if this one is stopped before it can */
    remove_stale(dir);
    snprintf(*tmp, n, "%s/.gpuplan-tmp-%ld-XXXXXX", dir, (long)getpid());
    sigset_t old;
    stops_held(&old);
    int fd = -1;
    if (mkdtemp(*tmp)) {
        size_t used = strlen(*tmp);
        snprintf(*tmp + used, n - used, "/%s%s", base, suffix);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
    }
    int e = errno;
    if (fd >= 0) {
        close(fd);
        live_add(*tmp);
    }
    stops_allowed(&old);
    if (fd < 0) {
        gp_temp_remove(*tmp);
        gp_free(*tmp);
        *tmp = NULL;
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s", strerror(e));
        return GP_ERR_IO;
    }
    return GP_OK;
}

void gp_temp_remove(const char *tmp)
{
    char dir[4096];

    if (!tmp)
        return;
    folder_of(tmp, dir, sizeof dir);
    const char *name = strrchr(dir, '/');
    name = name ? name + 1 : dir;
    sigset_t old;
    stops_held(&old);
    live_drop(tmp);
    remove(tmp); /* gone already after a rename */
    /* only the temporary's own folder, and only once it is empty */
    if (strncmp(name, ".gpuplan-tmp-", 13) == 0)
        rmdir(dir);
    stops_allowed(&old);
}

/* Copies file `from` into `to`, which is opened for writing as it is (a
 * device or a pipe is written into, not replaced).  Returns 0 or errno. */
static int copy_into(const char *from, const char *to)
{
    char buf[65536];
    FILE *in = fopen(from, "rb"), *out;
    int e = 0;
    size_t n;

    if (!in)
        return errno;
    if (!(out = fopen(to, "wb"))) {
        e = errno;
        fclose(in);
        return e;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            e = errno ? errno : EIO;
            break;
        }
    if (!e && ferror(in))
        e = errno ? errno : EIO;
    fclose(in);
    if (fclose(out) != 0 && !e)
        e = errno ? errno : EIO;
    return e;
}

gp_status gp_move_into_place(const char *tmp, const char *path, gp_error *err)
{
    if (gp_path_is_special(path)) {
        int e = copy_into(tmp, path);
        if (e) {
            gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                         strerror(e));
            return GP_ERR_IO;
        }
        gp_temp_remove(tmp);
        return GP_OK;
    }
    if (rename(tmp, path) != 0) {
        gp_error_set(err, path, 0, 0, NULL, "cannot rename into place: %s",
                     strerror(errno));
        return GP_ERR_IO;
    }
    gp_temp_remove(tmp); /* its folder */
    return GP_OK;
}

/* Writes `path`'s temporary file (gp_temp_name) with the callback; sets
 * *tmp to its name (gp_malloc'd) even when the write failed, NULL when
 * there is no file to remove. */
static gp_status write_temporary(const char *path,
                                 gp_status (*write)(FILE *f, void *ctx),
                                 void *ctx, char **tmp, gp_error *err)
{
    FILE *f;
    gp_status st;

    if ((st = gp_temp_name(path, "", tmp, err)) != GP_OK)
        return st;
    f = fopen(*tmp, "wb");
    if (!f) {
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        gp_temp_remove(*tmp);
        gp_free(*tmp);
        *tmp = NULL;
        return GP_ERR_IO;
    }
    st = write(f, ctx);
    /* a full disk or a file size limit: the reason, at the file it is
     * about (a writer that said why without knowing the file gets it) */
    int e = st == GP_ERR_IO ? errno : 0;
    if (fflush(f) != 0) {
        e = errno;
        st = st == GP_OK ? GP_ERR_IO : st;
    }
    if (fclose(f) != 0 && st == GP_OK) {
        e = errno;
        st = GP_ERR_IO;
    }
    if (st == GP_ERR_IO && err && err->message[0] && !err->source[0])
        snprintf(err->source, sizeof err->source, "%s", path);
    else if (st == GP_ERR_IO)
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(e ? e : EIO));
    return st;
}

gp_status gp_write_atomic(const char *path,
                          gp_status (*write)(FILE *f, void *ctx), void *ctx,
                          gp_error *err)
{
    char *tmp;
    gp_status st = write_temporary(path, write, ctx, &tmp, err);

    if (!tmp)
        return st;
    return gp_rename_into_place(tmp, path, st, err);
}

gp_status gp_file_set_mkdir(gp_file_set *set, const char *dir, gp_error *err)
{
    if (mkdir(dir, 0777) == 0) {
        if (!set->made_dir)
            set->made_dir = gp_strdup(dir); /* NULL: the folder stays */
        return GP_OK;
    }
    if (errno == EEXIST)
        return GP_OK;
    gp_error_set(err, dir, 0, 0, NULL, "cannot create folder: %s",
                 strerror(errno));
    return GP_ERR_IO;
}

gp_status gp_file_set_write(gp_file_set *set, const char *path,
                            gp_status (*write)(FILE *f, void *ctx), void *ctx,
                            gp_error *err)
{
    char *tmp, *name;
    gp_status st;

    if (gp_grow((void **)&set->files, &set->cap, set->n + 1,
                sizeof *set->files) != GP_OK ||
        !(name = gp_strdup(path))) {
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    st = write_temporary(path, write, ctx, &tmp, err);
    if (st != GP_OK) {
        gp_temp_remove(tmp);
        gp_free(tmp);
        gp_free(name);
        return st;
    }
    set->files[set->n].tmp = tmp;
    set->files[set->n].path = name;
    set->n++;
    return GP_OK;
}

gp_status gp_file_set_add(gp_file_set *set, char *tmp, const char *path,
                          gp_error *err)
{
    char *name = gp_strdup(path);
    if (!name || gp_grow((void **)&set->files, &set->cap, set->n + 1,
                         sizeof *set->files) != GP_OK) {
        gp_free(name);
        gp_temp_remove(tmp);
        gp_free(tmp);
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    set->files[set->n].tmp = tmp;
    set->files[set->n].path = name;
    set->n++;
    return GP_OK;
}

gp_status gp_file_set_commit(gp_file_set *set, gp_error *err)
{
    struct stat sb;
    size_t i;
    gp_status st = GP_OK;

    /* a folder in a file's place is the failure a rename would meet;
     * found first, nothing is renamed */
    for (i = 0; i < set->n; i++) {
        if (stat(set->files[i].path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            gp_error_set(err, set->files[i].path, 0, 0, NULL,
                         "cannot rename into place: %s", strerror(EISDIR));
            gp_file_set_abort(set);
            return GP_ERR_IO;
        }
    }
    for (i = 0; i < set->n; i++) {
        st = gp_move_into_place(set->files[i].tmp, set->files[i].path, err);
        if (st != GP_OK)
            break;
        gp_free(set->files[i].tmp);
        gp_free(set->files[i].path);
    }
    if (st == GP_OK) {
        gp_free(set->made_dir); /* the folder is the set's result now */
        set->made_dir = NULL;
    }
    /* what is left (from the failed rename on) is removed */
    if (i < set->n)
        memmove(set->files, set->files + i,
                (set->n - i) * sizeof *set->files);
    set->n -= i;
    gp_file_set_abort(set);
    return st;
}

void gp_file_set_abort(gp_file_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        gp_temp_remove(set->files[i].tmp);
        gp_free(set->files[i].tmp);
        gp_free(set->files[i].path);
    }
    gp_free(set->files);
    if (set->made_dir) {
        rmdir(set->made_dir); /* fails, as it should, unless empty */
        gp_free(set->made_dir);
    }
    memset(set, 0, sizeof *set);
}

gp_status gp_rename_into_place(char *tmp, const char *path, gp_status st,
                               gp_error *err)
{
    if (st == GP_OK)
        st = gp_move_into_place(tmp, path, err);
    if (st != GP_OK)
        gp_temp_remove(tmp);
    gp_free(tmp);
    return st;
}
