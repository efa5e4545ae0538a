/* explorer.c — `repview [OPTIONS] [FILE [REGION]]`: options, the event loop on a
 * terminal, and scripted mode (--keys ... --dump) that plays keys into the grid
 * back end and prints the final screen.  REPVIEW_BENCH=1 makes scripted mode time
 * each key's handling and redraw and print the statistics on stderr.
 * --man-keys (undocumented) prints the KEYS section of repview-explorer.1 from the
 * key table, so the man page is checked against it (tests/sh/ui_man.sh). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/keep.h"
#include "app.h"
#include "../front.h"
#include "script.h"
#include "term.h"
#include "tracks.h"

#ifndef RV_SHARE_DIR
#define RV_SHARE_DIR "/usr/local/share/repview"
#endif

static const char usage[] =
    "Usage: repview [OPTIONS] [FILE [REGION]]\n\n"
    "Explore FILE (FASTA/FASTQ, plain, gzip or bgzip; '-' = stdin; none: the bundled\n"
    "sample) at REGION (NAME, NAME:POS, NAME:BEG-END, 1-based; NAME may be any part\n"
    "of a record name between '|' that no other name has).  F1 in the explorer lists\n"
    "the keys.\n\n"
    "  --no-color           no colour (also NO_COLOR=1 or TERM=dumb)\n"
    "  --theme T            dark (default) or light terminal background\n"
    "  --track FILE         an annotation track under the sequence (repeatable): BED,\n"
    "                       bedGraph, GFF3, GTF, VCF or BCF; bgzipped with a tabix or CSI\n"
    "                       index it is read by region; REGION may name a feature\n"
    "  --no-mouse           leave the mouse to the terminal\n"
    "  --keys KEYS          play KEYS (as typed; <CR> <Esc> <Tab> <C-x> ...) without a terminal\n"
    "  --dump               print the final screen as plain text (with --keys)\n"
    "  --size COLSxROWS     screen size for --dump (default 100x30)\n"
    "  --wait-index         wait until the index is ready (loaded, or built and saved)\n"
    "  --no-save            do not keep a built index in FILE.rvx (also REPVIEW_NO_SAVE=1)\n"
    "  --cpu | --gpu, -t N, --alphabet A, --quiet, --version, -h\n";

typedef struct {
    const char *keys, *file, *region;
    int dump, wait_index, no_color, no_mouse, no_save, cols, rows, light;
    rv_alpha_t alpha;
    rv_build_opts_t build;
} opts_t;

enum { O_NOCOLOR = 1000, O_NOMOUSE, O_KEYS, O_DUMP, O_SIZE, O_WAIT, O_CPU, O_GPU, O_ALPHA, O_VERSION, O_QUIET, O_MANKEYS, O_NOSAVE, O_THEME, O_TRACK };

static int parse_size(const char *s, int *cols, int *rows)
{
    char tail;
    return sscanf(s, "%dx%d%c", cols, rows, &tail) == 2 && *cols >= 20 && *rows >= 6 && *cols < 4096 &&
                   *rows < 4096 ? 0 : -1;
}

/* roff text: backslashes and hyphens escaped, no control character at the start. */
static void roff_put(const char *s)
{
    if (*s == '.' || *s == '\'') fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\') fputs("\\e", stdout);
        else if (*s == '-') fputs("\\-", stdout);
        else putchar(*s);
    }
}

static void man_emit(void *ud, const char *keys, const char *text)
{
    (void)ud;
    if (!keys && !*text) return;
    if (!keys) { fputs(".SS ", stdout); roff_put(text); putchar('\n'); return; }
    if (!*keys) { fputs(".br\n", stdout); roff_put(text); putchar('\n'); return; }
    fputs(".IP \"\\fB", stdout); /* one line per entry: the page stays short */
    roff_put(keys);
    fputs("\\fR\"\n", stdout);
    roff_put(text);
    putchar('\n');
}

