/* part_file.c — part files of `--buckets I/N` and their checks (part.h).
 *
 * Layout: header | options | input path | body.  The header is written last, over
 * a placeholder, once the body's size and hash are known; every byte of the file
 * is covered by a size and a hash, so a part cut, extended or altered anywhere is
 * refused when opened, before any output is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "repview/common.h"
#include "repview/part.h"
#include "base/internal.h"

/* 04: pairs parts hold their threads' sorted runs with a directory (pairs_buckets.c) */
#define PART_MAGIC "RVPART04"
#define PART_MAGIC_STEM "RVPART" /* two digits follow: the format */

typedef struct {
    char magic[8];
    uint32_t kind, alpha, slice, n_slices;
    uint64_t items;                     /* what the body holds */
    uint64_t opts_bytes, path_bytes, body_bytes;
    uint64_t nf, glen;                  /* the input: forward text and raw lengths, */
    uint64_t src_size;                  /* its file's size and modification time */
    int64_t src_mtime_ns;
    uint64_t text_hash;                 /* XXH3 of the forward text: an edit that keeps
                                           the size and mtime is caught too */
    uint64_t body_hash;                 /* XXH3 of the body */
    uint64_t check;                     /* XXH3 of the fields above, options and path */
} part_header_t;

enum { HASH_CHUNK = 1 << 20 };

const char *rv_part_kind_name(int kind)
{
    static const char *const name[] = {"unknown", "pairs", "lr", "tandem", "find"};
    return kind >= RV_PART_PAIRS && kind <= RV_PART_FIND ? name[kind] : name[0];
}

static uint64_t text_hash(const rv_seq_t *s)
{
    return XXH3_64bits(s->text, (size_t)rv_seq_fwd_len(s));
}

static uint64_t header_check(const part_header_t *h, const void *opts, const char *path)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, h, offsetof(part_header_t, check));
    XXH3_64bits_update(&st, opts, (size_t)h->opts_bytes);
    XXH3_64bits_update(&st, path, (size_t)h->path_bytes);
    return XXH3_64bits_digest(&st);
}

/* XXH3 of bytes [off, off + len) of fd: 0, or -1 when they do not read. */
static int hash_range(int fd, uint64_t off, uint64_t len, uint64_t *hash)
{
    unsigned char *buf = malloc(HASH_CHUNK);
    if (!buf) return -1;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    int rc = 0;
    while (rc == 0 && len) {
        size_t want = len < HASH_CHUNK ? (size_t)len : HASH_CHUNK;
        ssize_t r = pread(fd, buf, want, (off_t)off);
        if (r <= 0) rc = -1;
        else XXH3_64bits_update(&st, buf, (size_t)r), off += (uint64_t)r, len -= (uint64_t)r;
    }
    free(buf);
    *hash = XXH3_64bits_digest(&st);
    return rc;
}

/* ---- writing ---------------------------------------------------------------------- */

struct rv_part_writer {
    FILE *f;
    int unnamed; /* f has no name yet (linked as tmp at the end) or none ever (path NULL) */
    char *path, *tmp, *input;
    void *opts;
    part_header_t h;
    char buf[1 << 20];
};

static void writer_free(rv_part_writer_t *w)
{
    free(w->path), free(w->tmp), free(w->input), free(w->opts), free(w);
}

/* The file the part is written to (w+b: read back for the body hash), with no
 * name while it is written where the file system allows it. */
static int writer_open(rv_part_writer_t *w)
{
    int fd = -1;
    if (!w->path) {
        fd = rv_temp_fd(NULL);
        if (fd < 0) return -1;
    } else {
        char *dir = strdup(w->path);
        if (!dir) return rv_error(w->path, "out of memory");
        fd = rv_temp_unnamed(dirname(dir));
        free(dir);
    }
    if (fd >= 0) {
        w->unnamed = 1;
        if ((w->f = fdopen(fd, "w+b"))) return 0;
        close(fd);
    } else {
        w->f = fopen(w->tmp, "w+b");
    }
    return w->f ? 0 : rv_error(w->path ? w->path : "part", "cannot create: %s", strerror(errno));
}

