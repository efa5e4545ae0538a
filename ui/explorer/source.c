/* source.c — the explorer's sequence source (faidx first, then the index) and the
 * background index build; see source.h for why. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <htslib/bgzf.h>
#include "repview/common.h"
#include "source.h"
#include "../front.h"

static int file_exists(const char *path, const char *suffix)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s", path, suffix);
    return access(buf, F_OK) == 0;
}

/* Plain or bgzip FASTA: faidx can fetch any window without reading the rest. */
static int has_random_access(const char *path, int *bgzf)
{
    BGZF *fp = bgzf_open(path, "r");
    if (!fp) return 0;
    int comp = bgzf_compression(fp); /* 0 none, 1 gzip, 2 bgzf */
    int c = bgzf_peek(fp);
    bgzf_close(fp);
    *bgzf = comp == 2;
    return c == '>' && comp != 1;
}

static void *fai_main(void *arg)
{
    source_t *s = arg;
    s->fai = fai_load3(s->path, NULL, NULL, s->no_create ? 0 : FAI_CREATE);
    atomic_store(&s->fai_done, 1);
    return NULL;
}

/* The first screen before anything else: the start of the first FASTA record,
 * read straight from the file (plain, gzip or bgzip; at most HEAD_BYTES), shown
 * while the .fai is built or, for gzip, while the whole file is read. */
enum { HEAD_BYTES = 1 << 20 };

static rv_seq_t *head_load(const char *path, rv_alpha_t alpha)
{
    BGZF *fp = bgzf_open(path, "r");
    if (!fp) return NULL;
    char *buf = malloc(HEAD_BYTES + 1);
    ssize_t got = buf ? bgzf_read(fp, buf, HEAD_BYTES) : -1;
    bgzf_close(fp);
    if (got <= 1 || buf[0] != '>') { free(buf); return NULL; }
    buf[got] = 0;
    char *nl = strchr(buf, '\n');
    if (!nl) { free(buf); return NULL; }
    *nl = 0;
    char *name = buf + 1, *out = nl + 1;
    name[strcspn(name, " \t\r")] = 0;
    size_t k = 0; /* sequence bytes up to the next record or the end of what was read */
    for (char *q = nl + 1; *q && !(*q == '>' && q[-1] == '\n'); q++)
        if (*q > ' ' && *q < 127) out[k++] = *q;
    out[k] = 0;
    const char *names[1] = {name}, *seqs[1] = {out};
    rv_seq_t *h = k ? rv_seq_from_records(names, seqs, 1, alpha) : NULL;
    free(buf);
    return h;
}

static void drop_head(source_t *s)
{
    rv_seq_free(s->head);
    s->head = NULL;
    s->partial = 0;
}

/* Where the first screen will be: the global position of the REGION given on the
 * command line (the forms goto_command() reads first: NAME[:BEG[-END]], a position
 * in the first record, =POS for a global one), else the start. */
static uint64_t first_position(const rv_seq_t *q, const char *region)
{
    uint64_t v, rid, beg, end;
    if (!region || !q->n_rec) return 0;
    while (isspace((unsigned char)*region)) region++;
    if (!strncmp(region, "goto ", 5)) region += 5;
    int global = *region == '=';
    if (isdigit((unsigned char)region[global]) && front_parse_count(region + global, &v) == 0 && v)
        return global ? (v <= q->glen ? v - 1 : 0) : (v <= q->rec[0].len ? q->rec[0].off + v - 1 : 0);
    if (rv_seq_parse_region(q, region, &rid, &beg, &end) == 0) return q->rec[rid].off + beg;
    return 0;
}

/* Map FILE.rvx in a helper thread and verify the blocks the first screen reads
 * (milliseconds: a few blocks whatever the size of the index), hand it over, then
 * verify all its sections with every core but one: that reads every byte, seconds
 * for a large genome from disk, and neither the first screen nor the panes wait for
 * it.  Damage where the first screen looks is found before anything is shown. */
