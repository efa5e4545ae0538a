/* app.c — the explorer's state operations that every part may call: messages, the
 * cursor and its jump list, and positions written for people.  It calls nothing
 * above it (no view, pane, prompt or key code; the view learns of cursor moves
 * through app_t.cursor_moved), so the parts that call it form no circle. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "lrlen.h"

void app_message(app_t *a, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_err = err;
}

void app_set_cursor(app_t *a, uint64_t g)
{
    const rv_seq_t *s = a->src.seq;
    if (!s || s->glen == 0) return;
    if (g >= s->glen) g = s->glen - 1;
    if (g < a->rc_beg || g >= a->rc_end) a->rc_beg = a->rc_end = 0; /* moved away */
    a->cur = g;
    if (a->cursor_moved) a->cursor_moved(a); /* the view follows (explorer.c sets it) */
}

void app_jump(app_t *a, uint64_t g)
{
    if (a->n_jumps == (int)(sizeof a->jumps / sizeof *a->jumps)) {
        memmove(a->jumps, a->jumps + 1, sizeof a->jumps - sizeof *a->jumps);
        a->n_jumps--;
    }
    a->jumps[a->n_jumps++] = a->cur;
    a->n_fwd = 0; /* a new jump: nothing lies ahead */
    a->rc_beg = a->rc_end = 0;
    app_set_cursor(a, g);
}

void app_jump_rc(app_t *a, uint64_t g, uint64_t len)
{
    app_jump(a, g);
    if (a->cur != g || len == 0) return;
    a->rc_beg = g;
    a->rc_end = g + len;
}

int app_both(const app_t *a)
{
    return a->src.x && a->src.x->seq->strands == 2;
}

uint64_t app_fwd_len(const app_t *a)
{
    return a->src.x ? rv_seq_fwd_len(a->src.x->seq) : 0;
}

int app_copy(const app_t *a, uint64_t t, uint64_t len, uint64_t *g)
{
    uint64_t fwd;
    int strand = rv_seq_strand(a->src.x->seq, t, len ? len : 1, &fwd);
    *g = rv_seq_text_to_global(a->src.x->seq, fwd);
    return strand;
}

int app_complement(int c)
{
    static const char from[] = "ACGTUMRWSYKVHDBNacgtumrwsykvhdbn";
    static const char to[] = "TGCAAKYWSRMBDHVNtgcaakywsrmbdhvn";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? to[p - from] : c;
}

char *fmt_commas(uint64_t v, char *buf, size_t len)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v), k = 0;
    for (int i = 0; i < n && (size_t)k + 2 < len; i++) {
        buf[k++] = tmp[i];
        if ((n - i - 1) % 3 == 0 && i < n - 1) buf[k++] = ',';
    }
    buf[k] = 0;
    return buf;
}

const char *app_unit(const app_t *a)
{
    switch (a->src.shown_alpha) {
    case RV_ALPHA_PROTEIN: return "aa";
    case RV_ALPHA_TEXT: return "chars";
    default: return "bp";
    }
}

char *app_fmt_pos(const app_t *a, uint64_t g, char *buf, size_t len)
{
    const rv_seq_t *s = a->src.seq;
    char c[32];
    if (!s || !s->n_rec) { snprintf(buf, len, "%s", fmt_commas(g + 1, c, sizeof c)); return buf; }
    const rv_record_t *r = &s->rec[rv_seq_record_of(s, g)];
    snprintf(buf, len, "%s:%s", r->name, fmt_commas(g - r->off + 1, c, sizeof c));
    return buf;
}

int64_t app_cursor_text(const app_t *a)
{
    if (!a->src.x || a->cur >= a->src.x->seq->glen) return -1;
    return rv_seq_global_to_text(a->src.x->seq, a->cur);
}

/* Last segment starting at or before global g, or -1. */
static int64_t segment_at(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_seg;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->seg[mid].gpos <= g) lo = mid + 1; else hi = mid;
    }
    return (int64_t)lo - 1;
}

int64_t app_text_after(const app_t *a, uint64_t g)
{
    const rv_seq_t *s = a->src.x->seq;
    int64_t k = segment_at(s, g);
    if (k >= 0 && g < s->seg[k].gpos + s->seg[k].len) return (int64_t)(s->seg[k].tpos + g - s->seg[k].gpos);
    return (uint64_t)(k + 1) < s->n_seg ? (int64_t)s->seg[k + 1].tpos : (int64_t)rv_seq_fwd_len(s);
}

int64_t app_text_before(const app_t *a, uint64_t g)
{
    const rv_seq_t *s = a->src.x->seq;
    int64_t k = segment_at(s, g);
    if (k < 0) return -1;
    const rv_segment_t *z = &s->seg[k];
    return (int64_t)(g < z->gpos + z->len ? z->tpos + g - z->gpos : z->tpos + z->len - 1);
}

int app_next_repeat(app_t *a, int dir, uint64_t *g)
{
    int64_t t = app_cursor_text(a);
    if (!a->src.x || t < 0) { app_message(a, 1, "needs the index and a cursor on a base"); return 0; }
    uint64_t min = lr_min_interesting(a->src.x);
    uint64_t limit = 4u << 20;
    int64_t i = lr_next_long(a->src.x, (uint64_t)t, dir, min, limit);
    if (i < 0) {
        app_message(a, 1, "no %s repeat of %llu+ %s%s", dir > 0 ? "later" : "earlier", (unsigned long long)min, app_unit(a),
                    a->src.x->n > limit ? " within 4 Mbp" : "");
        return 0;
    }
    *g = rv_seq_text_to_global(a->src.x->seq, (uint64_t)i);
    app_message(a, 0, "repeat of %llu starts here", (unsigned long long)lr_llr(a->src.x, (uint64_t)i));
    return 1;
}
