/* cli_repeats.c — `repview repeats` (maximal and supermaximal repeats, one line
 * per repeat with all its occurrences: RACE's compact output, vmatch -supermax)
 * and `repview wmers` (every w-mer occurring at least C times, tallymer), both
 * read off the LCP intervals of the index (repeats.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/repeats.h"
#include "cli.h"

static const char repeats_usage[] =
    "Usage: repview repeats -l MIN [--supermaximal] [OPTIONS] FILE\n\n"
    "Print every maximal repeat of length >= MIN, one line per repeat with all of\n"
    "its occurrences (a list that stays small where pairs explode):\n"
    "  length count occurrences\n"
    "occurrences are NAME:START (0-based) joined by commas, in text order; lines\n"
    "are ordered by the first occurrence, then longer first.  A maximal repeat is a\n"
    "string occurring twice or more whose occurrences are not all preceded by the\n"
    "same symbol nor all followed by the same symbol (a breaker, N, record start or\n"
    "end differs from everything).\n\n"
    "  -l, --min-len MIN  minimum length (required, >= 1)\n"
    "  --supermaximal     only the maximal repeats that are part of no other maximal\n"
    "                     repeat (vmatch -supermax)\n"
    "  --strands +        the forward strand (the default and the only choice)\n";

static const char wmers_usage[] =
    "Usage: repview wmers -w W [--min-count C] [--count-only] [--strands both|+]\n"
    "                     [OPTIONS] FILE\n\n"
    "Print every string of length W (without breakers) that occurs at least C times,\n"
    "one line per w-mer in lexicographic order:\n"
    "  wmer count occurrences\n"
    "occurrences are NAME:START (0-based) joined by commas, in text order.\n\n"
    "  -w, --wmer-len W   the length of the w-mers (required, >= 1)\n"
    "  --min-count C      at least C occurrences (default 2; 1 lists every w-mer)\n"
    "  --count-only       print 'wmer count' only\n"
    "  --strands both     count on both strands (DNA; tallymer with a mirrored index):\n"
    "                     occurrences become NAME:START:+ or NAME:START:- (START of\n"
    "                     the forward interval), and a w-mer and its reverse\n"
    "                     complement have the same count\n"
    "\nOn the GPU when one is usable and the index is large (32 Mi ranks, 16 Mi with\n"
    "positions); --gpu: at any size, --cpu: never.  The same output either way.\n";

typedef struct {
    uint64_t min_len, w, min_count;
    int have_len, have_w, supermax, count_only;
} rep_args_t;

enum { OPT_SUPERMAX = 1, OPT_MIN_COUNT, OPT_COUNT_ONLY };

static int on_opt(int opt, const char *arg, void *ud)
{
    rep_args_t *a = ud;
    switch (opt) {
    case 'l':
    case 'w': {
        uint64_t *v = opt == 'l' ? &a->min_len : &a->w;
        if (front_parse_count(arg, v) < 0 || *v < 1) {
            cli_usage_error(opt == 'l' ? "repeats" : "wmers", "bad -%c '%s' (a length >= 1)", opt, arg);
            return -1;
        }
        if (opt == 'l') a->have_len = 1; else a->have_w = 1;
        return 0;
    }
    case OPT_SUPERMAX: a->supermax = 1; return 0;
    case OPT_MIN_COUNT:
        if (front_parse_count(arg, &a->min_count) < 0 || a->min_count < 1) {
            cli_usage_error("wmers", "bad --min-count '%s' (a count >= 1)", arg);
            return -1;
        }
        return 0;
    case OPT_COUNT_ONLY: a->count_only = 1; return 0;
    }
    return -1;
}

typedef struct {
    const rv_index_t *x;
    const rv_seq_t *s;
    int both;         /* occurrences carry their strand */
    uint64_t *key;    /* both strands: 2 * forward start + minus, sorted */
    uint64_t key_cap;
    uint64_t lines;   /* w-mers handed to print_wmer so far */
    char letter[256]; /* the letter of each code (put_wmer) */
} printer_t;

/* Millions of lines go out through these: stdout's own buffer, without its lock
 * (one thread writes) or printf's format parsing. */
static void put_u64(uint64_t v)
{
    char b[24];
    size_t k = sizeof b;
    do b[--k] = (char)('0' + v % 10); while (v /= 10);
    fwrite_unlocked(b + k, 1, sizeof b - k, stdout);
}