rv_part_writer_t *rv_part_writer_begin(const char *path, rv_part_kind_t kind, uint64_t slice, uint64_t n_slices,
                                       const rv_seq_t *s, const void *opts, size_t opts_bytes)
{
    if (n_slices < 1 || slice >= n_slices || n_slices > UINT32_MAX) {
        rv_error("part", "slice %llu of %llu does not exist", (unsigned long long)slice + 1,
                 (unsigned long long)n_slices);
        return NULL;
    }
    struct stat st;
    if (path && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* never rename over a device or FIFO */
        rv_error(path, "not a regular file: a part file needs one");
        return NULL;
    }
    rv_part_writer_t *w = calloc(1, sizeof *w);
    size_t plen = path ? strlen(path) : 0;
    if (w) {
        /* a part without a name (a transfer) never has one: no temporary name */
        w->path = path ? strdup(path) : NULL, w->tmp = path ? malloc(plen + 32) : NULL;
        w->opts = malloc(opts_bytes ? opts_bytes : 1);
        /* the input's absolute path: merge may run elsewhere */
        w->input = s->path && strcmp(s->path, "-") ? realpath(s->path, NULL) : NULL;
        if (!w->input) w->input = strdup(s->path ? s->path : "-");
    }
    if (!w || (path && (!w->path || !w->tmp)) || !w->opts || !w->input) {
        if (w) writer_free(w);
        rv_error(path ? path : "part", "out of memory");
        return NULL;
    }
    memcpy(w->opts, opts, opts_bytes);
    part_header_t *h = &w->h;
    memcpy(h->magic, PART_MAGIC, 8);
    h->kind = (uint32_t)kind, h->alpha = (uint32_t)s->alpha;
    h->slice = (uint32_t)slice, h->n_slices = (uint32_t)n_slices;
    h->opts_bytes = opts_bytes, h->path_bytes = strlen(w->input);
    h->nf = rv_seq_fwd_len(s), h->glen = s->glen;
    h->src_size = s->src_size, h->src_mtime_ns = s->src_mtime_ns;
    h->text_hash = path ? text_hash(s) : 0; /* a transfer: rank 0 has the same text */
    if (path) snprintf(w->tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    if (writer_open(w) < 0) {
        writer_free(w);
        return NULL;
    }
    setvbuf(w->f, w->buf, _IOFBF, sizeof w->buf);
    /* a placeholder header (no magic: an unfinished file is never a part) */
    part_header_t blank;
    memset(&blank, 0, sizeof blank);
    if (fwrite(&blank, sizeof blank, 1, w->f) != 1 || fwrite(w->opts, 1, opts_bytes, w->f) != opts_bytes ||
        fwrite(w->input, 1, h->path_bytes, w->f) != h->path_bytes) {
        rv_error(path ? path : "part", "cannot write: %s", strerror(errno));
        rv_part_writer_end(w, 0, 0, -1);
        return NULL;
    }
    return w;
}

FILE *rv_part_writer_file(rv_part_writer_t *w) { return w->f; }

/* The header written over the placeholder, once the body is complete: rc. */
static int writer_finish(rv_part_writer_t *w, uint64_t items, int durable, int rc)
{
    part_header_t *h = &w->h;
    const char *name = w->path ? w->path : "part";
    const uint64_t body = sizeof *h + h->opts_bytes + h->path_bytes;
    if (rc == 0 && (fflush(w->f) != 0 || ferror(w->f))) rc = rv_error(name, "cannot write: %s", strerror(errno));
    off_t end = rc == 0 ? lseek(fileno(w->f), 0, SEEK_END) : -1;
    if (rc == 0 && (end < 0 || (uint64_t)end < body)) rc = rv_error(name, "cannot write: %s", strerror(errno));
    if (rc == 0) {
        h->items = items;
        h->body_bytes = (uint64_t)end - body;
        if (w->path && hash_range(fileno(w->f), body, h->body_bytes, &h->body_hash) < 0) /* a transfer: none */
            rc = rv_error(name, "cannot read back: %s", strerror(errno));
        h->check = header_check(h, w->opts, w->input);
    }
    if (rc == 0 && pwrite(fileno(w->f), h, sizeof *h, 0) != (ssize_t)sizeof *h)
        rc = rv_error(name, "cannot write: %s", strerror(errno));
    if (rc == 0 && durable && fsync(fileno(w->f)) != 0) rc = rv_error(name, "cannot write: %s", strerror(errno));
    return rc;
}

int rv_part_writer_end(rv_part_writer_t *w, uint64_t items, int durable, int rc)
{
    rc = writer_finish(w, items, durable, rc);
    int named = !w->unnamed;
    if (rc == 0 && w->path && w->unnamed) { /* its first name: the temporary one (this
                                             * process's: one left by a dead namesake goes), then path */
        unlink(w->tmp);
        if (rv_temp_link(fileno(w->f), w->tmp) == 0) named = 1;
        else rc = rv_error(w->path, "cannot create: %s", strerror(errno));
    }
    if (fclose(w->f) != 0 && rc == 0) rc = rv_error(w->path ? w->path : "part", "cannot write: %s", strerror(errno));
    if (rc == 0 && !w->path) rc = rv_error("part", "a part without a name ends with rv_part_writer_end_fd");
    if (rc == 0 && rename(w->tmp, w->path) != 0) rc = rv_error(w->path, "cannot rename into place: %s", strerror(errno));
    if (rc < 0 && named && w->path) unlink(w->tmp);
    writer_free(w);
    return rc;
}

int rv_part_writer_end_fd(rv_part_writer_t *w, uint64_t items, int rc)
{
    int fd = -1;
    rc = writer_finish(w, items, 0, rc);
    if (rc == 0 && w->path) rc = rv_error("part", "a part with a name ends with rv_part_writer_end");
    if (rc == 0 && (fd = fcntl(fileno(w->f), F_DUPFD_CLOEXEC, 0)) < 0)
        rc = rv_error("part", "cannot hand the part on: %s", strerror(errno));
    if (fclose(w->f) != 0 && rc == 0) rc = rv_error("part", "cannot write: %s", strerror(errno));
    if (rc < 0 && fd >= 0) close(fd), fd = -1;
    if (w->path && !w->unnamed) unlink(w->tmp);
    writer_free(w);
    return rc < 0 ? -1 : fd;
}

uint64_t *rv_part_share(const uint64_t *order, const uint64_t *size, uint64_t n, uint64_t slice, uint64_t n_slices,
                        uint64_t *n_mine)
{
    uint64_t *mine = malloc((n ? n : 1) * sizeof *mine), *load = calloc(n_slices ? n_slices : 1, sizeof *load), k = 0;
    if (!mine || !load) {
        free(mine), free(load);
        rv_error("part", "out of memory");
        return NULL;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t best = 0;
        for (uint64_t q = 1; q < n_slices; q++)
            if (load[q] < load[best]) best = q;
        load[best] += size[order[i]];
        if (best == slice) mine[k++] = order[i];
    }
    free(load);
    *n_mine = k;
    return mine;
}

/* ---- reading ---------------------------------------------------------------------- */

struct rv_part {
    int fd;
    part_header_t h;
    char *path, *input;
    void *opts;
    FILE *body;
};

static int open_fail(rv_part_t *p, const char *path, const char *why)
{
    int rc = why ? rv_error(path, "%s", why)
                 : rv_error(path, "not a complete repview part file (interrupted, truncated or another file)");
    rv_part_close(p);
    return rc;
}

static int part_open(const char *path, const char *name, int transfer, rv_part_t **out)
{
    *out = NULL;
    rv_part_t *p = calloc(1, sizeof *p);
    if (!p) return rv_error(name, "out of memory");
    if ((p->fd = open(path, O_RDONLY | O_NONBLOCK)) < 0) { /* a FIFO must not block: it is refused */
        free(p);
        return rv_error(name, "%s", strerror(errno));
    }
    fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) & ~O_NONBLOCK);
    if (!(p->path = strdup(name))) return open_fail(p, name, "out of memory");
    struct stat st;
    part_header_t *h = &p->h;
    if (fstat(p->fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < sizeof *h ||
        pread(p->fd, h, sizeof *h, 0) != (ssize_t)sizeof *h)
        return open_fail(p, name, NULL);
    if (!memcmp(h->magic, PART_MAGIC_STEM, 6) && memcmp(h->magic, PART_MAGIC, 8)) /* another format */
        return open_fail(p, name, "a part file of another repview version: write the parts again with this one");
    if (memcmp(h->magic, PART_MAGIC, 8) ||
        h->opts_bytes > (1u << 30) || h->path_bytes > 65536 ||
        (uint64_t)st.st_size - sizeof *h < h->opts_bytes + h->path_bytes ||
        (uint64_t)st.st_size - sizeof *h - h->opts_bytes - h->path_bytes != h->body_bytes)
        return open_fail(p, name, NULL);
    p->opts = malloc(h->opts_bytes ? h->opts_bytes : 1);
    p->input = calloc(h->path_bytes + 1, 1);
    if (!p->opts || !p->input) return open_fail(p, name, "out of memory");
    const uint64_t body = sizeof *h + h->opts_bytes + h->path_bytes;
    uint64_t hash;
    if (pread(p->fd, p->opts, h->opts_bytes, sizeof *h) != (ssize_t)h->opts_bytes ||
        pread(p->fd, p->input, h->path_bytes, (off_t)(sizeof *h + h->opts_bytes)) != (ssize_t)h->path_bytes ||
        h->check != header_check(h, p->opts, p->input) ||
        (!transfer && (hash_range(p->fd, body, h->body_bytes, &hash) < 0 || hash != h->body_hash)))
        return open_fail(p, name, NULL);
    *out = p;
    return 0;
}

