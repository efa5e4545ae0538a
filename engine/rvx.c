/* rvx.c — the .rvx index file (SPEC §6): a versioned header with the input's
 * fingerprint, a section table, and checksummed sections aligned for mmap.
 * Written to a temporary file and renamed into place; loaded with mmap and
 * checked before anything is trusted.  Little-endian hosts only (x86-64, arm64). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/index.h"
#include "repview/lr.h"
#include "internal.h"

#define RVX_MAGIC "RVXINDEX"
#define RVX_VERSION 2u /* 2: narrow LCP and LLR, LLRc as starts only */
#define RVX_ALIGN 64u

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint32_t wide, alpha, sigma, n_sections;
    uint64_t n, glen, n_rec, n_seg;
    uint64_t src_size;
    int64_t src_mtime_ns;
    uint64_t table_hash;  /* hash of the section table */
    uint64_t header_hash; /* hash of this header with header_hash = 0 */
} rvx_header_t;

typedef struct {
    uint32_t id, reserved;
    uint64_t offset, bytes, hash;
} rvx_entry_t;

/* Four interleaved multiply-rotate lanes over 8-byte words: fast enough to check
 * gigabytes on load, and any flipped bit changes the result. */
uint64_t rv_hash64(const void *data, uint64_t len, uint64_t seed)
{
    const uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full;
    const unsigned char *p = data;
    uint64_t h[4] = {seed + P1, seed ^ P2, seed - P1, ~seed};
    uint64_t i = 0;
#define RV_MIX(a, w) (a) = (((a) ^ ((w) * P2)) << 31 | ((a) ^ ((w) * P2)) >> 33) * P1
    for (; i + 32 <= len; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        RV_MIX(h[0], w[0]); RV_MIX(h[1], w[1]); RV_MIX(h[2], w[2]); RV_MIX(h[3], w[3]);
    }
    uint64_t acc = h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7) ^ len;
    for (; i < len; i++) RV_MIX(acc, (uint64_t)p[i] + 1);
#undef RV_MIX
    acc ^= acc >> 29; acc *= P1; acc ^= acc >> 32;
    return acc;
}

int rv_file_fingerprint(const char *path, uint64_t *size, int64_t *mtime_ns)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    *size = (uint64_t)st.st_size;
    *mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return 0;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct {
    uint32_t id;
    const void *ptr;
    uint64_t bytes;
} outsec_t;

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

static int write_all(int fd, const void *buf, uint64_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w;
        len -= (uint64_t)w;
    }
    return 0;
}

int rv_index_save(const rv_index_t *x, const char *path)
{
    const rv_seq_t *s = x->seq;
    const uint64_t w = x->wide ? 8 : 4;
    uint64_t recbytes = 0;
    void *rec = pack_records(s, &recbytes);
    if (!rec) return rv_error(path, "out of memory");
    outsec_t sec[RV_SEC_MAX + 8];
    int ns = 0;
    sec[ns++] = (outsec_t){RV_SEC_RECORDS, rec, recbytes};
    sec[ns++] = (outsec_t){RV_SEC_SEGMENTS, s->seg, s->n_seg * sizeof(rv_segment_t)};
    sec[ns++] = (outsec_t){RV_SEC_RAW, s->raw, s->glen};
    sec[ns++] = (outsec_t){RV_SEC_TEXT, s->text, s->n};
    sec[ns++] = (outsec_t){RV_SEC_SA, x->sa, x->n * w};
    sec[ns++] = (outsec_t){RV_SEC_ISA, x->isa, x->n * w};
    for (int i = 0; i < RV_SEC_MAX; i++)
        if (x->ext[i].ptr) sec[ns++] = (outsec_t){(uint32_t)i, x->ext[i].ptr, x->ext[i].bytes};

    rvx_entry_t table[RV_SEC_MAX + 8];
    uint64_t off = sizeof(rvx_header_t) + (uint64_t)ns * sizeof(rvx_entry_t);
    for (int i = 0; i < ns; i++) {
        off = (off + RVX_ALIGN - 1) / RVX_ALIGN * RVX_ALIGN;
        table[i] = (rvx_entry_t){sec[i].id, 0, off, sec[i].bytes,
                                 rv_hash64(sec[i].ptr, sec[i].bytes, sec[i].id)};
        off += sec[i].bytes;
    }
    rvx_header_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, RVX_MAGIC, 8);
    h.version = RVX_VERSION;
    h.header_bytes = sizeof h;
    h.wide = (uint32_t)x->wide;
    h.alpha = (uint32_t)s->alpha;
    h.sigma = (uint32_t)s->sigma;
    h.n_sections = (uint32_t)ns;
    h.n = x->n; h.glen = s->glen; h.n_rec = s->n_rec; h.n_seg = s->n_seg;
    h.src_size = s->src_size;
    h.src_mtime_ns = s->src_mtime_ns;
    h.table_hash = rv_hash64(table, (uint64_t)ns * sizeof(rvx_entry_t), 1);
    h.header_hash = rv_hash64(&h, sizeof h, 2);

    size_t pl = strlen(path);
    char *tmp = malloc(pl + 32);
    if (!tmp) { free(rec); return rv_error(path, "out of memory"); }
    snprintf(tmp, pl + 32, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { rv_error(path, "cannot write: %s", strerror(errno)); free(tmp); free(rec); return -1; }
    int bad = write_all(fd, &h, sizeof h) || write_all(fd, table, (uint64_t)ns * sizeof(rvx_entry_t));
    uint64_t pos = sizeof h + (uint64_t)ns * sizeof(rvx_entry_t);
    static const char zeros[RVX_ALIGN];
    for (int i = 0; i < ns && !bad; i++) {
        bad = write_all(fd, zeros, table[i].offset - pos) || write_all(fd, sec[i].ptr, sec[i].bytes);
        pos = table[i].offset + sec[i].bytes;
    }
    if (!bad) bad = fsync(fd) != 0;
    int err = errno;
    if (close(fd) != 0 && !bad) { bad = 1; err = errno; }
    if (!bad && rename(tmp, path) != 0) { bad = 1; err = errno; }
    if (bad) { unlink(tmp); rv_error(path, "cannot write: %s", strerror(err)); }
    free(tmp);
    free(rec);
    return bad ? -1 : 0;
}