/* Parse argv; returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, opts_t *o)
{
    static const struct option opts[] = {
        {"no-color", no_argument, NULL, O_NOCOLOR}, {"no-colour", no_argument, NULL, O_NOCOLOR},
        {"no-mouse", no_argument, NULL, O_NOMOUSE}, {"keys", required_argument, NULL, O_KEYS},
        {"dump", no_argument, NULL, O_DUMP},        {"size", required_argument, NULL, O_SIZE},
        {"wait-index", no_argument, NULL, O_WAIT},  {"cpu", no_argument, NULL, O_CPU},
        {"gpu", no_argument, NULL, O_GPU},          {"threads", required_argument, NULL, 't'},
        {"alphabet", required_argument, NULL, O_ALPHA}, {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, O_VERSION},  {"quiet", no_argument, NULL, O_QUIET},
        {"man-keys", no_argument, NULL, O_MANKEYS}, {"no-save", no_argument, NULL, O_NOSAVE},
        {"theme", required_argument, NULL, O_THEME}, {"track", required_argument, NULL, O_TRACK},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->cols = 100;
    o->rows = 30;
    rv_build_opts_init(&o->build);
    o->no_save = rv_keep_env_off();
    opterr = 0;
    optind = 1;
    int c;
    uint64_t t;
    while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
        switch (c) {
        case O_NOCOLOR: o->no_color = 1; break;
        case O_NOMOUSE: o->no_mouse = 1; break;
        case O_THEME:
            if ((o->light = term_theme_parse(optarg)) < 0)
                return fprintf(stderr, "repview: --theme: expected dark or light, not '%s'\n", optarg), RV_EXIT_USAGE;
            break;
        case O_TRACK: {
            char err[300];
            int rc = tracks_request(optarg, err, sizeof err);
            if (rc < 0) return fprintf(stderr, "repview: --track: %s\n", err), rc == -2 ? RV_EXIT_USAGE : RV_EXIT_DATA;
            break;
        }
        case O_KEYS: o->keys = optarg; break;
        case O_DUMP: o->dump = 1; break;
        case O_WAIT: o->wait_index = 1; break;
        case O_QUIET: break;
        case O_NOSAVE: o->no_save = 1; break;
        case O_CPU: o->build.backend = RV_BACKEND_CPU; break;
        case O_GPU: o->build.backend = RV_BACKEND_GPU; break;
        case O_SIZE:
            if (parse_size(optarg, &o->cols, &o->rows) < 0)
                return fprintf(stderr, "repview: --size: expected COLSxROWS (at least 20x6), got '%s'\n", optarg), RV_EXIT_USAGE;
            break;
        case 't':
            if (front_parse_count(optarg, &t) < 0 || t < 1 || t > 1024)
                return fprintf(stderr, "repview: bad thread count '%s'\n", optarg), RV_EXIT_USAGE;
            o->build.threads = (int)t;
            break;
        case O_ALPHA:
            if (rv_alpha_parse(optarg, &o->alpha) < 0)
                return fprintf(stderr, "repview: unknown alphabet '%s' (dna, protein or text)\n", optarg), RV_EXIT_USAGE;
            break;
        case 'h': fputs(usage, stdout); return RV_EXIT_OK;
        case O_MANKEYS: screen_help_lines(NULL, man_emit, NULL); return RV_EXIT_OK;
        case O_VERSION: front_print_version(stdout); return RV_EXIT_OK;
        default:
            fprintf(stderr, "repview: unknown option or command '%s' (see 'repview --help')\n", argv[optind - 1]);
            return RV_EXIT_USAGE;
        }
    }
    if (argc - optind > 2) return fprintf(stderr, "repview: too many arguments (FILE [REGION])\n"), RV_EXIT_USAGE;
    if (optind < argc) o->file = argv[optind];
    if (optind + 1 < argc) o->region = argv[optind + 1];
    if (o->dump != !!o->keys) {
        fprintf(stderr, "repview: --keys and --dump go together (scripted mode)\n");
        return RV_EXIT_USAGE;
    }
    if (o->build.backend == RV_BACKEND_GPU) { /* as for every command: an error, not a fallback */
        char name[80], why[160];
        if (!rv_gpu_probe(name, sizeof name, why, sizeof why))
            return fprintf(stderr, "repview: --gpu: no usable GPU (%s)\n", why), RV_EXIT_DATA;
    }
    return -1;
}

