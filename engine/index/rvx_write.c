/* rvx_write.c — writing a .rvx file (layout: rvx_format.h, design: rvx.c).
 *
 * Sections are handed over one by one (rv_rvx_writer_add) while the caller goes on
 * computing; a few writer threads take the queued sections block by block, hash each
 * block while it is hot in cache, pwrite() it at its precomputed offset and start its
 * writeback at once (sync_file_range), so that the disk works while the CPU copies.
 * rv_rvx_writer_finish() writes the block hashes, the table and the header, then
 * renames: the final path only ever holds a complete file.  There is no fsync: the
 * file is a cache of its FASTA with every block hashed, so one torn by a power cut
 * fails verification and is rebuilt, and a build does not wait for the disk. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/index.h"
#include "base/internal.h"
#include "rvx_compact.h"
#include "rvx_format.h"

enum { MAX_WRITERS = 8 };

typedef struct {
    uint32_t id;
    uint32_t reads;   /* the section whose memory writing it reads (rv_rvx_writer_release) */
    const void *ptr;
    const uint64_t *sa; /* SA40: made from this 8-byte SA block by block, ptr unused */
    uint64_t bytes, offset, nblocks;
    uint64_t written; /* blocks in the file (rv_rvx_writer_release waits for all) */
    uint64_t *hash; /* nblocks hashes, filled by the writer threads */
} wsec_t;

struct rv_rvx_writer {
    char *path, *tmp;
    int fd;
    uint64_t block, end; /* block size; first free offset */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t tid[MAX_WRITERS];
    int nthreads;
    wsec_t sec[RVX_TABLE_CAP];
    int ns, cur;       /* sections queued; the one being handed out */
    uint64_t cur_blk;  /* its next block */
    int closing, stop; /* finish: drain the queue; abort: drop it */
    int err;           /* an errno of a failed write, or 0 */
    uint64_t added;    /* bit per section id */
    void *records;     /* packed record table (owned) */
    void *compact[3];  /* the file forms of the text, the sequence and the runs (owned) */
    pthread_t packer;  /* makes the first two while the build goes on (packer_main) */
    int packing, packed; /* packer started; packer joined */
    const rv_seq_t *pack_seq;
    uint64_t packed_bytes[2];
    rvx_header_t meta; /* the header fields that describe the index */
    int have_meta;
    int hold_fd;       /* write end of the pipe that keeps the replaced file's holder, or -1 */
    uint64_t meta_n;   /* the SA40 section's n (set before it is queued) */
};

/* Write len bytes at off: 0, or the errno. */
static int write_at(int fd, const char *p, uint64_t len, uint64_t off)
{
    for (uint64_t done = 0; done < len;) {
        ssize_t k = pwrite(fd, p + done, len - done, (off_t)(off + done));
        if (k < 0 && errno != EINTR) return errno;
        if (k == 0) return EIO; /* no progress: never spin */
        if (k > 0) done += (uint64_t)k;
    }
    return 0;
}

/* SA40 is made in pieces of this many bytes, each hashed and written while in cache:
 * a writer thread holds one piece, not one block. */
enum { SA40_PIECE = 1 << 20 };

/* Make block b (len bytes at `at`) of the SA40 section s, hash it and write it: 0,
 * or the errno.  *buf: the thread's piece buffer, allocated on first use. */
static int write_sa40_block(rv_rvx_writer_t *w, wsec_t *s, uint64_t b, uint64_t at, uint64_t len, uint8_t **buf)
{
    XXH3_state_t *st = XXH3_createState();
    if (!st || (!*buf && !(*buf = malloc(SA40_PIECE)))) { XXH3_freeState(st); return ENOMEM; }
    XXH3_64bits_reset_withSeed(st, rvx_block_seed(s->id, b));
    int err = 0;
    for (uint64_t q = 0; q < len && !err; q += SA40_PIECE) {
        const uint64_t pl = len - q < SA40_PIECE ? len - q : SA40_PIECE;
        rvx_sa40_pack_range(s->sa, w->meta_n, at + q, pl, *buf);
        XXH3_64bits_update(st, *buf, (size_t)pl);
        err = write_at(w->fd, (const char *)*buf, pl, s->offset + at + q);
    }
    s->hash[b] = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return err;
}

