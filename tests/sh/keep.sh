# keep.sh — build once, keep it (repview-index(1)): every command that builds an index saves
# FILE.rvx after its answer (the explorer in the background once the index is ready)
# unless --no-save / REPVIEW_NO_SAVE=1; a directory that cannot take the file gives a
# one-line note, the answer and exit status 0 still come, and nothing half-written is
# ever left behind.
. "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE
R="timeout 60 $REPVIEW"
cd "${T:?}" || exit 1
cp "$RV_TOP/tests/data/multi.fa" m.fa
printf '>q1\nACGTTGCAAGGCTAAGG\n>q2\nTTTTTTTTTTGG\n' >q.fa
mtime() { stat -c %y "$1" 2>/dev/null; }
# leftovers DIR: temporary files or private directories of a save
leftovers() { find "${1:-.}" -name '*.rvx.saving.*' -o -name '*.rvx.tmp.*' | head -3 | tr '\n' ' '; }
no_leftovers() { local l; l=$(leftovers "$2"); [ -z "$l" ] && ok "$1" || bad "$1" "left behind: $l"; }

# Every command that builds: same answer whether it saves, loads or neither; the
# file it keeps is byte for byte what `repview index` writes.
$R index --quiet -o ref.rvx m.fa
cmds=("lr m.fa" "lr --bedgraph m.fa chr1" "sa --rows 7 --around chr2:50 m.fa" "pairs -l 12 m.fa"
      "tandem --min-len 4 m.fa" "find -k 1 m.fa ACGTTGCA" "overlap -f q.fa m.fa")
for c in "${cmds[@]}"; do
    n=${c%% *}_$(echo "$c" | cksum | cut -c1-4)
    rm -f m.fa.rvx
    want=$($R $c --no-save 2>&1)
    [ ! -e m.fa.rvx ] && ok "${n}_no_save_no_file" || bad "${n}_no_save_no_file" "m.fa.rvx written"
    expect_eq "${n}_saving_same_answer" "$($R $c 2>&1)" "$want"
    cmp -s m.fa.rvx ref.rvx && ok "${n}_kept_as_index_writes" || bad "${n}_kept_as_index_writes" "differs from repview index"
    t=$(mtime m.fa.rvx)
    expect_eq "${n}_loaded_same_answer" "$($R $c 2>&1)" "$want"
    expect_eq "${n}_second_call_loads" "$(mtime m.fa.rvx)" "$t"
done
expect_eq stats_after_keep "$($R stats m.fa | grep '^# index:' | cut -d, -f1)" "# index: m.fa.rvx up to date"
no_leftovers no_leftovers_commands

# stats and lce read the sequence only: they build nothing and keep nothing
rm -f m.fa.rvx
$R stats m.fa >/dev/null; $R lce m.fa chr1:1 chr1:5 >/dev/null
[ ! -e m.fa.rvx ] && ok stats_lce_build_nothing || bad stats_lce_build_nothing "m.fa.rvx written"

# the environment form, and stdin in any spelling, never save
REPVIEW_NO_SAVE=1 $R lr m.fa >/dev/null
[ ! -e m.fa.rvx ] && ok env_no_save || bad env_no_save "m.fa.rvx written"
REPVIEW_NO_SAVE=0 $R lr m.fa >/dev/null
[ -e m.fa.rvx ] && ok env_no_save_0_saves || bad env_no_save_0_saves "no m.fa.rvx"
rm -f m.fa.rvx
want=$($R lr --no-save m.fa)
expect_eq stdin_answer "$($R lr - <m.fa)" "$want"
expect_eq dev_stdin_answer "$($R lr /dev/stdin <m.fa)" "$want"
[ ! -e ./-.rvx ] && [ ! -e m.fa.rvx ] && [ ! -e /dev/stdin.rvx ] && ok stdin_never_saves || bad stdin_never_saves "an index was written"
expect_exit index_rejects_no_save 2 $R index --no-save m.fa
REPVIEW_NO_SAVE=1 $R index --quiet -o env.rvx m.fa
[ -s env.rvx ] && ok index_ignores_env || bad index_ignores_env "repview index wrote nothing under REPVIEW_NO_SAVE=1"