static void *rvx_main(void *arg)
{
    source_t *s = arg;
    rv_index_t *x = NULL;
    s->rvx_status = rv_index_load(s->rvx_path, s->path, &x);
    if (s->rvx_status == RV_RVX_OK && rv_index_verify_near(x, first_position(x->seq, s->first), 0) < 0) {
        s->rvx_status = RV_RVX_CORRUPT;
        rv_index_free(x);
        x = NULL;
    }
    if (s->rvx_status != RV_RVX_OK) snprintf(s->rvx_err, sizeof s->rvx_err, "%s", rv_last_error());
    s->rvx_index = x;
    s->verifying = x;
    atomic_store(&s->rvx_loaded, 1);
    if (x) {
        int threads = rv_default_threads() - 1; /* a core for the first screen */
        s->rvx_verify_rc = rv_index_verify(x, RV_SEC_ALL_MASK, threads > 0 ? threads : 1);
        if (s->rvx_verify_rc < 0) snprintf(s->rvx_err, sizeof s->rvx_err, "%s", rv_last_error());
    }
    atomic_store(&s->rvx_done, 1);
    return NULL;
}

/* Stop the helper (cancelling a verification) and wait for it. */
static void rvx_join(source_t *s)
{
    if (!s->rvx_thread) return;
    while (!atomic_load(&s->rvx_loaded)) { struct timespec ts = {0, 1000000}; nanosleep(&ts, NULL); }
    if (s->verifying) rv_index_verify_cancel(s->verifying);
    pthread_join(s->rvx_tid, NULL);
    s->rvx_thread = 0;
    s->verifying = NULL;
}

