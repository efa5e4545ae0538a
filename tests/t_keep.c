/* t_keep.c — keeping an index in the background (keep_save.c).
 *
 * Oracle: rv_index_save() itself.  A kept file must be byte for byte what
 * rv_index_save() writes for the same index, on many small random inputs (DNA with
 * breakers, several records, 32- and 64-bit arrays).  Abandoning a save at random
 * moments (REPVIEW_SAVE_DELAY_MS holds a written file just before its rename) must
 * leave either the complete file, when the save had finished, or nothing at all;
 * failures (missing directory, a file as parent, a directory as target) return -1
 * with the reason and leave nothing behind.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/keep.h"

static char dir[256];

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* Names in dir other than those listed (NULL-terminated), or "" when none. */
static const char *extra_entries(const char *const *allowed)
{
    static char out[512];
    out[0] = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int ok = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
        for (const char *const *a = allowed; *a && !ok; a++) ok = !strcmp(e->d_name, *a);
        if (!ok && strlen(out) + strlen(e->d_name) + 2 < sizeof out) strcat(strcat(out, e->d_name), " ");
    }
    if (d) closedir(d);
    return out;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(n > 0 ? (size_t)n : 1);
    *len = b && fread(b, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return b;
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *pa = slurp(a, &la), *pb = slurp(b, &lb);
    int same = pa && pb && la == lb && la > 0 && memcmp(pa, pb, la) == 0;
    free(pa);
    free(pb);
    return same;
}

static rv_index_t *random_index(rng_t *r)
{
    int n_rec = 1 + (int)rng_below(r, 3);
    char *seqs[3];
    const char *names[3] = {"r1", "second", "chrM"};
    for (int k = 0; k < n_rec; k++) {
        size_t len = 1 + rng_below(r, rng_below(r, 4) ? 300 : 5000);
        seqs[k] = malloc(len + 1);
        for (size_t i = 0; i < len; i++) seqs[k][i] = "ACGTACGTacgtNR"[rng_below(r, 14)];
        seqs[k][len] = 0;
    }
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)seqs, n_rec, RV_ALPHA_DNA);
    for (int k = 0; k < n_rec; k++) free(seqs[k]);
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = 1 + (int)rng_below(r, 2);
    o.with_runs = 1;
    o.force_wide = rng_below(r, 4) == 0;
    return s ? rv_build(s, &o, NULL) : NULL;
}