/* Writer thread: take the next block, hash it, write it, start its writeback. */
static void *writer_main(void *arg)
{
    rv_rvx_writer_t *w = arg;
    uint8_t *buf = NULL; /* the piece of a section made here (SA40) */
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        while (w->cur < w->ns && w->cur_blk >= w->sec[w->cur].nblocks) { w->cur++; w->cur_blk = 0; }
        if (w->cur >= w->ns) {
            if (w->closing) break;
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        wsec_t *s = &w->sec[w->cur];
        uint64_t b = w->cur_blk++, at = b * w->block;
        pthread_mutex_unlock(&w->mu);
        uint64_t len = s->bytes - at < w->block ? s->bytes - at : w->block;
        int err;
        if (s->sa) {
            err = write_sa40_block(w, s, b, at, len, &buf);
        } else {
            const char *p = (const char *)s->ptr + at;
            s->hash[b] = rvx_block_hash(p, len, s->id, b);
            err = write_at(w->fd, p, len, s->offset + at);
        }
        if (!err) sync_file_range(w->fd, (off_t)(s->offset + at), (off_t)len, SYNC_FILE_RANGE_WRITE);
        pthread_mutex_lock(&w->mu);
        if (err && !w->err) w->err = err;
        if (++s->written == s->nblocks) pthread_cond_broadcast(&w->cv); /* rv_rvx_writer_release */
    }
    pthread_mutex_unlock(&w->mu);
    free(buf);
    return NULL;
}

static uint64_t block_size(void)
{
    /* test hook: small blocks give small inputs many blocks per section */
    const char *e = getenv("REPVIEW_RVX_BLOCK");
    uint64_t b = e ? strtoull(e, NULL, 10) : 0;
    return b >= 4096 && b % 4096 == 0 ? b : RVX_BLOCK_DEFAULT;
}

/* Replacing a file frees its blocks and drops its cached pages inside rename(): 0.6 s
 * for a 1.7 GB index, a third of a GPU build.  So a big file about to be replaced is
 * held open by a small process forked now, while this one is small and has no other
 * thread: it waits for the write end of a pipe to close (at the end of the write, or
 * when this process dies) and then exits, and the last close frees the file, after
 * the command has returned.  The file stays linked until the rename, so nothing is
 * lost when the build fails.  Returns the pipe's write end, or -1 (nothing held). */
#define HOLD_MIN_BYTES (64ull << 20)

/* Close every descriptor but a and b (async-signal-safe: for a forked child). */
static void close_all_but(int a, int b)
{
    const int lo = a < b ? a : b, hi = a < b ? b : a;
#ifdef SYS_close_range
    if ((lo == 0 || syscall(SYS_close_range, 0u, (unsigned)lo - 1, 0u) == 0) &&
        (hi == lo + 1 || syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0u) == 0) &&
        syscall(SYS_close_range, (unsigned)hi + 1, ~0u, 0u) == 0)
        return;
#endif
    for (int fd = 0; fd < 65536; fd++) /* a kernel without close_range */
        if (fd != a && fd != b) close(fd);
}

static int hold_replaced(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size < HOLD_MIN_BYTES)
        return -1;
    int old = open(path, O_RDONLY | O_CLOEXEC), pfd[2];
    if (old < 0) return -1;
    if (pipe2(pfd, O_CLOEXEC) != 0) { close(old); return -1; }
    pid_t pid = fork();
    if (pid == 0) { /* async-signal-safe calls only from here */
        if (fork() != 0) _exit(0); /* the holder is reparented: nobody has to reap it */
        close_all_but(old, pfd[0]); /* no pipe or terminal of the caller stays open */
        char c;
        while (read(pfd[0], &c, 1) < 0 && errno == EINTR) {}
        _exit(0);
    }
    close(old);
    close(pfd[0]);
    if (pid < 0) { close(pfd[1]); return -1; }
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    return pfd[1];
}