int rv_part_open(const char *path, rv_part_t **out) { return part_open(path, path, 0, out); }
int rv_part_open_transfer(const char *path, const char *name, rv_part_t **out)
{
    return part_open(path, name, 1, out);
}

void rv_part_close(rv_part_t *p)
{
    if (!p) return;
    if (p->body) fclose(p->body);
    if (p->fd >= 0) close(p->fd);
    free(p->path), free(p->input), free(p->opts), free(p);
}

int rv_part_kind(const rv_part_t *p) { return (int)p->h.kind; }
const char *rv_part_path(const rv_part_t *p) { return p->path; }
const char *rv_part_input(const rv_part_t *p) { return p->input; }
rv_alpha_t rv_part_alpha(const rv_part_t *p) { return (rv_alpha_t)p->h.alpha; }
uint64_t rv_part_input_len(const rv_part_t *p) { return p->h.nf; }
uint64_t rv_part_items(const rv_part_t *p) { return p->h.items; }
uint64_t rv_part_body_bytes(const rv_part_t *p) { return p->h.body_bytes; }

void rv_part_slice(const rv_part_t *p, uint64_t *slice, uint64_t *n_slices)
{
    *slice = p->h.slice;
    *n_slices = p->h.n_slices;
}

const void *rv_part_opts(const rv_part_t *p, size_t *bytes)
{
    *bytes = (size_t)p->h.opts_bytes;
    return p->opts;
}

