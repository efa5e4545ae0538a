/* teach_main.c — `repview teach TOPIC (--string STR | FILE REGION)`: the teaching
 * mode on a terminal, in scripted mode (--keys ... --dump, for golden tests), or
 * written out as plain-text frames (--frames DIR, for slides). */
#include <curses.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repview/common.h"
#include "../front.h"
#include "script.h"
#include "teach_play.h"
#include "term.h"

static const char usage[] =
    "Usage: repview teach TOPIC --string STR [OPTIONS]\n"
    "       repview teach TOPIC [OPTIONS] FILE REGION\n\n"
    "Teaching mode: the algorithm of TOPIC run step by step on a short string, each\n"
    "step drawn as on a board with a caption; the last step is checked against\n"
    "repview's engine.  The keys are on screen.\n\n"
    "Topics:\n"
    "  sa       suffix array by prefix doubling (Manber-Myers, as the GPU does it)\n"
    "  lcp      LCP array by Kasai's PLCP walk (the Phi method)\n"
    "  search   binary search of a pattern, then k mismatches as a branching search\n"
    "  lr       longest repeats covering a position (Tian & Xu: LLR, useful LLRs)\n"
    "  pairs    maximal pairs from LCP intervals and the left-character test\n"
    "  runs     Lyndon roots and the runs (tandem repeats) they give\n\n"
    "  --string STR       the text (at most 20 characters, 12 with --large)\n"
    "  FILE REGION        the text of REGION (NAME:BEG-END, 1-based) of FILE\n"
    "  --pattern P        search: the pattern (default: from the longest repeat)\n"
    "  -k, --mismatches K search: mismatches of the branching search (default 1)\n"
    "  --at POS           lr: the position whose LRs the walk lists (1-based)\n"
    "  -l, --min-len N    pairs: shortest pair (default 2)\n"
    "  --large            fewer, wider cells (a projector)\n"
    "  --theme T          dark (default) or light terminal background\n"
    "  --no-color         no colour (also NO_COLOR=1 or TERM=dumb)\n"
    "  --speed S          seconds per step while playing (default 1)\n"
    "  --frames DIR       write every step as DIR/TOPIC-001.txt ... (text and caption)\n"
    "  --keys KEYS        play KEYS without a terminal (as the explorer's --keys)\n"
    "  --dump             print the final screen as plain text (with --keys)\n"
    "  --size COLSxROWS   screen size for --dump (default 100x36)\n"
    "  --alphabet A       dna, protein or text (default: detected)\n";

typedef struct {
    teach_opts_t t;
    const char *string, *keys, *frames, *at;
    int dump, no_color, light, cols, rows;
    double speed;
    rv_alpha_t alpha;
} opts_t;

enum { O_STRING = 1000, O_PATTERN, O_AT, O_LARGE, O_THEME, O_NOCOLOR, O_SPEED, O_FRAMES, O_KEYS, O_DUMP, O_SIZE,
       O_ALPHA, O_IGNORE };