rv_rvx_writer_t *rv_rvx_writer_open(const char *path, int threads)
{
    struct stat st; /* the rename at the end must never replace a device or FIFO */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        rv_error(path, "not a regular file: an index file needs one");
        return NULL;
    }
    rv_rvx_sweep_leftovers(path);
    static _Atomic unsigned serial;
    rv_rvx_writer_t *w = calloc(1, sizeof *w);
    size_t pl = strlen(path);
    if (!w || !(w->path = strdup(path)) || !(w->tmp = malloc(pl + 48))) {
        if (w) free(w->path);
        free(w);
        rv_error(path, "out of memory");
        return NULL;
    }
    for (int tries = 0; tries < 8; tries++) { /* locked, so no sweeper takes it (leftovers.c) */
        snprintf(w->tmp, pl + 48, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&serial, 1));
        w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (w->fd < 0 || rv_rvx_claim(w->fd) == 0) break;
        close(w->fd);
        w->fd = -1;
        errno = EAGAIN;
    }
    if (w->fd < 0) {
        rv_error(path, "cannot write: %s", strerror(errno));
        free(w->tmp); free(w->path); free(w);
        return NULL;
    }
    w->hold_fd = hold_replaced(path);
    w->block = block_size();
    w->end = RVX_DATA_START;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    int want = threads > 0 ? threads : rv_default_threads();
    want = want > 4 ? 4 : want; /* the disk, not the CPU, sets the pace */
    int rc = 0;
    for (int i = 0; i < want; i++)
        if ((rc = pthread_create(&w->tid[w->nthreads], NULL, writer_main, w)) == 0) w->nthreads++;
    if (!w->nthreads) { rv_rvx_writer_abort(w); rv_thread_failed(rc, "index writer thread"); return NULL; }
    return w;
}

/* A failed add spoils the file: finish then fails too. */
static int add_failed(rv_rvx_writer_t *w, int err, const char *what)
{
    pthread_mutex_lock(&w->mu);
    if (!w->err) w->err = err;
    pthread_mutex_unlock(&w->mu);
    return rv_error(w->path, "%s", what);
}

/* Queue section id; `reserved`: its bit was set by whoever handed it over (the
 * packer thread's sections), else a repeated id is refused. */
static int queue_section(rv_rvx_writer_t *w, int id, const void *ptr, uint64_t bytes, int reserved,
                         const uint64_t *sa)
{
    if (id <= 0 || id >= RV_SEC_MAX) return add_failed(w, EINVAL, "bad or repeated section");
    uint64_t nb = rvx_blocks(bytes, w->block);
    uint64_t *hash = malloc((nb ? nb : 1) * sizeof *hash);
    if (!hash) return add_failed(w, ENOMEM, "out of memory");
    pthread_mutex_lock(&w->mu);
    if ((w->added >> id & 1) && !reserved) {
        pthread_mutex_unlock(&w->mu);
        free(hash);
        return add_failed(w, EINVAL, "bad or repeated section");
    }
    if (w->ns >= (int)RVX_TABLE_CAP) { pthread_mutex_unlock(&w->mu); free(hash); return add_failed(w, EINVAL, "too many sections"); }
    w->sec[w->ns] = (wsec_t){(uint32_t)id, sa ? RV_SEC_SA : (uint32_t)id, ptr, sa, bytes, w->end, nb, 0, hash};
    w->end = (w->end + bytes + RVX_SEC_ALIGN - 1) / RVX_SEC_ALIGN * RVX_SEC_ALIGN;
    w->ns++;
    w->added |= 1ull << id;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 0;
}

int rv_rvx_writer_add(rv_rvx_writer_t *w, int id, const void *ptr, uint64_t bytes)
{
    return queue_section(w, id, ptr, bytes, 0, NULL);
}

static void *pack_records(const rv_seq_t *s, uint64_t *bytes)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < s->n_rec; i++) total += 20 + strlen(s->rec[i].name);
    unsigned char *buf = malloc(total ? total : 1), *q = buf;
    if (!buf) return NULL;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        uint32_t l = (uint32_t)strlen(s->rec[i].name);
        memcpy(q, &s->rec[i].len, 8);
        memcpy(q + 8, &s->rec[i].off, 8);
        memcpy(q + 16, &l, 4);
        memcpy(q + 20, s->rec[i].name, l);
        q += 20 + l;
    }
    *bytes = total;
    return buf;
}

/* Queue section id unless it is already queued or not in mask; required ones are
 * written even when empty. */
static int add_one(rv_rvx_writer_t *w, uint64_t mask, int id, const void *ptr, uint64_t bytes,
                   int required)
{
    if (!(mask >> id & 1) || (w->added >> id & 1) || (!ptr && !required)) return 0;
    return rv_rvx_writer_add(w, id, ptr ? ptr : "", ptr ? bytes : 0);
}