int src_thread(pthread_t *tid, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int ok = pthread_create(tid, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* The faidx helper put off while FILE.rvx was loading. */
static void start_fai(source_t *s)
{
    s->fai_deferred = 0;
    s->fai_thread = src_thread(&s->fai_tid, fai_main, s);
}

static int start_build(source_t *s, char *msg, size_t msglen)
{
    /* the tandem pane needs the runs: build them with the index, in this background
     * job and on the GPU when there is one, rather than later on the UI thread */
    s->opts.with_runs = 1;
    if (s->keep_path) s->opts.with_llr = 1; /* what `repview index` writes */
    s->job = rv_build_start(s->path, NULL, s->alpha, &s->opts);
    if (!s->job) return snprintf(msg, msglen, "%s", rv_last_error()), -1;
    s->state = IDX_BUILDING;
    return 0;
}

int src_open(source_t *s, const char *path, const char *region, rv_alpha_t alpha, const rv_build_opts_t *o,
             int no_create, int no_save, char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    s->no_create = no_create;
    s->path = strdup(path);
    s->first = region ? strdup(region) : NULL;
    s->alpha = alpha;
    s->opts = *o;
    s->t_start = rv_now();
    s->shown_alpha = alpha;
    msg[0] = 0;
    if (strcmp(path, "-") == 0) return start_build(s, msg, msglen);
    struct stat st;
    if (stat(path, &st) != 0) return snprintf(msg, msglen, "%s: %s", path, strerror(errno)), -1;
    if (S_ISDIR(st.st_mode)) return snprintf(msg, msglen, "%s: is a directory", path), -1;
    int bgzf = 0;
    s->random_access = has_random_access(path, &bgzf);
    int fai_ready = s->random_access && file_exists(path, ".fai") && (!bgzf || file_exists(path, ".gzi"));
    if (!fai_ready && (s->head = head_load(path, alpha))) { /* faidx is milliseconds away otherwise */
        s->seq = s->head;
        s->partial = 1;
        s->shown_alpha = s->head->alpha;
    }
    s->rvx_path = rv_index_path_for(path);
    int rvx_errno = ENOENT, have_rvx = s->rvx_path && access(s->rvx_path, R_OK) == 0;
    if (s->rvx_path && !have_rvx) rvx_errno = errno;
    if (s->random_access) {
        s->fai_created = !file_exists(path, ".fai") && !no_create;
        s->gzi_created = bgzf && !file_exists(path, ".gzi") && !no_create;
        /* making a missing .fai reads the whole input: with FILE.rvx to load, only
         * once the index turns out unusable (rvx_loaded) */
        if (fai_ready || !have_rvx) s->fai_thread = src_thread(&s->fai_tid, fai_main, s);
        else s->fai_deferred = 1;
    }
    int may_keep = !no_create && !no_save && s->rvx_path && rv_keep_allowed(path);
    s->may_keep = may_keep;
    if (have_rvx && src_thread(&s->rvx_tid, rvx_main, s)) {
        s->rvx_thread = 1;
        s->state = IDX_BUILDING;
        s->keep_path = may_keep ? strdup(s->rvx_path) : NULL; /* dropped if the file is not ours */
        return 0;
    }
    if (have_rvx) rvx_errno = EAGAIN; /* no helper thread: leave the file alone */
    if (s->fai_deferred) start_fai(s);
    if (may_keep && rvx_errno == ENOENT) s->keep_path = strdup(s->rvx_path); /* else unreadable: not ours */
    else s->may_keep = 0;
    return start_build(s, msg, msglen);
}

/* The .rvx helper has mapped the file: use the index (it goes on verifying it), or
 * say why not and build instead. */
static void rvx_loaded(source_t *s, char *msg, size_t msglen)
{
    rv_index_t *x = s->rvx_index;
    s->rvx_index = NULL;
    if (s->rvx_status == RV_RVX_OK && (s->alpha == RV_ALPHA_AUTO || s->alpha == x->seq->alpha)) {
        s->x = x;
        s->seq = x->seq;
        s->state = IDX_READY;
        s->shown_alpha = x->seq->alpha;
        s->t_ready = rv_now();
        s->generation++;
        rv_seq_free(s->skel);
        s->skel = NULL;
        drop_head(s);
        free(s->keep_path);
        s->keep_path = NULL;
        snprintf(msg, msglen, "index loaded from %s in %.2f s", s->rvx_path, s->t_ready - s->t_start);
        return;
    }
    rvx_join(s);
    rv_index_free(x);
    if (s->fai_deferred) start_fai(s); /* the sequence through faidx until the build is done */
    if (s->rvx_status == RV_RVX_OK || s->rvx_status == RV_RVX_FOREIGN || s->rvx_status == RV_RVX_IOERR) {
        free(s->keep_path); /* another alphabet's index, or not ours: left alone */
        s->keep_path = NULL;
        s->may_keep = 0;
    }
    if (s->rvx_status == RV_RVX_OK) snprintf(msg, msglen, "%s is for another alphabet; building the index in memory", s->rvx_path);
    else snprintf(msg, msglen, "%s; %s", s->rvx_err, s->keep_path ? "rebuilding it" : "building the index in memory");
    if (start_build(s, msg + strlen(msg), msglen - strlen(msg)) < 0) s->state = IDX_FAILED;
}

/* The helper has verified the index in use: on damage, say so, keep the damaged
 * index alive for panes that may hold it, and rebuild it in the background (and
 * rewrite FILE.rvx, as for damage found at load). */
static void rvx_verified(source_t *s, char *msg, size_t msglen)
{
    pthread_join(s->rvx_tid, NULL);
    s->rvx_thread = 0;
    s->verifying = NULL;
    msg[0] = 0;
    if (s->rvx_verify_rc == 0 || !s->x) return;
    s->damaged = s->x;
    s->x = NULL;
    s->generation++;
    free(s->keep_path);
    s->keep_path = s->may_keep ? strdup(s->rvx_path) : NULL;
    if (s->fai_deferred) start_fai(s);
    snprintf(msg, msglen, "%s; rebuilding %s in the background", s->rvx_err, s->keep_path ? "it" : "the index");
    if (start_build(s, msg + strlen(msg), msglen - strlen(msg)) < 0) s->state = IDX_FAILED;
}

/* The record table of the .fai as an rv_seq_t without text: enough for names,
 * lengths, region parsing and record lookups until the index is ready. */
static rv_seq_t *skeleton_from_fai(const faidx_t *fai, const char *path)
{
    rv_seq_t *k = calloc(1, sizeof *k);
    int n = faidx_nseq(fai);
    if (!k || !(k->rec = calloc(n ? (size_t)n : 1, sizeof *k->rec))) { free(k); return NULL; }
    for (int i = 0; i < n; i++) {
        rv_record_t *r = &k->rec[k->n_rec++];
        r->name = strdup(faidx_iseq(fai, i));
        int l = faidx_seq_len(fai, r->name);
        r->len = l > 0 ? (uint64_t)l : 0;
        r->off = k->glen;
        k->glen += r->len;
    }
    k->raw = "";
    k->path = strdup(path);
    rv_seq_index_names(k);
    return k;
}

static void fai_finished(source_t *s, char *msg, size_t msglen)
{
    pthread_join(s->fai_tid, NULL);
    s->fai_thread = 0;
    if (!s->fai) return; /* no writable .fai: wait for the full load instead */
    if (s->x) return;
    s->skel = skeleton_from_fai(s->fai, s->path);
    if (!s->skel || s->skel->n_rec == 0) return;
    s->seq = s->skel;
    drop_head(s);
    s->generation++;
    if (s->fai_created || s->gzi_created)
        snprintf(msg, msglen, "created %s.fai%s%s%s for fast access", s->path,
                 s->gzi_created ? " and " : "", s->gzi_created ? s->path : "",
                 s->gzi_created ? ".gzi" : "");
}

static void build_finished(source_t *s, char *msg, size_t msglen)
{
    int cancelled = atomic_load(&rv_build_progress(s->job)->cancel);
    s->x = rv_build_join(s->job, s->err, sizeof s->err);
    s->job = NULL;
    if (s->prev) { /* a rebuild (`:set strands`): on failure the index in use stays */
        if (!s->x) {
            s->x = s->prev;
            s->prev = NULL;
            s->state = IDX_READY;
            snprintf(msg, msglen, cancelled ? "rebuild cancelled; keeping the index in use" : "rebuild failed: %s", s->err);
            return;
        }
        rv_index_free(s->retired); /* the one retired before: long since let go */
        s->retired = s->prev;
        s->prev = NULL;
    }
    if (!s->x) {
        s->state = cancelled ? IDX_CANCELLED : IDX_FAILED;
        snprintf(msg, msglen, cancelled ? "index build cancelled" : "index build failed: %s", s->err);
        return;
    }
    s->state = IDX_READY;
    s->t_ready = rv_now();
    s->seq = s->x->seq;
    s->shown_alpha = s->x->seq->alpha;
    s->generation++;
    if (s->fai) { fai_destroy(s->fai); s->fai = NULL; }
    rv_seq_free(s->skel);
    s->skel = NULL;
    drop_head(s);
    free(s->cache);
    s->cache = NULL;
    s->cache_len = 0;
    snprintf(msg, msglen, "index ready: %s, %.2f s%s%s%s%s", s->x->backend, s->t_ready - s->t_start,
             s->x->note[0] ? "; " : "", s->x->note, s->seq->warning ? "; " : "",
             s->seq->warning ? s->seq->warning : "");
    if (s->keep_path && !(s->keeper = rv_keep_start(s->x, s->keep_path))) {
        size_t l = strlen(msg);
        snprintf(msg + l, msglen - l, "; cannot save the index to %s: %s", s->keep_path, rv_last_error());
    }
}

/* The save has ended: say where and how large, or why not (one line). */
static void keep_finished(source_t *s, char *msg, size_t msglen)
{
    uint64_t bytes = 0;
    char why[400], size[32];
    int rc = rv_keep_finish(s->keeper, 0, &bytes, why, sizeof why);
    s->keeper = NULL;
    rv_keep_size_str(bytes, size, sizeof size);
    if (rc == 0) snprintf(msg, msglen, "saved %s (%s)", s->keep_path, size);
    else snprintf(msg, msglen, "cannot save the index to %s: %s; continuing without it", s->keep_path, why);
}

int src_poll(source_t *s, char *msg, size_t msglen)
{
    int changed = 0;
    msg[0] = 0;
    if (s->rvx_thread && !s->rvx_taken && atomic_load(&s->rvx_loaded)) {
        s->rvx_taken = 1;
        rvx_loaded(s, msg, msglen);
        changed = 1;
    }
    if (s->rvx_thread && atomic_load(&s->rvx_done)) {
        char m2[600];
        rvx_verified(s, m2, sizeof m2);
        if (m2[0]) snprintf(msg + strlen(msg), msglen - strlen(msg), "%s%s", msg[0] ? "; " : "", m2);
        changed = 1;
    }
    if (s->fai_thread && atomic_load(&s->fai_done)) {
        char m2[600] = "";
        fai_finished(s, m2, sizeof m2);
        if (m2[0]) snprintf(msg + strlen(msg), msglen - strlen(msg), "%s%s", msg[0] ? "; " : "", m2);
        changed = 1;
    }
    if (s->job && rv_build_finished(s->job)) {
        char m2[600];
        build_finished(s, m2, sizeof m2);
        if (msg[0] && s->state == IDX_READY) snprintf(msg + strlen(msg), msglen - strlen(msg), "; %s", m2);
        else snprintf(msg, msglen, "%s", m2);
        changed = 1;
    }
    if (s->keeper && rv_keep_wait(s->keeper, 0)) {
        char m3[600];
        keep_finished(s, m3, sizeof m3);
        size_t l = strlen(msg);
        snprintf(msg + l, msglen - l, "%s%s", l ? "; " : "", m3);
        changed = 1;
    }
    return changed;
}

void src_wait(source_t *s, int wait_index, double timeout, char *msg, size_t msglen)
{
    double t0 = rv_now();
    char m[600];
    msg[0] = 0;
    for (;;) {
        if (src_poll(s, m, sizeof m) && m[0]) {
            size_t l = strlen(msg);
            snprintf(msg + l, msglen - l, "%s%s", l ? "; " : "", m);
        }
        int seq_ok = (s->seq && !s->partial) || (!s->fai_thread && !s->job && !s->rvx_thread);
        /* ready: built (and saved), or loaded and handed over; verified: nothing left
         * of the verification either */
        int ready = !s->job && !s->keeper && (!s->rvx_thread || (s->rvx_taken && wait_index < 2));
        if (seq_ok && !s->fai_thread && (!wait_index || ready)) return;
        if (rv_now() - t0 > timeout) return;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void src_progress(const source_t *s, char *buf, size_t len)
{
    buf[0] = 0;
    if (s->rvx_thread && !atomic_load(&s->rvx_loaded)) { snprintf(buf, len, "loading %s", s->rvx_path); return; }
    if (s->rvx_thread && s->verifying) {
        uint64_t done, total;
        rv_index_verify_progress(s->verifying, &done, &total);
        snprintf(buf, len, "index ready, verifying %d%%", total ? (int)(100.0 * (double)done / (double)total) : 0);
        return;
    }
    if (s->keeper) { snprintf(buf, len, "index ready, saving it"); return; }
    if (!s->job) return;
    rv_progress_t *p = rv_build_progress(s->job);
    int stage = atomic_load(&p->stage);
    uint64_t done = atomic_load(&p->done), total = atomic_load(&p->total);
    const char *name = stage == RV_STAGE_IDLE ? "starting" : rv_stage_name((rv_stage_t)stage);
    if (atomic_load(&p->cancel)) name = "cancelling";
    char pct[16] = "";
    if (total) snprintf(pct, sizeof pct, " %d%%", (int)(100.0 * (double)done / (double)total));
    snprintf(buf, len, "indexing: %s%s%s%s (x cancels)", name, pct, p->backend[0] ? " on " : "",
             p->backend);
}

const char *src_bytes(source_t *s, uint64_t g, uint64_t len)
{
    if (s->x) return g + len <= s->x->seq->glen ? s->x->seq->raw + g : NULL;
    if (s->head && s->seq == s->head) return g + len <= s->head->glen ? s->head->raw + g : NULL;
    if (!s->fai || !s->skel || len == 0) return NULL;
    if (s->cache && g >= s->cache_g && g + len <= s->cache_g + s->cache_len) return s->cache + (g - s->cache_g);
    const rv_record_t *r = &s->skel->rec[rv_seq_record_of(s->skel, g)];
    hts_pos_t got = 0;
    char *b = faidx_fetch_seq64(s->fai, r->name, (hts_pos_t)(g - r->off),
                                (hts_pos_t)(g - r->off + len - 1), &got);
    if (!b || (uint64_t)got < len) { free(b); return NULL; }
    free(s->cache);
    s->cache = b;
    s->cache_g = g;
    s->cache_len = len;
    if (s->shown_alpha == RV_ALPHA_AUTO) s->shown_alpha = rv_alpha_detect(b, (size_t)len);
    return b;
}

void src_cancel(source_t *s)
{
    if (s->job) rv_build_cancel(s->job);
}

int src_rebuild(source_t *s, int strands, char *msg, size_t msglen)
{
    const char *want = strands == 2 ? "both strands" : "the forward strand";
    if (!s->x) return snprintf(msg, msglen, "wait for the index first"), -1;
    if (s->job || s->keeper || s->rvx_thread)
        return snprintf(msg, msglen, "wait until the index is %s", s->keeper ? "saved" : s->job ? "ready" : "verified"), -1;
    if (s->x->seq->strands == strands) return snprintf(msg, msglen, "the index already holds %s", want), -1;
    if (strands == 2 && s->x->seq->alpha != RV_ALPHA_DNA)
        return snprintf(msg, msglen, "both strands need DNA (this is %s)", rv_alpha_name(s->x->seq->alpha)), -1;
    if (!strcmp(s->path, "-")) return snprintf(msg, msglen, "standard input cannot be read again"), -1;
    rv_build_opts_t o = s->opts;
    o.strands = strands;
    o.with_runs = 1;
    free(s->keep_path);
    s->keep_path = s->may_keep && s->rvx_path ? strdup(s->rvx_path) : NULL;
    if (s->keep_path) o.with_llr = 1; /* what `repview index` writes */
    s->job = rv_build_start(s->path, NULL, s->x->seq->alpha, &o);
    if (!s->job) return snprintf(msg, msglen, "%s", rv_last_error()), -1;
    s->prev = s->x; /* still in use (s->x) until the new one is ready */
    s->state = IDX_BUILDING;
    s->t_start = rv_now();
    snprintf(msg, msglen, "indexing %s in the background%s%s", want, s->keep_path ? "; then saving " : "",
             s->keep_path ? s->keep_path : "");
    return 0;
}

int src_stop_verify(source_t *s)
{
    if (!s->rvx_thread || !s->rvx_taken || atomic_load(&s->rvx_done)) return 0;
    rvx_join(s);
    return 1;
}

int src_saving(const source_t *s) { return s->keeper != NULL; }

int src_abandon_save(source_t *s)
{
    if (!s->keeper) return 0;
    rv_keep_finish(s->keeper, 1, NULL, NULL, 0);
    s->keeper = NULL;
    s->x = NULL; /* the writer may still read it until the process exits */
    return 1;
}

void src_close(source_t *s)
{
    src_abandon_save(s);
    free(s->keep_path);
    if (s->fai_thread) pthread_join(s->fai_tid, NULL);
    rvx_join(s);
    rv_index_free(s->rvx_index);
    rv_index_free(s->damaged);
    rv_index_free(s->retired);
    free(s->rvx_path);
    free(s->first);
    if (s->job) {
        /* A suffix sort cannot stop half-way: do not wait for it.  The caller is
         * about to exit, which ends the worker too. */
        rv_build_cancel(s->job);
        if (!rv_build_finished(s->job)) return;
        rv_index_free(rv_build_join(s->job, NULL, 0));
    }
    if (s->fai) fai_destroy(s->fai);
    rv_seq_free(s->skel);
    rv_seq_free(s->head);
    rv_index_free(s->x);
    free(s->cache);
    free(s->path);
    memset(s, 0, sizeof *s);
}