/* NAME:START of text position t (a copy is breaker-free: one record). */
static void put_occ(const rv_seq_t *s, uint64_t t)
{
    uint64_t g = rv_seq_text_to_global(s, t);
    const rv_record_t *r = &s->rec[rv_seq_record_of(s, g)];
    fputs_unlocked(r->name, stdout);
    putc_unlocked(':', stdout);
    put_u64(g - r->off);
}

static int print_repeat(void *ud, const rv_repeat_t *r)
{
    const printer_t *p = ud;
    printf("%llu\t%llu\t", (unsigned long long)r->len, (unsigned long long)r->count);
    for (uint64_t i = 0; i < r->count; i++) {
        if (i) putchar(',');
        put_occ(p->s, r->pos[i]);
    }
    putchar('\n');
    return ferror(stdout) ? rv_error("repeats", "cannot write the output: %s", strerror(errno)) : 0;
}

static int key_cmp(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    return u < v ? -1 : u > v;
}

/* The w-mer's letters; in the text alphabet a tab, newline, backslash or
 * unprintable byte is escaped (\t, \n, \\, \xHH) so that the line stays TSV. */
static void put_wmer(const printer_t *p, const uint8_t *t, uint64_t w)
{
    for (uint64_t i = 0; i < w; i++) {
        unsigned char c = (unsigned char)p->letter[t[i]];
        if (c >= 32 && c < 127 && c != '\\') putc_unlocked(c, stdout);
        else if (c == '\t') fputs("\\t", stdout);
        else if (c == '\n') fputs("\\n", stdout);
        else if (c == '\\') fputs("\\\\", stdout);
        else printf("\\x%02X", c);
    }
}

/* Both strands: each occurrence as its forward start and strand, in text order
 * (+ before - at one start). */
static int put_stranded(printer_t *p, const rv_repeat_t *r)
{
    if (r->count > p->key_cap) {
        uint64_t *k = realloc(p->key, r->count * sizeof *k);
        if (!k) return rv_error("wmers", "out of memory");
        p->key = k, p->key_cap = r->count;
    }
    for (uint64_t i = 0; i < r->count; i++) {
        uint64_t fwd;
        int minus = rv_seq_strand(p->s, r->pos[i], r->len, &fwd) == '-';
        p->key[i] = 2 * fwd + (uint64_t)minus;
    }
    qsort(p->key, r->count, sizeof *p->key, key_cmp);
    for (uint64_t i = 0; i < r->count; i++) {
        if (i) putchar(',');
        put_occ(p->s, p->key[i] >> 1);
        fputs(p->key[i] & 1 ? ":-" : ":+", stdout);
    }
    return 0;
}

static int print_wmer(void *ud, const rv_repeat_t *r)
{
    printer_t *p = ud;
    p->lines++;
    put_wmer(p, p->s->text + rv_sa(p->x, r->rank), r->len);
    putc_unlocked('\t', stdout);
    put_u64(r->count);
    if (r->pos) {
        putc_unlocked('\t', stdout);
        if (p->both) {
            if (put_stranded(p, r) < 0) return -1;
        } else {
            for (uint64_t i = 0; i < r->count; i++) {
                if (i) putc_unlocked(',', stdout);
                put_occ(p->s, r->pos[i]);
            }
        }
    }
    putc_unlocked('\n', stdout);
    return ferror_unlocked(stdout) ? rv_error("wmers", "cannot write the output: %s", strerror(errno)) : 0;
}

/* Below these sizes the device's start (about 0.3 s on an H100) costs more than the
 * pass it saves: at 20 M ranks the GPU takes 0.43 s against 0.32 s for counts, 0.84
 * against 0.92 s with positions (tests/bench/RESULTS.md). */
enum { GPU_MIN_RANKS = 32 << 20, GPU_MIN_RANKS_POS = 16 << 20 };

/* Whether to count on the GPU: --gpu (or REPVIEW_DEVICE=gpu), or a large index, with
 * a usable GPU and 32-bit arrays; never with --cpu (or REPVIEW_DEVICE=cpu). */
static int wmers_on_gpu(const rv_index_t *x, const cli_common_t *c, int count_only)
{
    if (cli_gpu_refused(c) || !rv_gpu_compiled() || x->wide) return 0;
    if (x->n < (count_only ? GPU_MIN_RANKS : GPU_MIN_RANKS_POS) && !cli_gpu_forced(c)) return 0;
    char name[128], why[256];
    return rv_gpu_probe(name, sizeof name, why, sizeof why);
}