/* Queue the file form `as` of section id (rvx_compact.h) in its place when x has
 * one: the text and the sequence of DNA, the runs.  Where there is none, id stays
 * to be queued as it is. */
static int add_compact(rv_rvx_writer_t *w, uint64_t mask, int id, int as, const rv_index_t *x)
{
    if (!(mask >> id & 1) || (w->added >> id & 1)) return 0;
    const rv_seq_t *s = x->seq;
    uint64_t bytes = 0;
    void *p = NULL;
    int slot = 0;
    if (id == RV_SEC_TEXT) {
        p = rvx_text_pack(s, 0, &bytes);
    } else if (id == RV_SEC_RAW) {
        p = rvx_raw_pack(s, 0, &bytes);
        slot = 1;
    } else if (x->ext[id].ptr) {
        p = rvx_runs_pack(x->ext[id].ptr, x->ext[id].bytes, x->n, x->wide, 0, &bytes);
        slot = 2;
    }
    if (!p) return 0;
    free(w->compact[slot]);
    w->compact[slot] = p;
    if (rv_rvx_writer_add(w, as, p, bytes) < 0) return -1;
    pthread_mutex_lock(&w->mu);
    w->added |= 1ull << id; /* stored in its file form */
    pthread_mutex_unlock(&w->mu);
    return 0;
}

/* The SA of a wide index below 2^40 symbols as SA40 (rvx_compact.h), made by the
 * writer threads from x->sa block by block as they write it: SA counts as written
 * (rv_rvx_writer_release) once every block of SA40 is.  0 when SA is to be queued as
 * it is, 1 when queued, -1 on failure. */
static int add_sa40(rv_rvx_writer_t *w, uint64_t mask, const rv_index_t *x)
{
    if (!(mask >> RV_SEC_SA & 1) || (w->added >> RV_SEC_SA & 1) || !x->wide || !x->sa ||
        x->n >= RVX_SA40_LIMIT)
        return 0;
    w->meta_n = x->n;
    if (queue_section(w, RV_SEC_SA40, NULL, rvx_sa40_bytes(x->n), 0, x->sa) < 0) return -1;
    pthread_mutex_lock(&w->mu);
    w->added |= RV_SEC_BIT(RV_SEC_SA); /* stored in its file form */
    pthread_mutex_unlock(&w->mu);
    return 1;
}

/* The packer thread: the compact text and sequence of DNA, made while the build sorts
 * the suffixes; rv_rvx_writer_finish() queues them last, so that the layout of a
 * file does not depend on which thread was first. */
static void *packer_main(void *arg)
{
    rv_rvx_writer_t *w = arg;
    const rv_seq_t *s = w->pack_seq;
    w->compact[0] = rvx_text_pack(s, 0, &w->packed_bytes[0]);
    w->compact[1] = rvx_raw_pack(s, 0, &w->packed_bytes[1]);
    return NULL;
}

static void join_packer(rv_rvx_writer_t *w)
{
    if (w->packing && !w->packed) pthread_join(w->packer, NULL);
    w->packed = 1;
}

/* Queue what the packer made (the plain text or sequence where it made no form). */
static void queue_packed(rv_rvx_writer_t *w)
{
    const rv_seq_t *s = w->pack_seq;
    join_packer(w);
    w->packing = 0;
    if (w->compact[0]) queue_section(w, RV_SEC_TEXT2, w->compact[0], w->packed_bytes[0], 0, NULL);
    else queue_section(w, RV_SEC_TEXT, s->text, s->n, 1, NULL);
    if (w->compact[1]) queue_section(w, RV_SEC_RAWX, w->compact[1], w->packed_bytes[1], 0, NULL);
    else queue_section(w, RV_SEC_RAW, s->raw, s->glen, 1, NULL);
}

/* Hand the text and the sequence of DNA to the packer thread (1), or 0 when they
 * are queued here (not DNA, or no thread). */
static int start_packer(rv_rvx_writer_t *w, uint64_t mask, const rv_seq_t *s)
{
    const uint64_t both = RV_SEC_BIT(RV_SEC_TEXT) | RV_SEC_BIT(RV_SEC_RAW);
    if ((mask & both) != both || (w->added & both) || w->packing || s->alpha != RV_ALPHA_DNA || !s->raw) return 0;
    w->pack_seq = s;
    if (pthread_create(&w->packer, NULL, packer_main, w) != 0) return 0;
    w->packing = 1;
    pthread_mutex_lock(&w->mu);
    w->added |= both; /* queued by the packer */
    pthread_mutex_unlock(&w->mu);
    return 1;
}