# a stale file is rewritten, once
$R lr m.fa >/dev/null; touch -d '2001-01-01' m.fa
$R lr m.fa >got 2>err; rc=$?
[ $rc -eq 0 ] && cmp -s got <(echo "$want") && grep -q 'stale.*rebuilding it' err && ok stale_rebuilt ||
    bad stale_rebuilt "exit $rc: $(cat err)"
t=$(mtime m.fa.rvx); $R lr m.fa >/dev/null 2>err
expect_eq stale_then_loaded "$(mtime m.fa.rvx) $(cat err)" "$t "

# note CASE DIR CMD...: the answer, exit 0, one note line, no file, no leftovers
note() {
    local name=$1 dir=$2; shift 2
    "$@" >got 2>err; local rc=$?
    if [ $rc -ne 0 ]; then bad "$name" "exit $rc: $(head -c 300 err)"; return; fi
    if ! cmp -s got <(echo "$want"); then bad "$name" "different answer"; return; fi
    if [ "$(wc -l <err)" -ne 1 ] || ! grep -q '^repview: note: cannot save the index to .*; continuing without it$' err; then
        bad "$name" "not one note line: $(head -c 300 err)"; return; fi
    if [ -e "$dir/m.fa.rvx" ] || [ -n "$(leftovers "$dir")" ]; then bad "$name" "left $(ls "$dir")"; return; fi
    ok "$name"
}
rm -f m.fa.rvx
# a full disk: the file-size limit fails the write (EFBIG) half-way
# (the limit is on the command only: its answer goes through a pipe)
note full_disk_ulimit . bash -c "(ulimit -f 8; exec $REPVIEW lr m.fa) | cat; exit \${PIPESTATUS[0]}"
quiet_err=$(bash -c "(ulimit -f 8; exec $REPVIEW lr --quiet m.fa) | cat" 2>&1 >/dev/null)
expect_eq full_disk_quiet "$quiet_err" ""
# a read-only directory: chmod stops everybody but root; root gets a read-only
# bind mount (or a small tmpfs for a really full disk) when it may unshare
mkdir -p ro && cp m.fa ro/
if [ "$(id -u)" -ne 0 ]; then
    chmod a-w ro
    note read_only_dir ro $R lr ro/m.fa
    chmod u+w ro
elif unshare -m true 2>/dev/null; then
    note read_only_dir ro unshare -m sh -c "mount --bind ro ro && mount -o remount,bind,ro ro && exec $REPVIEW lr ro/m.fa"
    note full_tmpfs ro unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs ro && cp m.fa ro/ &&
        head -c 56k /dev/zero >ro/fill && exec $REPVIEW lr ro/m.fa"
    grep -q 'No space left' err && ok full_tmpfs_says_why || bad full_tmpfs_says_why "$(cat err)"
else
    echo "PASS read_only_dir_skipped (root without unshare: chmod cannot stop root)"
fi
# something in the way: a directory named m.fa.rvx is reported and left alone
mkdir -p way && cp m.fa way/ && mkdir way/m.fa.rvx
$R lr way/m.fa >got 2>err; rc=$?
[ $rc -eq 0 ] && cmp -s got <(echo "$want") && [ -d way/m.fa.rvx ] && [ "$(wc -l <err)" -eq 1 ] &&
    ok dir_in_the_way || bad dir_in_the_way "exit $rc: $(cat err)"
no_leftovers no_leftovers_failures

# The answer comes first: a pipe's reader sees its end before the save is done.
rm -f m.fa.rvx
t0=$(date +%s%N)
REPVIEW_SAVE_DELAY_MS=1500 $REPVIEW lr m.fa | { cat >got; date +%s%N >eof_at; }
t1=$(date +%s%N)
eof_ms=$(( ($(cat eof_at) - t0) / 1000000 )); total_ms=$(( (t1 - t0) / 1000000 ))
[ $eof_ms -lt 1000 ] && [ $total_ms -ge 1500 ] && [ -s m.fa.rvx ] && cmp -s got <(echo "$want") &&
    ok answer_before_save || bad answer_before_save "reader's end after ${eof_ms} ms, total ${total_ms} ms"