/* The w-mers through print_wmer: on the GPU when wmers_on_gpu(), on the CPU when
 * not or when the device fails before the first line (REPVIEW_GPU_TRACE says so,
 * and times the whole pass with its printing). */
static int wmers(const rv_index_t *x, const cli_common_t *c, const rep_args_t *a, printer_t *p)
{
    const char *tr = getenv("REPVIEW_GPU_TRACE");
    int trace = tr && *tr && *tr != '0', rc = -1;
    double t0 = rv_now();
    if (wmers_on_gpu(x, c, a->count_only)) {
        rc = rv_gpu_wmers_each(x, a->w, a->min_count, !a->count_only, print_wmer, p);
        if (rc < 0 && !p->lines && trace)
            fprintf(stderr, "gpu wmers failed (%s): counted on the CPU\n", rv_last_error());
    }
    if (rc < 0 && !p->lines) rc = rv_wmers_each(x, a->w, a->min_count, !a->count_only, print_wmer, p);
    if (trace) fprintf(stderr, "wmers\tcounted and printed\t%.2f ms\n", (rv_now() - t0) * 1e3);
    return rc;
}

/* Open the index, run one of the two walks, write: the exit code. */
static int run(const char *cmd, const char *file, cli_common_t *c, const rep_args_t *a)
{
    c->verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_SA) | RV_SEC_BIT(RV_SEC_LCP) | RV_SEC_BIT(RV_SEC_LCP_BIG);
    c->build.with_llr = 0;
    c->build.strands = c->strands == 2 ? 2 : 1; /* a both-strand FILE.rvx answers + too */
    rv_index_t *x = cli_open_index(file, c);
    if (!x) return RV_EXIT_DATA;
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    printer_t p = {x, x->seq, x->seq->strands == 2, NULL, 0, 0, {0}};
    for (int code = 0; code < 256; code++) p.letter[code] = rv_alpha_letter(x->seq->alpha, (uint8_t)code);
    int rc;
    if (strcmp(cmd, "repeats") == 0) {
        printf("#length\tcount\toccurrences\n");
        rc = rv_repeats_each(x, a->min_len, a->supermax, c->build.threads, print_repeat, &p);
    } else {
        printf(a->count_only ? "#wmer\tcount\n" : "#wmer\tcount\toccurrences\n");
        rc = wmers(x, c, a, &p);
    }
    free(p.key);
    rc = rc < 0 ? cli_data_error() : RV_EXIT_OK;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (rc == RV_EXIT_OK) fprintf(stderr, "repview: %s: cannot write the output: %s\n", cmd, strerror(errno));
        rc = RV_EXIT_DATA;
    }
    cli_close_index(x, c);
    return rc;
}

int cli_repeats(int argc, char **argv)
{
    static const struct option own[] = {{"min-len", required_argument, NULL, 'l'},
                                        {"supermaximal", no_argument, NULL, OPT_SUPERMAX},
                                        {0, 0, 0, 0}};
    rep_args_t a = {0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "repeats", "l:", own, repeats_usage, on_opt, &a, &c, &code);
    if (i < 0) return code;
    if (!a.have_len) return cli_usage_error("repeats", "-l MIN is required");
    if (argc - i != 1) return cli_usage_error("repeats", "expected one FILE");
    if (c.strands == 2 || c.strands == -1)
        return cli_usage_error("repeats", "--strands %s is not supported: repeats are of the forward strand",
                               c.strands == 2 ? "both" : "-");
    return run("repeats", argv[i], &c, &a);
}

int cli_wmers(int argc, char **argv)
{
    static const struct option own[] = {{"wmer-len", required_argument, NULL, 'w'},
                                        {"min-count", required_argument, NULL, OPT_MIN_COUNT},
                                        {"count-only", no_argument, NULL, OPT_COUNT_ONLY},
                                        {0, 0, 0, 0}};
    rep_args_t a = {.min_count = 2};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "wmers", "w:", own, wmers_usage, on_opt, &a, &c, &code);
    if (i < 0) return code;
    if (!a.have_w) return cli_usage_error("wmers", "-w W is required");
    if (argc - i != 1) return cli_usage_error("wmers", "expected one FILE");
    if (c.strands == -1)
        return cli_usage_error("wmers", "--strands - is not supported (both or +)");
    return run("wmers", argv[i], &c, &a);
}