/* The bundled sample: next to the binary (source tree), one level up (build/),
 * or in the installed share directory. */
static const char *sample_path(void)
{
    static char path[PATH_MAX + 64];
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        const char *tries[] = {"%s/samples/lambda.fa.gz", "%s/../samples/lambda.fa.gz",
                               "%s/../share/repview/lambda.fa.gz"};
        for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
            snprintf(path, sizeof path, tries[i], exe);
            if (access(path, R_OK) == 0) return path;
        }
    }
    return RV_SHARE_DIR "/lambda.fa.gz";
}

/* Why the REGION argument could not be shown ("" when it was, or is not yet known). */
static char region_error[320];

/* When the records become known: the REGION argument, once. */
static void on_source_change(app_t *a, const char **region)
{
    if (!a->src.seq) return;
    tracks_sync(a); /* before REGION: it may name a feature */
    if (*region && !a->src.partial) { /* the start of the file knows one record only */
        /* a failure, not a feature name still being looked up in an indexed track */
        if (goto_place(a, *region) < 0 && a->msg_err) snprintf(region_error, sizeof region_error, "%s", a->msg);
        *region = NULL;
    }
    app_set_cursor(a, a->cur);
}

static int poll_source(app_t *a, const char **region)
{
    char m[700];
    if (!src_poll(&a->src, m, sizeof m)) return 0;
    if (m[0]) app_message(a, a->src.state == IDX_FAILED, "%s", m);
    on_source_change(a, region);
    return 1;
}

static int cmp_double(const void *p, const void *q)
{
    double u = *(const double *)p, v = *(const double *)q;
    return u < v ? -1 : u > v;
}

static void bench_report(double *ms, int n, double first_ms)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    fprintf(stderr, "first_screen_ms\t%.2f\n", first_ms);
    if (n == 0) return;
    int p99 = (int)((n - 1) * 0.99 + 0.5);
    fprintf(stderr, "keys\t%d\nmedian_ms\t%.3f\np99_ms\t%.3f\nmax_ms\t%.3f\n", n, ms[n / 2], ms[p99], ms[n - 1]);
}

/* Scripted mode: let background pane work (tandem runs) finish, so that every
 * dump is the same. */
static void settle(app_t *a)
{
    if (!tandem_busy() && !tandem_poll(a)) return;
    while (tandem_busy()) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    tandem_poll(a);
    screen_draw(a);
}

/* A mouse click at (y, x), or the wheel (wheel = -1 up, +1 down): the same for the
 * terminal and for scripted mode. */
static void mouse_at(app_t *a, int y, int x, int wheel)
{
    if (a->teach) return; /* teaching mode takes keys only */
    if (wheel) { app_key(a, wheel < 0 ? KEY_UP : KEY_DOWN); return; }
    if (a->overlay) { /* the screen under an overlay is hidden: clicks are the overlay's */
        if (a->overlay == OV_RECORDS) records_click(a, y);
        return;
    }
    if (!view_click(a, y, x)) panes_click(a, y, x);
}

static void mouse_event(app_t *a)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    int wheel = ev.bstate & BUTTON4_PRESSED ? -1 : ev.bstate & BUTTON5_PRESSED ? 1 : 0;
    mouse_at(a, ev.y, ev.x, wheel);
}

/* Scripted mode: wait until the build has read the whole input (or failed to), so
 * that the exit status tells a bad input even when the screen did not need it. */