# Ctrl-C (or SIGTERM) during the save: the signal's status, the answer complete,
# no file and nothing half-written.  (Job control on: a background job of a script
# would otherwise start with SIGINT ignored, and repview leaves ignored signals be.)
# A caller that started this test in the background of a non-interactive shell
# (nohup make test &) left SIGINT ignored, which repview keeps and job control
# cannot undo: the child gets the default action back where env can give it.
set -m
dflt=
env --default-signal=INT true 2>/dev/null && dflt="env --default-signal=INT"
for sig in INT TERM; do
    rm -f m.fa.rvx
    REPVIEW_SAVE_DELAY_MS=5000 $dflt $REPVIEW lr m.fa >got 2>err &
    pid=$!
    for ((i = 0; i < 200; i++)); do [ -n "$(leftovers)" ] && break; sleep 0.02; done
    sleep 0.1; kill -$sig $pid; wait $pid; rc=$?
    want_rc=$((128 + $(kill -l $sig)))
    [ $rc -eq $want_rc ] && cmp -s got <(echo "$want") && [ ! -e m.fa.rvx ] && [ -z "$(leftovers)" ] &&
        ok "sig${sig}_during_save" || bad "sig${sig}_during_save" "exit $rc (want $want_rc), $(ls | tr '\n' ' ')"
done
# ... and during `repview index` too
REPVIEW_SAVE_DELAY_MS=5000 $dflt $REPVIEW index --quiet m.fa &
pid=$!
for ((i = 0; i < 200; i++)); do [ -n "$(leftovers)" ] && break; sleep 0.02; done
sleep 0.1; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] && [ ! -e m.fa.rvx ] && [ -z "$(leftovers)" ] && ok sigINT_during_index ||
    bad sigINT_during_index "exit $rc, $(ls | tr '\n' ' ')"
set +m

# Concurrent commands on the same file: one valid index, every answer right
touch m.fa; $R index --quiet -o ref.rvx m.fa # the input's time changed since
rm -f m.fa.rvx
for k in 1 2 3 4 5 6; do $R lr m.fa >"c$k" 2>"ce$k" & done
wait
bad_c=0
for k in 1 2 3 4 5 6; do cmp -s "c$k" <(echo "$want") && [ ! -s "ce$k" ] || bad_c=1; done
[ $bad_c -eq 0 ] && cmp -s m.fa.rvx ref.rvx && ok concurrent_one_valid_index ||
    bad concurrent_one_valid_index "$(cat ce*)"
no_leftovers no_leftovers_concurrent

# The explorer: saves in the background once ready and says where and how large;
# the next open loads it; --no-save, REPVIEW_NO_SAVE and the bundled sample do not
rm -f m.fa.rvx
scr=$($R --keys '' --dump --wait-index --size 200x12 m.fa 2>err)
grep -q 'index ready: .*; saved m.fa.rvx ([0-9]* kB)' <<<"$scr" && [ -s m.fa.rvx ] && [ ! -s err ] &&
    ok explorer_saves || bad explorer_saves "$(tail -1 <<<"$scr") $(cat err)"
cmp -s m.fa.rvx ref.rvx && ok explorer_kept_as_index_writes || bad explorer_kept_as_index_writes "differs"
t=$(mtime m.fa.rvx)
scr=$($R --keys '' --dump --wait-index --size 200x12 m.fa 2>&1)
grep -q 'index loaded from m.fa.rvx' <<<"$scr" && [ "$(mtime m.fa.rvx)" == "$t" ] &&
    ok explorer_reopen_loads || bad explorer_reopen_loads "$(tail -1 <<<"$scr")"