int rv_rvx_writer_add_index(rv_rvx_writer_t *w, const rv_index_t *x, uint64_t mask)
{
    const rv_seq_t *s = x->seq;
    rvx_header_t *h = &w->meta;
    h->wide = (uint32_t)x->wide;
    h->alpha = (uint32_t)s->alpha;
    h->sigma = (uint32_t)s->sigma;
    h->n = x->n; h->glen = s->glen; h->n_rec = s->n_rec; h->n_seg = s->n_seg;
    h->src_size = s->src_size;
    h->src_mtime_ns = s->src_mtime_ns;
    h->src_ctime_ns = s->src_ctime_ns;
    h->src_ino = s->src_ino;
    w->have_meta = 1;
    if ((mask >> RV_SEC_RECORDS & 1) && !(w->added >> RV_SEC_RECORDS & 1)) {
        uint64_t rb = 0;
        void *rec = pack_records(s, &rb);
        if (!rec) return add_failed(w, ENOMEM, "out of memory");
        free(w->records);
        w->records = rec;
        if (rv_rvx_writer_add(w, RV_SEC_RECORDS, rec, rb) < 0) return -1;
    }
    const uint64_t aw = x->wide ? 8 : 4;
    start_packer(w, mask, s);
    if (add_one(w, mask, RV_SEC_SEGMENTS, s->seg, s->n_seg * sizeof(rv_segment_t), 1) < 0 ||
        add_compact(w, mask, RV_SEC_TEXT, RV_SEC_TEXT2, x) < 0 ||
        add_compact(w, mask, RV_SEC_RAW, RV_SEC_RAWX, x) < 0 ||
        add_one(w, mask, RV_SEC_RAW, s->raw, s->glen, 1) < 0 ||
        add_one(w, mask, RV_SEC_TEXT, s->text, s->n, 1) < 0 || add_sa40(w, mask, x) < 0 ||
        add_one(w, mask, RV_SEC_SA, x->sa, x->n * aw, 1) < 0)
        return -1;
    /* ISA and LLRc are not stored: the reader rebuilds them from SA and from LLR in
     * one parallel pass each, faster than it could read them (rvx.c) */
    for (int id = RV_SEC_ISA + 1; id < RV_SEC_MAX; id++) {
        if (id == RV_SEC_LLRC) continue;
        if (id == RV_SEC_RUNS && add_compact(w, mask, RV_SEC_RUNS, RV_SEC_RUNZ, x) < 0) return -1;
        if (add_one(w, mask, id, x->ext[id].ptr, x->ext[id].bytes, 0) < 0) return -1;
    }
    return 0;
}

