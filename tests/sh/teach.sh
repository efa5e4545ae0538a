# teach.sh — `repview teach`: golden frames of every topic on the
# classroom strings (mississippi, banana, abracadabra, a DNA string with an N), each
# lesson's last frame saying the engine agrees; the player in scripted mode (keys,
# --large, Tab, NO_COLOR); --frames DIR; T from the explorer's suffix-array pane;
# bad input as one-line errors.  tests/golden/teach/TOPIC-STRING.txt holds every
# frame of a lesson as --frames writes them; UPDATE_GOLDEN=1 rewrites the goldens
# (read the diff before committing them).
source "$RV_TOP/tests/lib.sh"
G="$RV_TOP/tests/golden/teach"
mkdir -p "$G"

# compare NAME FILE: FILE against $G/NAME.txt (or write it under UPDATE_GOLDEN=1)
compare() {
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$G/$1.txt"; ok "teach_golden_$1 (updated)"; return; fi
    if [ ! -f "$G/$1.txt" ]; then bad "teach_golden_$1" "no $G/$1.txt (run with UPDATE_GOLDEN=1)"; return; fi
    if diff -u "$G/$1.txt" "$2" >"$T/diff"; then ok "teach_golden_$1"
    else bad "teach_golden_$1" "differs: $(head -c 600 "$T/diff" | tr '\n' '|')"; fi
}