FILE *rv_part_body(rv_part_t *p)
{
    if (p->body) fclose(p->body);
    int fd = dup(p->fd);
    p->body = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!p->body) {
        if (fd >= 0) close(fd);
        rv_error(p->path, "%s", strerror(errno));
        return NULL;
    }
    if (fseeko(p->body, (off_t)(sizeof p->h + p->h.opts_bytes + p->h.path_bytes), SEEK_SET) != 0) {
        rv_error(p->path, "%s", strerror(errno));
        return NULL;
    }
    return p->body;
}

int rv_part_fd(const rv_part_t *p) { return p->fd; }
uint64_t rv_part_body_offset(const rv_part_t *p) { return sizeof p->h + p->h.opts_bytes + p->h.path_bytes; }

int64_t rv_part_read(const rv_part_t *p, void *buf, uint64_t len, uint64_t off)
{
    if (off >= p->h.body_bytes) return 0;
    if (len > p->h.body_bytes - off) len = p->h.body_bytes - off;
    ssize_t r = pread(p->fd, buf, (size_t)len, (off_t)(sizeof p->h + p->h.opts_bytes + p->h.path_bytes + off));
    return r < 0 ? -1 : (int64_t)r;
}

/* ---- a set of parts ------------------------------------------------------------------ */

/* The same input, options and N (kind and slice aside). */
static int same_run(const rv_part_t *a, const rv_part_t *b)
{
    const part_header_t *x = &a->h, *y = &b->h;
    return x->n_slices == y->n_slices && x->alpha == y->alpha && x->nf == y->nf && x->glen == y->glen &&
           x->src_size == y->src_size && x->src_mtime_ns == y->src_mtime_ns && x->text_hash == y->text_hash &&
           x->opts_bytes == y->opts_bytes && !memcmp(a->opts, b->opts, (size_t)x->opts_bytes);
}

