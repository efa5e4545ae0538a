/* teach_play.h — the player of a lesson (teach.h): step forward and back, play at
 * a chosen speed, jump to either end, switch topic, and the drawing of a frame with
 * its caption and the keys on screen.  `repview teach` (teach_main.c) and the
 * explorer's T key (actions.c) both drive it; it calls nothing of the explorer. */
#ifndef REPVIEW_UI_TEACH_PLAY_H
#define REPVIEW_UI_TEACH_PLAY_H

#include "teach.h"

typedef struct teach_player teach_player_t;

/* A player on the lesson of topic for str[0, len).  NULL with a one-line reason
 * in err. */
teach_player_t *teach_open(teach_topic_t topic, const char *str, size_t len, rv_alpha_t alpha,
                           const teach_opts_t *o, char *err, size_t errlen);
void teach_close(teach_player_t *p);
/* Handle one key; 1 when the player was asked to close (q, Esc). */
int teach_key(teach_player_t *p, int key);
/* While playing: advance when the step's time is up (now in seconds, rv_now());
 * 1 when the frame changed.  In scripted mode (the grid back end) play runs to the
 * last step at once: a script has no clock. */
int teach_tick(teach_player_t *p, double now);
int teach_playing(const teach_player_t *p);
/* Seconds per step while playing (--speed). */
void teach_set_speed(teach_player_t *p, double seconds);
/* Draw the current frame on the whole screen (draw.h). */
void teach_draw(teach_player_t *p);
/* Where the text comes from ("chr1:201-220"), shown in the title bar. */
void teach_set_origin(teach_player_t *p, const char *where);
/* The lesson being shown. */
const lesson_t *teach_lesson(const teach_player_t *p);
/* The footer of keys for a screen width: the longest that fits. */
const char *teach_keys_line(int width);

#endif
