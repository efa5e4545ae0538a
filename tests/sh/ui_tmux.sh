# ui_tmux.sh — the real explorer on a real (tmux) terminal: start it, send keys,
# read the screen with capture-pane, quit with q and check the exit status.
# Skipped, visibly, when tmux is not installed.
source "$RV_TOP/tests/lib.sh"
if ! command -v tmux >/dev/null; then echo "PASS tmux_missing_test_skipped"; exit 0; fi
cp "$RV_TOP/tests/data/multi.fa" "$T/"
sock="$T/tmux.sock"
tm() { tmux -S "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null' EXIT
# a session that outlives the others, so the server never exits between them
tm new-session -d -s keep 'sleep 600' || { bad tmux_start "tmux new-session failed"; exit 0; }

screen() { tm capture-pane -p -t rv; }
# wait_for NAME TEXT [SECONDS]: poll the screen until it shows TEXT
wait_for() {
    local name=$1 text=$2 limit=${3:-10} i
    for ((i = 0; i < limit * 20; i++)); do
        if screen | grep -qF -- "$text"; then ok "$name"; return 0; fi
        sleep 0.05
    done
    bad "$name" "no '$text' on screen: $(screen | head -c 400 | tr '\n' '|')"
    return 1
}

tm new-session -d -x 100 -y 30 -s rv \
    "cd '$T' && TERM=xterm-256color '$REPVIEW' multi.fa; echo EXIT=\$? >'$T/exit'; sleep 30" || {
    bad tmux_start "tmux new-session failed"; exit 0; }
wait_for tmux_first_screen 'chr1 (1/3)'
wait_for tmux_sequence '>   1 CTTAAGGGTT'
wait_for tmux_index_ready 'index ready'
tm send-keys -t rv ':chr2:100' Enter
wait_for tmux_goto 'chr2:100  LR'
tm send-keys -t rv '}'
wait_for tmux_next_record 'chrM (3/3)'
tm send-keys -t rv F1
wait_for tmux_help 'repview help'
tm send-keys -t rv q
wait_for tmux_help_closed 'Suffix array'
tm send-keys -t rv ':nowhere:5' Enter
wait_for tmux_bad_goto 'no such record'
tm resize-window -t rv -x 60 -y 20 2>/dev/null
wait_for tmux_resize '   41 AGTGCGACAT' 5
tm send-keys -t rv q
for ((i = 0; i < 100; i++)); do [ -s "$T/exit" ] && break; sleep 0.05; done
expect_eq tmux_quit_status "$(cat "$T/exit" 2>/dev/null)" "EXIT=0"

# Ctrl-C also leaves cleanly (exit 130) and gives the terminal back
tm kill-session -t rv 2>/dev/null
rm -f "$T/exit"
tm new-session -d -x 100 -y 30 -s rv \
    "cd '$T' && TERM=xterm-256color '$REPVIEW' multi.fa; echo EXIT=\$? >'$T/exit'; stty -a | grep -o ' echo ' >'$T/stty'; sleep 30"
wait_for tmux_second_start 'chr1 (1/3)'
tm send-keys -t rv C-c
for ((i = 0; i < 100; i++)); do [ -s "$T/exit" ] && break; sleep 0.05; done
expect_eq tmux_ctrl_c_status "$(cat "$T/exit" 2>/dev/null)" "EXIT=130"
sleep 0.2
expect_eq tmux_terminal_restored "$(tr -d ' ' <"$T/stty" 2>/dev/null)" "echo"

# Standard input: keys come from the terminal, the sequence from the pipe
tm kill-session -t rv 2>/dev/null
rm -f "$T/exit"
tm new-session -d -x 100 -y 30 -s rv \
    "cd '$T' && cat multi.fa | TERM=xterm-256color '$REPVIEW' -; echo EXIT=\$? >'$T/exit'; sleep 30"
wait_for tmux_stdin_screen 'chr1 (1/3)'
tm send-keys -t rv '}'
wait_for tmux_stdin_keys 'chr2 (2/3)'
tm send-keys -t rv q
for ((i = 0; i < 100; i++)); do [ -s "$T/exit" ] && break; sleep 0.05; done
expect_eq tmux_stdin_quit_status "$(cat "$T/exit" 2>/dev/null)" "EXIT=0"

# A build can be cancelled with x; the sequence stays browsable (faidx)
if [ -x "$RV_BUILD/gen_chrom" ]; then
    "$RV_BUILD/gen_chrom" 8m 5 >"$T/big.fa"
    tm kill-session -t rv 2>/dev/null
    rm -f "$T/exit"
    tm new-session -d -x 100 -y 30 -s rv \
        "cd '$T' && TERM=xterm-256color '$REPVIEW' --cpu -t 1 big.fa; echo EXIT=\$? >'$T/exit'; sleep 30"
    wait_for tmux_big_first_screen 'chrSyn (1/1)'
    wait_for tmux_big_indexing 'indexing:'
    tm send-keys -t rv x
    wait_for tmux_cancelled 'index cancelled' 30
    tm send-keys -t rv ':4,000,000' Enter
    wait_for tmux_browse_after_cancel '> 3,999,921' 5
    tm send-keys -t rv q
    for ((i = 0; i < 100; i++)); do [ -s "$T/exit" ] && break; sleep 0.05; done
    expect_eq tmux_big_quit_status "$(cat "$T/exit" 2>/dev/null)" "EXIT=0"
fi

# Ctrl-Z suspends (the shell gets the terminal back) and fg resumes the screen
if command -v bash >/dev/null; then
    tm kill-session -t rv 2>/dev/null
    tm new-session -d -x 100 -y 30 -s rv "cd '$T' && PS1='sh$ ' bash --norc --noprofile"
    sleep 0.3
    tm send-keys -t rv "TERM=xterm-256color '$REPVIEW' multi.fa" Enter
    wait_for tmux_job_start 'chr1 (1/3)'
    tm send-keys -t rv C-z
    wait_for tmux_suspended 'Stopped'
    tm send-keys -t rv 'fg' Enter
    wait_for tmux_resumed 'Suffix array'
    tm send-keys -t rv q
    sleep 0.3
    tm send-keys -t rv 'echo "rc=$?"' Enter
    wait_for tmux_resumed_quit 'rc=0'
fi

# REGION on the command line, applied once the records are known
tm kill-session -t rv 2>/dev/null
tm new-session -d -x 100 -y 30 -s rv "cd '$T' && TERM=xterm-256color '$REPVIEW' multi.fa chr2:100; sleep 30"
wait_for tmux_region_argument 'chr2:100  LR'

# Going places and writing what is seen, on a real terminal: the record list
# filtered as typed, a mark set and returned to, Ctrl-O back and Ctrl-N forward,
# E and P asking for a file on the command line
tm kill-session -t rv 2>/dev/null
tm new-session -d -x 100 -y 30 -s rv "cd '$T' && TERM=xterm-256color '$REPVIEW' multi.fa; sleep 30"
wait_for tmux_nav_start 'index ready'
tm send-keys -t rv R
wait_for tmux_record_list '3 of 3 records'
tm send-keys -t rv m i t o
wait_for tmux_record_list_filtered '1 of 3 records'
wait_for tmux_record_list_description 'chrM               70 bp    mito'
tm send-keys -t rv Enter
wait_for tmux_record_list_jump 'chrM:1  LR'
tm send-keys -t rv m a '{'
wait_for tmux_mark_then_move 'chr2:1  LR'
tm send-keys -t rv "'" a
wait_for tmux_mark_return 'mark a: chrM:1'
tm send-keys -t rv C-o
wait_for tmux_history_back 'chr2:1  LR'
tm send-keys -t rv C-n
wait_for tmux_history_forward 'chrM:1  LR'
tm send-keys -t rv ':w' Enter
wait_for tmux_unknown_command 'w: unknown command'
tm send-keys -t rv Tab E
wait_for tmux_export_prompt ':export'
tm send-keys -t rv 'tmux-lr.bed' Enter
wait_for tmux_export_written 'to tmux-lr.bed'
[ "$(head -c 6 "$T/tmux-lr.bed" 2>/dev/null)" = "#chrom" ] && ok tmux_export_file || bad tmux_export_file "no tmux-lr.bed"
tm send-keys -t rv P 'tmux-shot' Enter
wait_for tmux_screen_saved 'saved the screen to tmux-shot.txt'
grep -q 'chrM (3/3)' "$T/tmux-shot.txt" 2>/dev/null && grep -q '<svg' "$T/tmux-shot.svg" 2>/dev/null &&
    ok tmux_screen_files || bad tmux_screen_files "$(head -c 200 "$T/tmux-shot.txt" 2>&1)"
wait_for tmux_screen_restored 'Longest repeats'