for s in mississippi banana abracadabra ACGTNACGTACGTT; do
    for topic in sa lcp search lr pairs runs; do
        rm -rf "$T/frames"
        if ! "$REPVIEW" teach "$topic" --string "$s" --frames "$T/frames" >"$T/out" 2>"$T/err"; then
            bad "teach_frames_${topic}_$s" "exit $?: $(head -c 200 "$T/err")"; continue
        fi
        n=$(ls "$T/frames" | wc -l)
        last=$(printf '%s/%s-%03d.txt' "$T/frames" "$topic" "$n")
        # the frames are numbered from 001 without a gap, and the last agrees with the engine
        [ -f "$T/frames/$topic-001.txt" ] && [ -f "$last" ] && grep -q "^$n frames: " "$T/out" ||
            bad "teach_frames_${topic}_$s" "frames not numbered 001..$n: $(ls "$T/frames" | head -3)"
        tr '\n' ' ' <"$last" | grep -q "Checked: the same answer as repview's engine" &&
            ok "teach_engine_agrees_${topic}_$s" || bad "teach_engine_agrees_${topic}_$s" "$(tail -3 "$last")"
        for f in "$T/frames"/*.txt; do echo "=== $(basename "$f")"; cat "$f"; done >"$T/all"
        compare "$topic-$s" "$T/all"
    done
done

# the player: keys on screen, steps, the end, --large, Tab to the next topic
screen() { # NAME KEYS ARGS...
    local name=$1 keys=$2; shift 2
    if "$REPVIEW" teach "$@" --keys "$keys" --dump >"$T/screen" 2>"$T/err" && [ ! -s "$T/err" ]; then
        compare "$name" "$T/screen"
    else bad "teach_golden_$name" "exit or stderr: $(head -c 200 "$T/err")"; fi
}
screen screen_sa_banana_start '' sa --string banana
screen screen_sa_banana_step3 'lll' sa --string banana
screen screen_sa_banana_back 'llllh' sa --string banana
screen screen_sa_banana_end '<End>' sa --string banana
screen screen_sa_banana_play '<Space>' sa --string banana
screen screen_lcp_large 'lll' lcp --large --string banana
screen screen_tab_topic '<Tab>l' sa --string banana
screen screen_bad_key 'x' sa --string banana
screen screen_search_k2 '<End>' search --pattern ACGA -k 2 --string ACGTNACGTACGTT
screen screen_lr_at '<End>' lr --at 3 --string mississippi
screen screen_pairs_min1 '<End>' pairs --min-len 1 --string banana
screen screen_small_scroll 'lllj' sa --size 80x24 --string ACGTACGTTTACGGACGTAC
NO_COLOR=1 screen screen_no_color 'll' sa --string banana
grep -q 'l/Right step  h/Left back  Space play/pause' "$G/screen_sa_banana_start.txt" &&
    ok teach_keys_on_screen || bad teach_keys_on_screen "no key line in the first screen"

# FILE REGION: the text of a region
printf '>chrA\nTTTTACGTNACGTACGTTGGGG\n' >"$T/dna.fa"
screen screen_region '<End>' runs "$T/dna.fa" chrA:5-18

# T on the explorer's suffix-array pane: the text around the cursor
if (cd "$T" && "$REPVIEW" --keys ':chr1:210<CR>T<End>' --dump --wait-index --size 100x36 \
        "$RV_TOP/tests/data/multi.fa" >"$T/screen" 2>"$T/err"); then compare explorer_T "$T/screen"
else bad teach_golden_explorer_T "$(head -c 200 "$T/err")"; fi
"$REPVIEW" --keys ':chr1:210<CR>Tq' --dump --wait-index "$RV_TOP/tests/data/multi.fa" | grep -q 'Suffix array' &&
    ok teach_explorer_q_returns || bad teach_explorer_q_returns "q did not return to the explorer"
"$REPVIEW" --keys ':chr1:210<CR><Tab>T' --dump --wait-index "$RV_TOP/tests/data/multi.fa" |
    grep -q 'T opens teaching mode from the Suffix array pane' && ok teach_explorer_other_pane ||
    bad teach_explorer_other_pane "no message on the LR pane"

# --frames DIR: plain text, numbered, caption included; a file as DIR is refused
rm -rf "$T/fr"
"$REPVIEW" teach sa --string banana --frames "$T/fr" >/dev/null
[ "$(ls "$T/fr" | head -1)" = sa-001.txt ] && grep -q 'Prefix doubling' "$T/fr/sa-001.txt" &&
    ! grep -q $'\e' "$T/fr"/*.txt && ok teach_frames_dir || bad teach_frames_dir "$(ls "$T/fr" | head -3)"
# a failed write (a frame that is /dev/full) leaves no frame behind
if [ -w /dev/full ]; then
    mkdir -p "$T/full" && ln -s /dev/full "$T/full/sa-003.txt"
    expect_exit teach_frames_write_error 1 "$REPVIEW" teach sa --string banana --frames "$T/full"
    expect_eq teach_frames_nothing_left "$(ls "$T/full")" ""
fi
# an older, longer lesson's frames past the last one go
touch "$T/fr/sa-008.txt" "$T/fr/sa-012.txt"
"$REPVIEW" teach sa --string banana --frames "$T/fr" >/dev/null
expect_eq teach_frames_stale_removed "$(ls "$T/fr" | tail -1)" "sa-007.txt"
touch "$T/plainfile"
expect_exit teach_frames_not_dir 1 "$REPVIEW" teach sa --string banana --frames "$T/plainfile"

# bad input: one line, exit 2 (usage) or 1 (data)
expect_exit teach_no_topic 2 "$REPVIEW" teach
expect_exit teach_unknown_topic 2 "$REPVIEW" teach heapsort --string banana
expect_exit teach_empty_string 2 "$REPVIEW" teach sa --string ''
expect_exit teach_too_long 2 "$REPVIEW" teach sa --string ACGTACGTACGTACGTACGTACGT
expect_exit teach_too_long_large 2 "$REPVIEW" teach sa --large --string ACGTACGTACGTA
expect_exit teach_all_breakers 2 "$REPVIEW" teach sa --string NNNN --alphabet dna
expect_exit teach_pattern_breaker 2 "$REPVIEW" teach search --pattern AN --string ACGTNACGT
expect_exit teach_bad_at 2 "$REPVIEW" teach lr --at 99 --string banana
expect_exit teach_bad_theme 2 "$REPVIEW" teach sa --theme neon --string banana
expect_exit teach_bad_speed 2 "$REPVIEW" teach sa --speed fast --string banana
expect_exit teach_both_inputs 2 "$REPVIEW" teach sa --string banana "$T/dna.fa" chrA
expect_exit teach_region_too_long 2 "$REPVIEW" teach sa "$T/dna.fa" chrA
expect_exit teach_missing_file 1 "$REPVIEW" teach sa "$T/nope.fa" chrA:1-5
expect_exit teach_keys_no_dump 2 "$REPVIEW" teach sa --string banana --keys l
expect_exit explorer_bad_theme 2 "$REPVIEW" --theme neon
expect_exit teach_help 0 "$REPVIEW" teach --help
"$REPVIEW" --help | grep -q '^  teach ' && ok teach_in_help || bad teach_in_help "not in repview --help"

# doc/TEACHING.md shows the whole sa lesson on banana: every frame --frames writes,
# and no other
doc="$RV_TOP/doc/TEACHING.md"
rm -rf "$T/slides"
"$REPVIEW" teach sa --string banana --frames "$T/slides" >/dev/null
for f in "$T/slides"/sa-*.txt; do
    k=$(basename "$f" .txt)
    got=$(awk -v h="--- slides/$k.txt" '$0 == h { on = 1; next } on && (/^--- / || /^```/) { exit } on' "$doc")
    expect_eq "teach_doc_frame_$k" "$got" "$(cat "$f")"
done
expect_eq teach_doc_frame_count "$(grep -c '^--- slides/sa-' "$doc")" "$(ls "$T/slides" | wc -l)"

# on a real (tmux) terminal: keys, play with the clock, quit; T and q in the explorer
if command -v tmux >/dev/null; then
    sock="$T/tmux.sock"
    tm() { tmux -S "$sock" "$@"; }
    trap 'tm kill-server 2>/dev/null' EXIT
    tm new-session -d -s keep 'sleep 120' || bad teach_tmux_start "tmux new-session failed"
    wait_for() { # NAME TEXT
        local i
        for ((i = 0; i < 200; i++)); do
            tm capture-pane -p -t tv | grep -qF -- "$2" && { ok "$1"; return 0; }
            sleep 0.05
        done
        bad "$1" "no '$2' on screen: $(tm capture-pane -p -t tv | head -c 300 | tr '\n' '|')"
    }
    press() { tm send-keys -t tv "$1"; wait_for "$2" "$3"; } # KEY NAME TEXT
    tm new-session -d -x 100 -y 36 -s tv \
        "TERM=xterm-256color '$REPVIEW' teach sa --speed 0.1 --theme light --string banana; echo EXIT=\$? >'$T/exit'; sleep 30"
    wait_for teach_tmux_keys_shown 'l/Right step  h/Left back'
    press Right teach_tmux_step 'step 2/7'
    press Space teach_tmux_played 'step 7/7'
    tm send-keys -t tv q
    for ((i = 0; i < 100; i++)); do [ -s "$T/exit" ] && break; sleep 0.05; done
    expect_eq teach_tmux_quit "$(cat "$T/exit" 2>/dev/null)" "EXIT=0"
    tm kill-session -t tv 2>/dev/null
    tm new-session -d -x 100 -y 36 -s tv \
        "cd '$T' && NO_COLOR=1 TERM=xterm-256color '$REPVIEW' '$RV_TOP/tests/data/multi.fa'; sleep 30"
    wait_for teach_tmux_explorer 'index ready'
    press T teach_tmux_explorer_T 'repview teach sa chr1:1-20'
    press q teach_tmux_explorer_back 'Suffix array'
fi