/* ---- loading ---------------------------------------------------------------- */

static rv_rvx_status_t fail(rv_rvx_status_t st, const char *path, const char *what, void *map,
                            size_t len)
{
    if (map) munmap(map, len);
    rv_error(path, "%s", what);
    return st;
}

static int unpack_records(rv_seq_t *s, const unsigned char *p, uint64_t bytes)
{
    s->rec = calloc(s->n_rec ? s->n_rec : 1, sizeof *s->rec);
    if (!s->rec) return -1;
    uint64_t at = 0, expect_off = 0;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        uint32_t l;
        if (at + 20 > bytes) return -1;
        memcpy(&s->rec[i].len, p + at, 8);
        memcpy(&s->rec[i].off, p + at + 8, 8);
        memcpy(&l, p + at + 16, 4);
        if (at + 20 + l > bytes || s->rec[i].off != expect_off) return -1;
        s->rec[i].name = strndup((const char *)p + at + 20, l);
        if (!s->rec[i].name) return -1;
        expect_off += s->rec[i].len;
        at += 20 + l;
    }
    return at == bytes && expect_off == s->glen ? 0 : -1;
}

rv_rvx_status_t rv_index_load(const char *path, const char *input, rv_index_t **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        rv_error(path, "%s", strerror(errno));
        return errno == ENOENT ? RV_RVX_MISSING : RV_RVX_IOERR;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return fail(RV_RVX_IOERR, path, "not a regular file", NULL, 0); }
    size_t len = (size_t)st.st_size;
    if (len < 8) { close(fd); return fail(len ? RV_RVX_FOREIGN : RV_RVX_TRUNCATED, path, len ? "not a repview index" : "empty index file", NULL, 0); }
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return fail(RV_RVX_IOERR, path, "cannot map the index file", NULL, 0);
    const unsigned char *base = map;
    if (memcmp(base, RVX_MAGIC, 8) != 0) return fail(RV_RVX_FOREIGN, path, "not a repview index", map, len);
    if (len < sizeof(rvx_header_t)) return fail(RV_RVX_TRUNCATED, path, "truncated index file", map, len);
    rvx_header_t h;
    memcpy(&h, base, sizeof h);
    if (h.version != RVX_VERSION || h.header_bytes != sizeof h)
        return fail(RV_RVX_VERSION, path, "index written by another version of repview", map, len);
    uint64_t want = h.header_hash;
    h.header_hash = 0;
    if (rv_hash64(&h, sizeof h, 2) != want) return fail(RV_RVX_CORRUPT, path, "corrupt index header", map, len);
    h.header_hash = want;
    if (input) {
        uint64_t size;
        int64_t mt;
        if (rv_file_fingerprint(input, &size, &mt) != 0 || size != h.src_size || mt != h.src_mtime_ns)
            return fail(RV_RVX_STALE, path, "stale index (the input changed since it was built)", map, len);
    }
    if (h.n_sections > RV_SEC_MAX + 8) return fail(RV_RVX_CORRUPT, path, "corrupt section table", map, len);
    uint64_t tbytes = (uint64_t)h.n_sections * sizeof(rvx_entry_t);
    if (sizeof h + tbytes > len) return fail(RV_RVX_TRUNCATED, path, "truncated index file", map, len);
    const rvx_entry_t *table = (const rvx_entry_t *)(base + sizeof h);
    if (rv_hash64(table, tbytes, 1) != h.table_hash) return fail(RV_RVX_CORRUPT, path, "corrupt section table", map, len);
    const void *ptr[RV_SEC_MAX] = {0};
    uint64_t bytes[RV_SEC_MAX] = {0};
    for (uint32_t i = 0; i < h.n_sections; i++) {
        const rvx_entry_t *e = &table[i];
        if (e->offset > len || e->bytes > len - e->offset)
            return fail(RV_RVX_TRUNCATED, path, "truncated index file", map, len);
        if (e->id >= RV_SEC_MAX || e->offset % 8) return fail(RV_RVX_CORRUPT, path, "corrupt section table", map, len);
        ptr[e->id] = base + e->offset;
        bytes[e->id] = e->bytes;
    }
    for (uint32_t i = 0; i < h.n_sections; i++)
        if (rv_hash64(base + table[i].offset, table[i].bytes, table[i].id) != table[i].hash)
            return fail(RV_RVX_CORRUPT, path, "corrupt index (checksum mismatch)", map, len);
    const uint64_t w = h.wide ? 8 : 4;
    if (!ptr[RV_SEC_RECORDS] || !ptr[RV_SEC_SEGMENTS] || !ptr[RV_SEC_RAW] || !ptr[RV_SEC_TEXT] ||
        bytes[RV_SEC_RAW] != h.glen || bytes[RV_SEC_TEXT] != h.n ||
        bytes[RV_SEC_SEGMENTS] != h.n_seg * sizeof(rv_segment_t) ||
        bytes[RV_SEC_SA] != h.n * w || bytes[RV_SEC_ISA] != h.n * w ||
        h.alpha < RV_ALPHA_DNA || h.alpha > RV_ALPHA_TEXT || h.wide > 1)
        return fail(RV_RVX_CORRUPT, path, "corrupt index (inconsistent sections)", map, len);

    rv_seq_t *s = calloc(1, sizeof *s);
    rv_index_t *x = calloc(1, sizeof *x);
    if (!s || !x) { free(s); free(x); return fail(RV_RVX_IOERR, path, "out of memory", map, len); }
    s->alpha = (rv_alpha_t)h.alpha;
    s->sigma = (int)h.sigma;
    s->n_rec = h.n_rec; s->glen = h.glen; s->n = h.n; s->n_seg = h.n_seg;
    s->raw = ptr[RV_SEC_RAW];
    s->text = ptr[RV_SEC_TEXT];
    s->src_size = h.src_size;
    s->src_mtime_ns = h.src_mtime_ns;
    s->path = input ? strdup(input) : NULL;
    s->seg = malloc(bytes[RV_SEC_SEGMENTS] ? bytes[RV_SEC_SEGMENTS] : 1);
    int bad = !s->seg || unpack_records(s, ptr[RV_SEC_RECORDS], bytes[RV_SEC_RECORDS]) != 0;
    if (s->seg) memcpy(s->seg, ptr[RV_SEC_SEGMENTS], bytes[RV_SEC_SEGMENTS]);
    if (!bad) bad = rv_seq_index_names(s);
    x->seq = s;
    x->n = h.n;
    x->wide = (int)h.wide;
    x->sa = (void *)ptr[RV_SEC_SA];
    x->isa = (void *)ptr[RV_SEC_ISA];
    x->map = map;
    x->map_len = len;
    snprintf(x->backend, sizeof x->backend, "index file");
    for (int id = RV_SEC_ISA + 1; id < RV_SEC_MAX; id++)
        if (ptr[id]) x->ext[id] = (rv_section_t){(void *)ptr[id], bytes[id], 0};
    if (!bad && (rv_index_bind_lcp(x) < 0 || rv_lr_check_sections(x) < 0)) {
        rv_index_free(x);
        rv_error(path, "corrupt index (inconsistent sections)");
        return RV_RVX_CORRUPT;
    }
    if (bad) {
        rv_index_free(x);
        rv_error(path, "corrupt index (bad record table)");
        return RV_RVX_CORRUPT;
    }
    *out = x;
    return RV_RVX_OK;
}