rm -f m.fa.rvx
$R --no-save --keys '' --dump --wait-index m.fa >/dev/null 2>&1
REPVIEW_NO_SAVE=1 $R --keys '' --dump --wait-index m.fa >/dev/null 2>&1
[ ! -e m.fa.rvx ] && ok explorer_no_save || bad explorer_no_save "m.fa.rvx written"
HOME=$T $R --keys '' --dump --wait-index >/dev/null 2>&1
[ ! -e "$RV_TOP/samples/lambda.fa.gz.rvx" ] && ok explorer_sample_not_saved || bad explorer_sample_not_saved "sample index written"
touch -d '2001-01-01' m.fa; $R lr m.fa >/dev/null; touch m.fa; $R index --quiet -o ref.rvx m.fa
scr=$($R --keys '' --dump --wait-index --size 200x12 m.fa 2>&1)
grep -q 'stale index.*; rebuilding it; index ready: .*; saved m.fa.rvx' <<<"$scr" &&
    ok explorer_rewrites_stale || bad explorer_rewrites_stale "$(tail -1 <<<"$scr")"
scr=$(bash -c "ulimit -f 8; exec $REPVIEW --keys '' --dump --wait-index --size 200x12 ro/m.fa" 2>&1)
grep -q 'cannot save the index to ro/m.fa.rvx: File too large; continuing without it' <<<"$scr" &&
    [ ! -e ro/m.fa.rvx ] && ok explorer_full_disk_note || bad explorer_full_disk_note "$(tail -1 <<<"$scr")"
no_leftovers no_leftovers_explorer

# On a terminal: q while saving waits for the file (saying so), a second q quits
# at once and leaves nothing behind.
if command -v tmux >/dev/null; then
    sock="$T/tmux.sock"
    tm() { tmux -S "$sock" "$@"; }
    trap 'tm kill-server 2>/dev/null' EXIT
    tm new-session -d -s hold 'sleep 600'
    wait_screen() { # NAME TEXT
        for ((i = 0; i < 200; i++)); do tm capture-pane -p -t rv | grep -qF -- "$2" && { ok "$1"; return 0; }; sleep 0.05; done
        bad "$1" "no '$2': $(tm capture-pane -p -t rv | tail -2 | tr '\n' '|')"; return 1
    }
    start() {
        rm -f m.fa.rvx exit.txt; tm kill-session -t rv 2>/dev/null
        tm new-session -d -x 120 -y 30 -s rv "cd '$T' && REPVIEW_SAVE_DELAY_MS=$1 TERM=xterm-256color '$REPVIEW' m.fa 2>err.txt; echo EXIT=\$? >exit.txt; sleep 30"
    }
    wait_exit() { for ((i = 0; i < ${1:-100}; i++)); do [ -s exit.txt ] && return; sleep 0.05; done; }
    start 4000
    wait_screen tmux_saving 'index ready, saving it'
    tm send-keys -t rv q
    wait_screen tmux_quit_waits 'quitting when done (q again quits without it)'
    wait_exit 200
    [ "$(cat exit.txt 2>/dev/null)" == EXIT=0 ] && cmp -s m.fa.rvx ref.rvx && ok tmux_quit_after_save ||
        bad tmux_quit_after_save "$(cat exit.txt err.txt 2>&1)"
    start 20000
    wait_screen tmux_saving_long 'index ready, saving it'
    tm send-keys -t rv q; sleep 0.2; tm send-keys -t rv q
    wait_exit 40
    [ "$(cat exit.txt 2>/dev/null)" == EXIT=0 ] && [ ! -e m.fa.rvx ] && [ -z "$(leftovers)" ] &&
        grep -q 'quit while saving the index; m.fa.rvx not written' err.txt && ok tmux_second_q_drops_save ||
        bad tmux_second_q_drops_save "$(cat exit.txt err.txt 2>&1) $(leftovers)"
    start 20000
    wait_screen tmux_saving_ctrl_c 'index ready, saving it'
    tm send-keys -t rv C-c
    wait_exit 40
    [ "$(cat exit.txt 2>/dev/null)" == EXIT=130 ] && [ ! -e m.fa.rvx ] && [ -z "$(leftovers)" ] &&
        ok tmux_ctrl_c_drops_save || bad tmux_ctrl_c_drops_save "$(cat exit.txt err.txt 2>&1)"
else
    echo "PASS tmux_quit_while_saving_skipped (no tmux)"
fi