static void case_same_as_save(void)
{
    rng_t r = rng_new(11);
    char a[300], b[300], why[400];
    const char *allowed[] = {"a.rvx", "b.rvx", "file", "d.rvx", NULL};
    snprintf(a, sizeof a, "%s/a.rvx", dir);
    snprintf(b, sizeof b, "%s/b.rvx", dir);
    case_begin();
    for (int it = 0; it < check_iters(40); it++) {
        rv_index_t *x = random_index(&r);
        CHECK(x, "build: %s", rv_last_error());
        if (!x) break;
        CHECK(rv_index_save(x, a) == 0, "save: %s", rv_last_error());
        rv_keep_t *k = rv_keep_start(x, b);
        CHECK(k, "start: %s", rv_last_error());
        uint64_t bytes = 0;
        struct stat st;
        CHECK(k && rv_keep_finish(k, 0, &bytes, why, sizeof why) == 0, "keep: %s", why);
        CHECK(stat(b, &st) == 0 && (uint64_t)st.st_size == bytes, "size %llu", (unsigned long long)bytes);
        CHECK(same_file(a, b), "kept file differs from rv_index_save's (iteration %d)", it);
        rv_index_t *y = NULL;
        CHECK(rv_index_load(b, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
        CHECK(!y || rv_index_derive(y, RV_SEC_ALL_MASK, 2) == 0, "derive: %s", rv_last_error());
        CHECK(y && y->n == x->n && same_section(x, y, RV_SEC_RUNS) && same_section(x, y, RV_SEC_LLRC),
              "loaded index differs");
        CHECK(!*extra_entries(allowed), "left behind: %s", extra_entries(allowed));
        rv_index_free(y);
        rv_index_free(x);
    }
    unlink(a);
    unlink(b);
    case_end("keep_same_as_save");
}

/* Abandon at random moments; the index stays alive until the writers are done. */
static void case_abandon(void)
{
    rng_t r = rng_new(12);
    enum { N = 24 };
    rv_index_t *xs[N] = {0};
    char b[300], ref[300];
    const char *none[] = {"ref.rvx", "file", "d.rvx", NULL};
    snprintf(b, sizeof b, "%s/b.rvx", dir);
    snprintf(ref, sizeof ref, "%s/ref.rvx", dir);
    case_begin();
    int n = check_iters(N) < N ? check_iters(N) : N, dropped = 0;
    for (int it = 0; it < n; it++) {
        rv_index_t *x = xs[it] = random_index(&r);
        CHECK(x && rv_index_save(x, ref) == 0, "build/save: %s", rv_last_error());
        if (!x) break;
        int hold = it % 3 == 0; /* the written file waits in the private directory */
        setenv("REPVIEW_SAVE_DELAY_MS", hold ? "40" : "0", 1);
        rv_keep_t *k = rv_keep_start(x, b);
        CHECK(k, "start: %s", rv_last_error());
        if (!k) break;
        sleep_ms(hold ? 10 + (long)rng_below(&r, 15) : (long)rng_below(&r, 3));
        char why[400];
        int rc = rv_keep_finish(k, 1, NULL, why, sizeof why);
        CHECK(rc == 0 || !strcmp(why, "abandoned"), "why '%s'", why);
        sleep_ms(hold ? 60 : 5); /* a late writer must not bring anything back */
        if (rc == 0) CHECK(same_file(b, ref), "finished save differs");
        else CHECK(!*extra_entries(none), "abandoned save left: %s", extra_entries(none));
        dropped += rc != 0;
        unlink(b);
    }
    CHECK(dropped > 0, "no save was ever abandoned in time");
    unsetenv("REPVIEW_SAVE_DELAY_MS");
    sleep_ms(100);
    for (int it = 0; it < N; it++) rv_index_free(xs[it]);
    unlink(ref);
    case_end("keep_abandon_leaves_nothing");
}

static void expect_failure(const char *name, const char *target, const char *word)
{
    rng_t r = rng_new(13);
    rv_index_t *x = random_index(&r);
    const char *allowed[] = {"file", "d.rvx", NULL};
    char path[400], why[400] = "";
    snprintf(path, sizeof path, "%s/%s", dir, target);
    case_begin();
    rv_keep_t *k = x ? rv_keep_start(x, path) : NULL;
    CHECK(k && rv_keep_finish(k, 0, NULL, why, sizeof why) < 0, "saved to %s", path);
    CHECK(strstr(why, word), "why '%s', want '%s'", why, word);
    CHECK(!*extra_entries(allowed), "left behind: %s", extra_entries(allowed));
    rv_index_free(x);
    case_end(name);
}

static void case_allowed_and_sizes(void)
{
    char file[300], buf[32];
    snprintf(file, sizeof file, "%s/file", dir);
    case_begin();
    CHECK(rv_keep_allowed(file), "a regular file");
    CHECK(!rv_keep_allowed("-") && !rv_keep_allowed("/dev/stdin") && !rv_keep_allowed("/proc/self/exe"),
          "standard input or /proc");
    CHECK(!rv_keep_allowed(dir), "a directory");
    CHECK(!rv_keep_allowed("/nonexistent/x.fa"), "a missing file");
    const struct { uint64_t b; const char *s; } sz[] = {
        {0, "0 bytes"}, {999, "999 bytes"}, {19300, "19 kB"}, {838168, "838 kB"},
        {1234567, "1.2 MB"}, {4300000000ull, "4.3 GB"}};
    for (size_t i = 0; i < sizeof sz / sizeof *sz; i++) {
        rv_keep_size_str(sz[i].b, buf, sizeof buf);
        CHECK(!strcmp(buf, sz[i].s), "%llu bytes: '%s', want '%s'", (unsigned long long)sz[i].b, buf, sz[i].s);
    }
    setenv("REPVIEW_NO_SAVE", "1", 1);
    CHECK(rv_keep_env_off(), "REPVIEW_NO_SAVE=1");
    setenv("REPVIEW_NO_SAVE", "0", 1);
    CHECK(!rv_keep_env_off(), "REPVIEW_NO_SAVE=0");
    unsetenv("REPVIEW_NO_SAVE");
    CHECK(!rv_keep_env_off(), "unset");
    case_end("keep_allowed_and_sizes");
}

int main(void)
{
    const char *tmp = getenv("RV_TMP");
    snprintf(dir, sizeof dir, "%s/t_keep.XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) { printf("FAIL t_keep: no temporary directory\n"); return 1; }
    char file[300], sub[300];
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(sub, sizeof sub, "%s/d.rvx", dir);
    FILE *f = fopen(file, "w");
    if (f) fputs(">x\nACGT\n", f), fclose(f);
    mkdir(sub, 0755);
    case_same_as_save();
    case_abandon();
    expect_failure("keep_missing_directory", "nope/x.rvx", "No such file");
    expect_failure("keep_parent_is_a_file", "file/x.rvx", "Not a directory");
    expect_failure("keep_directory_in_the_way", "d.rvx", "directory");
    case_allowed_and_sizes();
    rmdir(sub);
    unlink(file);
    rmdir(dir);
    return check_exit();
}