uint64_t rv_rvx_writer_release(rv_rvx_writer_t *w, uint64_t mask, int wait)
{
    uint64_t generic = mask, done = 0;
    if (w->packing) { /* the packer reads the text and the sequence; its forms replace them */
        const uint64_t seq = RV_SEC_BIT(RV_SEC_TEXT) | RV_SEC_BIT(RV_SEC_RAW);
        generic &= ~seq;
        if (mask & seq && (wait || w->packed)) { /* without wait: only when packed */
            join_packer(w);
            if (w->compact[0]) done |= mask & RV_SEC_BIT(RV_SEC_TEXT);
            if (w->compact[1]) done |= mask & RV_SEC_BIT(RV_SEC_RAW);
        }
    }
    pthread_mutex_lock(&w->mu);
    for (;;) {
        uint64_t pending = 0;
        for (int i = 0; i < w->ns; i++)
            if (generic >> w->sec[i].reads & 1 && w->sec[i].written < w->sec[i].nblocks)
                pending |= RV_SEC_BIT(w->sec[i].reads);
        if (!pending || w->stop || !wait) {
            done |= generic & ~pending; /* written, or never handed over */
            break;
        }
        pthread_cond_wait(&w->cv, &w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return done;
}

/* Stop the writer threads once every queued block is written. */
static void drain(rv_rvx_writer_t *w)
{
    join_packer(w); /* stopped: what it made is dropped */
    w->packing = 0;
    pthread_mutex_lock(&w->mu);
    w->closing = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    for (int i = 0; i < w->nthreads; i++) pthread_join(w->tid[i], NULL);
    w->nthreads = 0;
}

static void writer_free(rv_rvx_writer_t *w)
{
    if (w->hold_fd >= 0) close(w->hold_fd); /* the replaced file's holder exits */
    for (int i = 0; i < w->ns; i++) free(w->sec[i].hash);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->records);
    for (int i = 0; i < 3; i++) free(w->compact[i]);
    free(w->tmp);
    free(w->path);
    free(w);
}

void rv_rvx_writer_stop(rv_rvx_writer_t *w)
{
    pthread_mutex_lock(&w->mu);
    w->stop = 1; /* blocks not yet handed out are dropped */
    if (!w->err) w->err = ECANCELED;
    pthread_mutex_unlock(&w->mu);
    drain(w);
}

const char *rv_rvx_writer_tmp(const rv_rvx_writer_t *w) { return w->tmp; }

void rv_rvx_writer_abort(rv_rvx_writer_t *w)
{
    if (!w) return;
    rv_rvx_writer_stop(w);
    close(w->fd);
    unlink(w->tmp);
    writer_free(w);
}

/* The block hashes, the table and the header, after every section is written. */
static int write_tail(rv_rvx_writer_t *w)
{
    uint64_t nh = 0;
    for (int i = 0; i < w->ns; i++) nh += w->sec[i].nblocks;
    uint64_t *hashes = malloc((nh ? nh : 1) * sizeof *hashes);
    rvx_entry_t table[RVX_TABLE_CAP];
    if (!hashes) { errno = ENOMEM; return -1; }
    uint64_t k = 0;
    for (int i = 0; i < w->ns; i++) {
        const wsec_t *s = &w->sec[i];
        table[i] = (rvx_entry_t){s->id, 0, s->offset, s->bytes, k};
        memcpy(hashes + k, s->hash, s->nblocks * sizeof *hashes);
        k += s->nblocks;
    }
    rvx_header_t h = w->meta;
    memcpy(h.magic, RVX_MAGIC, 8);
    /* only a file that needs this format's reader says so: the others stay readable
     * by the repviews of the previous one, byte for byte as they wrote them */
    h.version = w->added >> RV_SEC_SA40 & 1 ? RVX_VERSION : RVX_VERSION_PLAIN;
    h.header_bytes = sizeof h;
    h.n_sections = (uint32_t)w->ns;
    h.block_bytes = w->block;
    h.hash_offset = w->end;
    h.n_hashes = nh;
    h.hashes_hash = XXH3_64bits_withSeed(hashes, nh * sizeof *hashes, 3);
    h.table_hash = XXH3_64bits_withSeed(table, (size_t)w->ns * sizeof *table, 1);
    h.header_hash = 0;
    h.header_hash = XXH3_64bits_withSeed(&h, sizeof h, 2);
    int err = write_at(w->fd, (const char *)hashes, nh * sizeof *hashes, w->end);
    if (!err) err = write_at(w->fd, (const char *)table, (uint64_t)w->ns * sizeof *table, sizeof h);
    if (!err) err = write_at(w->fd, (const char *)&h, sizeof h, 0);
    free(hashes);
    if (err) errno = err;
    return err ? -1 : 0;
}

int rv_rvx_writer_finish(rv_rvx_writer_t *w)
{
    if (w->packing) queue_packed(w);
    drain(w);
    int bad = w->err != 0, err = w->err;
    if (!bad && !w->have_meta) { bad = 1; err = EDOM; }
    if (!bad && write_tail(w) < 0) { bad = 1; err = errno; }
    if (close(w->fd) != 0 && !bad) { bad = 1; err = errno; }
    if (!bad && rename(w->tmp, w->path) != 0) { bad = 1; err = errno; }
    if (bad) {
        unlink(w->tmp);
        rv_error(w->path, "cannot write: %s", err == EDOM ? "no index described" : err == EINVAL ? "bad or repeated section" : strerror(err));
    }
    writer_free(w);
    return bad ? -1 : 0;
}

int rv_index_save(const rv_index_t *x, const char *path)
{
    rv_rvx_writer_t *w = rv_rvx_writer_open(path, 0);
    if (!w) return -1;
    if (rv_rvx_writer_add_index(w, x, ~0ull) < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", rv_last_error());
        rv_rvx_writer_abort(w);
        return rv_error("", "%s", msg);
    }
    return rv_rvx_writer_finish(w);
}