int rv_parts_check(rv_part_t *const *parts, size_t n, const rv_seq_t *s)
{
    if (!n) return rv_error("merge", "no part files");
    const rv_part_t *first = parts[0];
    const uint64_t want = first->h.n_slices;
    char *seen = calloc(want ? want : 1, 1);
    if (!seen) return rv_error("merge", "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const rv_part_t *p = parts[i];
        if (p->h.kind != first->h.kind)
            rc = rv_error("merge", "%s is a part of '%s', %s one of '%s'", p->path, rv_part_kind_name((int)p->h.kind),
                          first->path, rv_part_kind_name((int)first->h.kind));
        else if (p->h.n_slices != want)
            rc = rv_error("merge", "%s is slice %u of %u, %s one of %llu", p->path, p->h.slice + 1, p->h.n_slices,
                          first->path, (unsigned long long)want);
        else if (!same_run(p, first))
            rc = rv_error("merge", "%s comes from another run than %s (input or options differ; every slice needs the same, -t and --mem-budget too)", p->path, first->path);
        else if (p->h.slice >= want || seen[p->h.slice]++)
            rc = rv_error("merge", "slice %u of %llu given twice (%s)", p->h.slice + 1, (unsigned long long)want, p->path);
    }
    for (uint64_t k = 0; rc == 0 && k < want; k++)
        if (!seen[k]) rc = rv_error("merge", "slice %llu of %llu is missing", (unsigned long long)k + 1, (unsigned long long)want);
    const part_header_t *h = &first->h;
    if (rc == 0 && s && (h->nf != rv_seq_fwd_len(s) || h->glen != s->glen || h->src_size != s->src_size ||
                         h->src_mtime_ns != s->src_mtime_ns || h->text_hash != text_hash(s)))
        rc = rv_error("merge", "%s changed since the parts were written", first->input);
    free(seen);
    return rc;
}

rv_seq_t *rv_parts_input(rv_part_t *const *parts, int threads)
{
    return rv_seq_load_threads(parts[0]->input, rv_part_alpha(parts[0]), threads);
}