static void wait_read(app_t *a)
{
    const double t0 = rv_now();
    while (a->src.job && !rv_build_finished(a->src.job) &&
           atomic_load(&rv_build_progress(a->src.job)->stage) <= RV_STAGE_READ && rv_now() - t0 < 600) {
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    char m[700];
    if (a->src.job && rv_build_finished(a->src.job) && src_poll(&a->src, m, sizeof m) && m[0])
        app_message(a, a->src.state == IDX_FAILED, "%s", m);
}

/* Scripted mode's exit status: a script cannot read the screen, so a failed read or
 * index build (1) and a REGION that is not in FILE (2) are told as the commands tell
 * them, in the status and one line on stderr; the screen says it too. */
static int script_status(const app_t *a)
{
    char buf[600];
    if (a->src.state == IDX_FAILED) {
        fprintf(stderr, "repview: %s\n", front_error_text(a->src.path, a->src.err, buf, sizeof buf));
        return RV_EXIT_DATA;
    }
    if (region_error[0]) return fprintf(stderr, "repview: %s\n", region_error), RV_EXIT_USAGE;
    return RV_EXIT_OK;
}

static int run_script(app_t *a, const opts_t *o, const char *region, double t0)
{
    int *keys, n;
    char err[200];
    if ((n = script_parse(o->keys, &keys, err, sizeof err)) < 0)
        return fprintf(stderr, "repview: %s\n", err), RV_EXIT_USAGE;
    term_plain_styles();
    dr_use_grid(o->cols, o->rows);
    double first_ms = -1;
    if (a->src.seq) { /* the start of the file, before the record table is known */
        tracks_sync(a);   /* the tracks, when the table is known already (FILE.rvx) */
        screen_draw(a);
        first_ms = (rv_now() - t0) * 1000;
    }
    char m[700];
    src_wait(&a->src, o->wait_index, 600, m, sizeof m);
    if (m[0]) app_message(a, a->src.state == IDX_FAILED, "%s", m);
    wait_read(a); /* the first screen may come from faidx: a bad input shows in the read */
    on_source_change(a, &region);
    tracks_wait(a); /* REGION may name a feature of an indexed track */
    screen_draw(a);
    settle(a);
    if (first_ms < 0) first_ms = (rv_now() - t0) * 1000;
    double *ms = malloc(((size_t)n + 1) * sizeof *ms);
    int timed = 0;
    int bench = getenv("REPVIEW_BENCH") && *getenv("REPVIEW_BENCH") == '1';
    for (int i = 0; i < n && !a->quit; i++) {
        double k0 = rv_now();
        if ((keys[i] & SCRIPT_RESIZE) && keys[i] > 0xffffff) dr_grid_resize(keys[i] >> 12 & 0xfff, keys[i] & 0xfff);
        else if (keys[i] == SCRIPT_WHEEL_UP || keys[i] == SCRIPT_WHEEL_DOWN)
            mouse_at(a, 0, 0, keys[i] == SCRIPT_WHEEL_UP ? -1 : 1);
        else if ((keys[i] & SCRIPT_CLICK) && keys[i] > 0xffffff) mouse_at(a, keys[i] & 0xfff, keys[i] >> 12 & 0xfff, 0);
        else if (keys[i] == SCRIPT_VERIFIED) { /* the verification of a loaded index, and what it found */
            src_wait(&a->src, 2, 600, m, sizeof m);
            if (m[0]) app_message(a, a->src.state == IDX_FAILED, "%s", m);
            on_source_change(a, &region);
        } else app_key(a, keys[i]);
        if (a->teach) teach_tick(a->teach, 0); /* playing runs to the end: no clock */
        search_wait(a); /* scripts see the search finished: screens are deterministic */
        tracks_wait(a); /* and a name looked up in an indexed track */
        if (o->wait_index && a->src.job) { /* `:set strands`: the new index, as at the start */
            src_wait(&a->src, 1, 600, m, sizeof m);
            if (m[0]) app_message(a, a->src.state == IDX_FAILED, "%s", m);
        }
        poll_source(a, &region);
        screen_draw(a);
        settle(a);
        if (ms && keys[i] != SCRIPT_VERIFIED) ms[timed++] = (rv_now() - k0) * 1000; /* a wait, not a key */
    }
    /* the last screen: what a finished verification found, else none of its progress
     * (stopped), so that an intact index always dumps the same */
    int changed = src_stop_verify(&a->src);
    if (poll_source(a, &region)) changed = 1;
    if (o->wait_index && a->src.job) { /* damage found: the rebuild, as at the start */
        src_wait(&a->src, 1, 600, m, sizeof m);
        if (m[0]) app_message(a, a->src.state == IDX_FAILED, "%s", m);
        on_source_change(a, &region);
    }
    if (changed) {
        screen_draw(a);
        settle(a);
    }
    dr_dump(stdout);
    if (bench && ms) bench_report(ms, timed, first_ms);
    free(ms);
    free(keys);
    return script_status(a);
}

static int run_terminal(app_t *a, const opts_t *o, const char *region)
{
    if (term_start(term_color_wanted(o->no_color), !o->no_mouse) < 0) return RV_EXIT_DATA;
    a->mouse = !o->no_mouse;
    on_source_change(a, &region);
    double last = 0;
    int dirty = 1, waiting = 0; /* waiting: q was typed while the index is being saved */
    while (!term_quit_requested()) {
        if (a->quit && !waiting && src_saving(&a->src)) {
            waiting = 1;
            a->quit = 0;
            app_message(a, 0, "saving %s; quitting when done (q again quits without it)", a->src.keep_path);
            dirty = 1;
        }
        if (a->quit || (waiting && !src_saving(&a->src))) break;
        if (poll_source(a, &region)) dirty = 1;
        if (search_poll(a)) dirty = 1;
        if (tracks_poll(a)) dirty = 1;
        if (a->teach && teach_tick(a->teach, rv_now())) dirty = 1;
        if (tandem_poll(a)) dirty = 1;
        if (search_busy(a)) dirty = 1; /* "searching" until it is done */
        if ((a->src.job || a->src.rvx_thread || src_saving(&a->src) || tandem_busy()) && rv_now() - last > 0.2) {
            dirty = 1; /* progress */
            if (tandem_busy()) a->extra_gen++; /* the pane shows its percentage */
        }
        if (dirty) { screen_draw(a); last = rv_now(); dirty = 0; }
        int ch = getch();
        if (ch == ERR) continue;
        /* handle what is already typed before drawing (key repeat never queues up) */
        timeout(0);
        for (int k = 0; ch != ERR; k++) {
            if (ch == KEY_MOUSE) mouse_event(a);
            else app_key(a, ch);
            if (k == 63 || a->quit) break;
            ch = getch();
        }
        timeout(40);
        dirty = 1;
    }
    term_stop();
    if (src_abandon_save(&a->src)) /* a second q, or a signal: the file would come too late */
        fprintf(stderr, "repview: note: quit while saving the index; %s not written\n", a->src.keep_path);
    return term_quit_requested() ? 128 + term_quit_requested() : RV_EXIT_OK; /* as the shell reports it */
}

int rv_explorer_main(int argc, char **argv)
{
    double t0 = rv_now();
    opts_t o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    const char *file = o.file ? o.file : sample_path();
    static app_t a;
    static const pane_ops_t *const all_ops[N_PANES] = {&pane_sa_ops, &pane_lr_ops, &pane_find_ops,
                                                       &pane_tandem_ops, &pane_pairs_ops, &pane_track_ops};
    for (int i = 0; i < N_PANES; i++) pane_init(&a.panes[i], all_ops[i]);
    a.cursor_moved = view_layout;
    settings_init(&a);
    char msg[700];
    if (src_open(&a.src, file, o.region, o.alpha, &o.build, !o.file, o.no_save, msg, sizeof msg) < 0) {
        fprintf(stderr, "repview: %s\n", msg);
        return RV_EXIT_DATA;
    }
    if (msg[0]) app_message(&a, 0, "%s", msg);
    a.title = o.file ? o.file : "lambda.fa.gz (bundled sample)";
    term_set_theme(o.light);
    term_set_color(term_color_wanted(o.no_color));
    const char *term = getenv("TERM");
    if (!o.keys && (!term || !*term || strcmp(term, "dumb") == 0)) {
        /* no cursor addressing: print the first screen as text instead */
        const char *c = getenv("COLUMNS"), *l = getenv("LINES");
        o.keys = "";
        o.cols = c && atoi(c) >= 20 ? atoi(c) : 80;
        o.rows = l && atoi(l) >= 6 ? atoi(l) : 24;
    }
    rc = o.keys ? run_script(&a, &o, o.region, t0) : run_terminal(&a, &o, o.region);
    teach_close(a.teach);
    for (int i = 0; i < N_PANES; i++) pane_free(&a.panes[i]);
    search_free(&a);
    tracks_close();
    src_close(&a.src);
    return rc;
}
