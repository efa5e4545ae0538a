/* teach_play.c — the player of a lesson (teach_play.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keys.h"
#include "teach_play.h"

struct teach_player {
    lesson_t L;
    int step, playing, scroll;
    double speed, next_at;   /* seconds per step; when the next step is due */
    char *str;
    size_t len;
    rv_alpha_t alpha;
    teach_opts_t o;
    char msg[240], origin[120];
    int msg_err;
};

static const double speeds[] = {0.25, 0.5, 1, 1.5, 2, 3, 5};
enum { N_SPEEDS = sizeof speeds / sizeof *speeds };

const char *teach_keys_line(int width)
{
    static const char *const lines[] = {
        "l/Right step  h/Left back  Space play/pause  +/- speed  Home/End first/last  Tab topic  q quit",
        "l/Right step  h/Left back  Space play  +/- speed  End last  Tab topic  q quit",
        "l step  h back  Space play  +/- speed  End last  q quit",
        "l step  h back  Space play  q quit",
    };
    int k = 0;
    while (k + 1 < (int)(sizeof lines / sizeof *lines) && (int)strlen(lines[k]) > width) k++;
    return lines[k];
}

teach_player_t *teach_open(teach_topic_t topic, const char *str, size_t len, rv_alpha_t alpha,
                           const teach_opts_t *o, char *err, size_t errlen)
{
    teach_player_t *p = calloc(1, sizeof *p);
    char *copy = malloc(len + 1);
    if (!p || !copy) {
        free(p);
        free(copy);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(copy, str, len);
    copy[len] = 0;
    if (teach_build(&p->L, topic, str, len, alpha, o) < 0) {
        snprintf(err, errlen, "%s", p->L.err);
        teach_free(&p->L);
        free(p);
        free(copy);
        return NULL;
    }
    p->str = copy;
    p->len = len;
    p->alpha = alpha;
    p->o = *o;
    p->speed = 1;
    return p;
}

void teach_close(teach_player_t *p)
{
    if (!p) return;
    teach_free(&p->L);
    free(p->str);
    free(p);
}

void teach_set_origin(teach_player_t *p, const char *where) { snprintf(p->origin, sizeof p->origin, "%s", where); }

const lesson_t *teach_lesson(const teach_player_t *p) { return &p->L; }
int teach_playing(const teach_player_t *p) { return p->playing; }
void teach_set_speed(teach_player_t *p, double seconds) { p->speed = seconds; }

static void go(teach_player_t *p, int step)
{
    if (step < 0) step = 0;
    if (step > p->L.n - 1) step = p->L.n - 1;
    if (step != p->step) p->scroll = 0;
    p->step = step;
}

static void change_speed(teach_player_t *p, int dir)
{
    int k = 0;
    while (k + 1 < N_SPEEDS && speeds[k] < p->speed) k++;
    k += dir > 0 ? -1 : 1; /* faster: fewer seconds per step */
    if (k < 0) k = 0;
    if (k >= N_SPEEDS) k = N_SPEEDS - 1;
    p->speed = speeds[k];
    snprintf(p->msg, sizeof p->msg, "speed: %.2g s per step", p->speed);
}

static void switch_topic(teach_player_t *p, int dir)
{
    teach_topic_t t = (teach_topic_t)((p->L.topic + N_TOPICS + dir) % N_TOPICS);
    lesson_t nl;
    if (teach_build(&nl, t, p->str, p->len, p->alpha, &p->o) < 0) {
        snprintf(p->msg, sizeof p->msg, "%s: %s", teach_topic_name(t), nl.err);
        p->msg_err = 1;
        teach_free(&nl);
        return;
    }
    teach_free(&p->L);
    p->L = nl;
    p->step = p->scroll = p->playing = 0;
}

int teach_key(teach_player_t *p, int key)
{
    p->msg[0] = 0;
    p->msg_err = 0;
    switch (key) {
    case 'q': case 'Q': case 27: return 1;
    case 'l': case KEY_RIGHT: case 'n': case '\r': case '\n': case KEY_ENTER: p->playing = 0; go(p, p->step + 1); break;
    case 'h': case KEY_LEFT: case 'p': case KEY_BACKSPACE: case 127: case 8: p->playing = 0; go(p, p->step - 1); break;
    case KEY_HOME: case 'g': p->playing = 0; go(p, 0); break;
    case KEY_END: case 'G': p->playing = 0; go(p, p->L.n - 1); break;
    case ' ':
        p->playing = !p->playing && p->step < p->L.n - 1;
        p->next_at = 0;
        break;
    case '+': case '=': change_speed(p, 1); break;
    case '-': case '_': change_speed(p, -1); break;
    case '\t': switch_topic(p, 1); break;
    case KEY_BTAB: switch_topic(p, -1); break;
    case 'j': case KEY_DOWN: p->scroll++; break;
    case 'k': case KEY_UP: if (p->scroll > 0) p->scroll--; break;
    default:
        snprintf(p->msg, sizeof p->msg, "%s is not a key of teaching mode", keys_name(key));
        p->msg_err = 1;
        break;
    }
    return 0;
}

int teach_tick(teach_player_t *p, double now)
{
    if (!p->playing) return 0;
    if (dr_is_grid()) { /* no clock in a script: play to the end */
        go(p, p->L.n - 1);
        p->playing = 0;
        return 1;
    }
    if (p->next_at == 0) p->next_at = now + p->speed;
    if (now < p->next_at) return 0;
    go(p, p->step + 1);
    p->next_at = now + p->speed;
    if (p->step >= p->L.n - 1) p->playing = 0;
    return 1;
}

/* Wrap s at width into up to max lines of out (each TEACH_W + 1). Returns lines. */
static int wrap(const char *s, int width, char out[][TEACH_W + 1], int max)
{
    int k = 0;
    if (width > TEACH_W) width = TEACH_W;
    while (*s && k < max) {
        int n = (int)strlen(s);
        if (n > width) {
            n = width;
            while (n > 0 && s[n] != ' ') n--;
            if (n == 0) n = width;
        }
        snprintf(out[k++], TEACH_W + 1, "%.*s", n, s);
        s += n;
        while (*s == ' ') s++;
    }
    return k;
}

void teach_draw(teach_player_t *p)
{
    const lesson_t *L = &p->L;
    const teach_frame_t *f = &L->f[p->step];
    int rows = dr_rows(), cols = dr_cols();
    dr_clear();
    dr_fill(0, 0, cols, ST_BAR, ' ');
    char right[80], title[400];
    snprintf(right, sizeof right, "step %d/%d%s", p->step + 1, L->n, p->playing ? "  playing" : "");
    int rl = (int)strlen(right), counter = cols - rl - 1 > 40;
    int tw = counter ? cols - rl - 4 : cols - 2; /* the title keeps two blanks before the counter */
    int tl = snprintf(title, sizeof title, "repview teach %s%s%s: %s", teach_topic_name(L->topic), p->origin[0] ? " " : "",
                      p->origin, teach_topic_title(L->topic));
    if (tl > tw && tw > 3) memcpy(title + tw - 3, "...", 4); /* cut, and marked as cut */
    dr_text(0, 1, ST_BAR, title, tw);
    if (counter) dr_text(0, cols - rl - 1, ST_BAR, right, rl);
    /* caption under the frame; it keeps its lines when the frame is taller */
    char cap[8][TEACH_W + 1];
    int nc = wrap(f->caption, cols - 2, cap, 8);
    int avail = rows - 3 - nc - 1; /* title, blank, caption, blank, footer */
    if (avail < 1) avail = 1;
    if (p->scroll > f->n - avail) p->scroll = f->n - avail > 0 ? f->n - avail : 0;
    int y = 2;
    for (int i = p->scroll; i < f->n && y < 2 + avail; i++, y++) {
        const teach_line_t *l = &f->line[i];
        for (int x = 0; x + 1 < cols && x < TEACH_W; x++)
            if (l->text[x] != ' ' || l->role[x] != ST_NORMAL) dr_char(y, x + 1, (style_t)l->role[x], l->text[x]);
    }
    if (f->n > avail) dr_printf(y - 1 < 2 ? 2 : y - 1, cols - 14, ST_DIM, 13, "j/k scroll %d", f->n - avail);
    y++;
    for (int i = 0; i < nc && y < rows - 1; i++, y++) dr_text(y, 1, ST_TITLE, cap[i], cols - 2);
    dr_fill(rows - 1, 0, cols, ST_BAR, ' ');
    dr_text(rows - 1, 1, p->msg_err ? ST_ERROR : ST_BAR, p->msg[0] ? p->msg : teach_keys_line(cols - 2), cols - 2);
    dr_flush();
}