static int usage_error(const char *fmt, const char *arg)
{
    fputs("repview: teach: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return RV_EXIT_USAGE;
}

static int parse(int argc, char **argv, opts_t *o, int *first)
{
    static const struct option opts[] = {
        {"string", required_argument, NULL, O_STRING}, {"pattern", required_argument, NULL, O_PATTERN},
        {"mismatches", required_argument, NULL, 'k'},  {"at", required_argument, NULL, O_AT},
        {"min-len", required_argument, NULL, 'l'},     {"large", no_argument, NULL, O_LARGE},
        {"theme", required_argument, NULL, O_THEME},   {"no-color", no_argument, NULL, O_NOCOLOR},
        {"no-colour", no_argument, NULL, O_NOCOLOR},   {"speed", required_argument, NULL, O_SPEED},
        {"frames", required_argument, NULL, O_FRAMES}, {"keys", required_argument, NULL, O_KEYS},
        {"dump", no_argument, NULL, O_DUMP},           {"size", required_argument, NULL, O_SIZE},
        {"alphabet", required_argument, NULL, O_ALPHA}, {"help", no_argument, NULL, 'h'},
        {"quiet", no_argument, NULL, O_IGNORE},        {"cpu", no_argument, NULL, O_IGNORE},
        {"no-save", no_argument, NULL, O_IGNORE},      {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    teach_opts_init(&o->t);
    o->cols = 100;
    o->rows = 36;
    o->speed = 1;
    opterr = 0;
    optind = 1;
    int c;
    uint64_t v;
    char *end, tail;
    while ((c = getopt_long(argc, argv, "k:l:ht:", opts, NULL)) != -1) {
        switch (c) {
        case O_STRING: o->string = optarg; break;
        case O_PATTERN: o->t.pattern = optarg; break;
        case 'k':
            if (front_parse_count(optarg, &v) < 0 || v > 3) return usage_error("-k: expected 0 to 3 mismatches, not '%s'", optarg);
            o->t.k = (unsigned)v;
            break;
        case O_AT: o->at = optarg; break;
        case 'l':
            if (front_parse_count(optarg, &v) < 0 || v < 1) return usage_error("--min-len: expected a number >= 1, not '%s'", optarg);
            o->t.min_len = v;
            break;
        case O_LARGE: o->t.large = 1; break;
        case O_THEME:
            if ((o->light = term_theme_parse(optarg)) < 0) return usage_error("--theme: expected dark or light, not '%s'", optarg);
            break;
        case O_NOCOLOR: o->no_color = 1; break;
        case O_SPEED:
            o->speed = strtod(optarg, &end);
            if (end == optarg || *end || o->speed < 0.05 || o->speed > 60)
                return usage_error("--speed: expected seconds per step (0.05 to 60), not '%s'", optarg);
            break;
        case O_FRAMES: o->frames = optarg; break;
        case O_KEYS: o->keys = optarg; break;
        case O_DUMP: o->dump = 1; break;
        case O_SIZE:
            if (sscanf(optarg, "%dx%d%c", &o->cols, &o->rows, &tail) != 2 || o->cols < 40 || o->rows < 12 ||
                o->cols > 4000 || o->rows > 4000)
                return usage_error("--size: expected COLSxROWS (at least 40x12), got '%s'", optarg);
            break;
        case O_ALPHA:
            if (rv_alpha_parse(optarg, &o->alpha) < 0) return usage_error("unknown alphabet '%s' (dna, protein or text)", optarg);
            break;
        case 't': case O_IGNORE: break; /* the global options mean nothing for a few symbols */
        case 'h': fputs(usage, stdout); return RV_EXIT_OK;
        default: return usage_error("unknown option '%s' (see 'repview teach --help')", argv[optind - 1]);
        }
    }
    if (o->dump != !!o->keys) return usage_error("%s", "--keys and --dump go together (scripted mode)");
    *first = optind;
    return -1;
}

/* The text of REGION of FILE into *str (malloc'd). */
static int region_text(const char *path, const char *region, rv_alpha_t *alpha, char **str, size_t *len, int max)
{
    rv_seq_t *s = rv_seq_load_threads(path, *alpha, 1);
    char buf[600];
    if (!s) return fprintf(stderr, "repview: %s\n", front_error_text("teach", rv_last_error(), buf, sizeof buf)), RV_EXIT_DATA;
    uint64_t rid, beg, end;
    if (rv_seq_parse_region(s, region, &rid, &beg, &end) < 0) {
        fprintf(stderr, "repview: %s\n", rv_last_error());
        rv_seq_free(s);
        return RV_EXIT_USAGE;
    }
    if (end - beg > (uint64_t)max) {
        fprintf(stderr, "repview: teach: %s: %llu characters; at most %d fit a screen (give NAME:BEG-END)\n", region,
                (unsigned long long)(end - beg), max);
        rv_seq_free(s);
        return RV_EXIT_USAGE;
    }
    *len = end - beg;
    *str = malloc(*len + 1);
    if (*str) memcpy(*str, s->raw + s->rec[rid].off + beg, *len), (*str)[*len] = 0;
    *alpha = s->alpha;
    rv_seq_free(s);
    return *str ? -1 : (fprintf(stderr, "repview: teach: out of memory\n"), RV_EXIT_DATA);
}

/* Remove the frames DIR/TOPIC-NNN.txt numbered above k. */
static void remove_frames(const lesson_t *L, const char *dir, int k)
{
    DIR *d = opendir(dir);
    if (!d) return;
    const char *topic = teach_topic_name(L->topic);
    size_t tl = strlen(topic);
    struct dirent *e;
    char path[4096], tail[8];
    int num;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, topic, tl) == 0 && sscanf(e->d_name + tl, "-%d%7s", &num, tail) == 2 &&
            strcmp(tail, ".txt") == 0 && num > k) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

/* --frames DIR: DIR/TOPIC-001.txt ..., each the frame's text and its caption.  A
 * failed write removes what it wrote; frames of an earlier, longer lesson of the
 * topic past the last one are removed too. */
static int write_frames(const lesson_t *L, const char *dir)
{
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return fprintf(stderr, "repview: %s: %s\n", dir, strerror(errno)), RV_EXIT_DATA;
    struct stat st;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
        return fprintf(stderr, "repview: %s: not a directory\n", dir), RV_EXIT_DATA;
    char path[4096];
    for (int k = 0; k < L->n; k++) {
        snprintf(path, sizeof path, "%s/%s-%03d.txt", dir, teach_topic_name(L->topic), k + 1);
        FILE *f = fopen(path, "w");
        int bad = !f;
        if (f) {
            teach_frame_print(L, k, 78, f);
            bad = ferror(f) | (fclose(f) != 0);
        }
        if (bad) {
            fprintf(stderr, "repview: %s: %s\n", path, strerror(errno ? errno : EIO));
            remove_frames(L, dir, 0);
            return RV_EXIT_DATA;
        }
    }
    remove_frames(L, dir, L->n);
    printf("%d frames: %s/%s-001.txt to %s-%03d.txt\n", L->n, dir, teach_topic_name(L->topic),
           teach_topic_name(L->topic), L->n);
    return RV_EXIT_OK;
}

static int run_script(teach_player_t *p, const opts_t *o)
{
    int *keys, n;
    char err[200];
    if ((n = script_parse(o->keys, &keys, err, sizeof err)) < 0) return fprintf(stderr, "repview: %s\n", err), RV_EXIT_USAGE;
    term_plain_styles();
    dr_use_grid(o->cols, o->rows);
    for (int i = 0; i < n; i++) {
        if ((keys[i] & SCRIPT_RESIZE) && keys[i] > 0xffffff) dr_grid_resize(keys[i] >> 12 & 0xfff, keys[i] & 0xfff);
        else if (keys[i] > 0xffffff) continue; /* no mouse in teaching mode */
        else if (teach_key(p, keys[i])) break;
        teach_tick(p, 0);
    }
    teach_draw(p);
    dr_dump(stdout);
    free(keys);
    return RV_EXIT_OK;
}

static int run_terminal(teach_player_t *p, const opts_t *o)
{
    term_set_theme(o->light);
    if (term_start(term_color_wanted(o->no_color), 0) < 0) return RV_EXIT_DATA;
    int dirty = 1;
    while (!term_quit_requested()) {
        if (teach_tick(p, rv_now())) dirty = 1;
        if (dirty) { teach_draw(p); dirty = 0; }
        int ch = getch();
        if (ch == ERR) continue;
        if (ch == KEY_RESIZE) { dirty = 1; continue; }
        if (teach_key(p, ch)) break;
        dirty = 1;
    }
    term_stop();
    return term_quit_requested() ? 128 + term_quit_requested() : RV_EXIT_OK;
}

int rv_teach_main(int argc, char **argv)
{
    opts_t o;
    int first, rc = parse(argc, argv, &o, &first);
    if (rc >= 0) return rc;
    int n_args = argc - first;
    if (n_args < 1) return usage_error("%s", "which topic? sa, lcp, search, lr, pairs or runs (see 'repview teach --help')");
    int topic = teach_topic_parse(argv[first]);
    if (topic < 0) return usage_error("unknown topic '%s' (sa, lcp, search, lr, pairs or runs)", argv[first]);
    int max = teach_max_len(o.t.large);
    char *str = NULL;
    size_t len = 0;
    if (o.string) {
        if (n_args != 1) return usage_error("%s", "give either --string STR or FILE REGION");
        if (!*o.string) return usage_error("%s", "empty --string: nothing to teach");
        str = strdup(o.string);
        len = strlen(o.string);
        if (!str) return fprintf(stderr, "repview: teach: out of memory\n"), RV_EXIT_DATA;
    } else {
        if (n_args != 3) return usage_error("%s", "expected --string STR or FILE REGION (a region of a few characters)");
        if ((rc = region_text(argv[first + 1], argv[first + 2], &o.alpha, &str, &len, max)) >= 0) return rc;
    }
    if (o.at) { /* 1-based position in the string */
        uint64_t v;
        if (front_parse_count(o.at, &v) < 0 || v < 1 || v > len) {
            free(str);
            return usage_error("--at: expected a position from 1 to the string's length, not '%s'", o.at);
        }
        o.t.at = (int64_t)v - 1;
    }
    char err[240];
    teach_player_t *p = teach_open((teach_topic_t)topic, str, len, o.alpha, &o.t, err, sizeof err);
    free(str);
    if (!p) return fprintf(stderr, "repview: teach: %s\n", err), RV_EXIT_USAGE;
    teach_set_speed(p, o.speed);
    if (!o.string) teach_set_origin(p, argv[first + 2]); /* the region, in the title bar */
    const char *term = getenv("TERM");
    if (o.frames) rc = write_frames(teach_lesson(p), o.frames);
    else if (o.keys) rc = run_script(p, &o);
    else if (!term || !*term || strcmp(term, "dumb") == 0) {
        o.keys = "";
        rc = run_script(p, &o); /* no cursor addressing: the first frame as text */
    } else rc = run_terminal(p, &o);
    teach_close(p);
    return rc;
}
