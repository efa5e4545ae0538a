# faults.sh — the fault matrix: kill -9 at random moments of `repview index` and of
# the explorer's background save, a reader while the index is rewritten, an input
# edited in place without changing its size or modification time, input from a FIFO
# and from stdin.  Each: the right exit status, nothing half-written trusted, no
# answer ever different from a fresh build's.  (A full disk, a read-only directory,
# concurrent writers and Ctrl-C are in keep.sh.)
. "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE
cd "${T:?}" || exit 1
R="timeout 120 $REPVIEW"
"$RV_BUILD/gen_chrom" --kind dna 8m 3 >g.fa || { bad faults_input "gen_chrom failed"; exit 0; }
cp g.fa ref.fa
$R sa --no-save --rows 4 --around 4000000 ref.fa >want.txt 2>/dev/null
$R lce --no-save ref.fa chrSyn:1000 chrSyn:2000000 >want_lce.txt 2>/dev/null

leftovers() { ls -d g.fa.rvx.tmp.* g.fa.rvx.saving.* 2>/dev/null; }
# after a kill: no file, or one that checks whole, and the same answer from it
after_kill() { # NAME
    if [ -e g.fa.rvx ] && ! $R index --check g.fa >/dev/null 2>&1; then bad "$1" "a damaged g.fa.rvx was left"; return; fi
    local got; got=$($R sa --rows 4 --around 4000000 g.fa 2>/dev/null)
    [ "$got" == "$(cat want.txt)" ] && ok "$1" || bad "$1" "different answer after the kill"
}

# kill -9 during `repview index`, at moments spread over its run
for d in 0.05 0.3 0.6 0.9 1.3 2.0; do
    rm -f g.fa.rvx
    $REPVIEW index --cpu --quiet g.fa & pid=$!
    sleep "$d"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    after_kill "kill9_index_after_${d}s"
done
# the dead writers' temporaries: removed by the next writer (their PIDs are gone and
# nobody holds their locks); one whose lock a live process holds (a writer on
# another host, its PID unknown here) is kept until the lock is free, and then a
# query removes it
n=$(leftovers | wc -l)
$R index --cpu --quiet g.fa
[ "$(leftovers | wc -l)" -eq 0 ] && ok "dead_temporaries_swept ($n found)" || bad dead_temporaries_swept "$(leftovers | tr '\n' ' ')"
touch g.fa.rvx.tmp.999999999.1
flock g.fa.rvx.tmp.999999999.1 sleep 3 & fl=$!
sleep 0.3
$R index --cpu --quiet g.fa
[ -e g.fa.rvx.tmp.999999999.1 ] && ok locked_temporary_kept || bad locked_temporary_kept "removed"
wait $fl
$R lce g.fa chrSyn:1000 chrSyn:2000000 >/dev/null 2>&1
[ ! -e g.fa.rvx.tmp.999999999.1 ] && ok unlocked_temporary_swept_by_query || bad unlocked_temporary_swept_by_query "kept"

# kill -9 of the explorer while it saves in the background
for d in 0.4 1.0 1.6; do
    rm -f g.fa.rvx
    $REPVIEW --cpu --keys '' --dump --wait-index --size 80x12 g.fa >/dev/null 2>&1 & pid=$!
    sleep "$d"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    after_kill "kill9_explorer_save_after_${d}s"
done
$R index --cpu --quiet g.fa # a writer of g.fa.rvx: it sweeps first
[ "$(leftovers | wc -l)" -eq 0 ] && ok explorer_leftovers_swept || bad explorer_leftovers_swept "$(leftovers | tr '\n' ' ')"

# a reader while the index is rewritten: it reads the old file or builds, never half of one
$R index --cpu --quiet g.fa
$REPVIEW index --cpu --quiet g.fa & pid=$!
same=1
for k in 1 2 3 4 5 6; do
    [ "$($R sa --no-save --rows 4 --around 4000000 g.fa 2>/dev/null)" == "$(cat want.txt)" ] || same=0
    sleep 0.15
done
wait $pid; rc=$?
[ $same = 1 ] && [ $rc = 0 ] && $R index --check g.fa >/dev/null 2>&1 && ok reader_during_write || bad reader_during_write "same=$same index exit $rc"

# an edit in place: same size, one base changed, modification time set back. The
# fingerprint holds size, modification time, status-change time and inode; no tool
# sets the status-change time back, so the index is stale.
$R index --cpu --quiet g.fa
cp -p g.fa before.fa
printf 'G' | dd of=g.fa bs=1 seek=1000000 conv=notrunc 2>/dev/null
[ "$(head -c 1000001 g.fa | tail -c 1)" != "$(head -c 1000001 before.fa | tail -c 1)" ] || printf 'T' | dd of=g.fa bs=1 seek=1000000 conv=notrunc 2>/dev/null
touch -r before.fa g.fa
[ "$(stat -c '%s %Y' g.fa)" == "$(stat -c '%s %Y' before.fa)" ] || bad same_size_edit_setup "size or mtime differ"
cp g.fa fresh.fa
want=$($R sa --no-save --rows 4 --around 1000000 fresh.fa 2>/dev/null)
got=$($R sa --rows 4 --around 1000000 g.fa 2>err.txt)
grep -q 'stale index' err.txt && [ "$got" == "$want" ] && ok same_size_edit_caught || bad same_size_edit_caught "$(head -1 err.txt)"
cp before.fa g.fa

# input on a FIFO and on stdin: the same answers, nothing kept next to them
mkfifo pipe.fa
cat ref.fa >pipe.fa &
got=$($R sa --rows 4 --around 4000000 pipe.fa 2>err.txt); rc=$?
[ $rc = 0 ] && [ "$got" == "$(cat want.txt)" ] && [ ! -e pipe.fa.rvx ] && ok fifo_input || bad fifo_input "exit $rc: $(head -1 err.txt)"
got=$($R lce - chrSyn:1000 chrSyn:2000000 <ref.fa 2>err.txt); rc=$?
[ $rc = 0 ] && [ "$got" == "$(cat want_lce.txt)" ] && ok stdin_input || bad stdin_input "exit $rc: $(head -1 err.txt)"
expect_exit index_from_fifo_exit 0 $REPVIEW index --quiet -o fifo.rvx pipe.fa < /dev/null &
sleep 0.2; cat ref.fa >pipe.fa; wait
[ -s fifo.rvx ] && ok index_from_fifo || bad index_from_fifo "no fifo.rvx"

# kill -9 while `-o OUT` is being written: neither OUT nor a temporary appears (the
# output has no name until it is complete); a whole run gives what stdout gets, and
# so does the named-temporary fallback
$R pairs -l 40 --no-save ref.fa >pairs_want.bed 2>/dev/null
for d in 0.2 0.8 1.5; do
    rm -f out.bed*
    $REPVIEW pairs -l 40 --no-save -o out.bed ref.fa 2>/dev/null & pid=$!
    sleep "$d"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    left=$(ls out.bed* 2>/dev/null)
    if [ -z "$left" ] || { [ "$left" = out.bed ] && cmp -s out.bed pairs_want.bed; }; then ok "kill9_output_after_${d}s"
    else bad "kill9_output_after_${d}s" "left: $left"; fi
done
$R pairs -l 40 --no-save -o out.bed ref.fa 2>/dev/null
cmp -s out.bed pairs_want.bed && [ "$(ls out.bed*)" = out.bed ] && ok output_whole || bad output_whole "differs from stdout"
REPVIEW_TEMP_NAMED=1 $R pairs -l 40 --no-save -o named.bed ref.fa 2>/dev/null
cmp -s named.bed pairs_want.bed && [ "$(ls named.bed*)" = named.bed ] && ok output_named_fallback || bad output_named_fallback "differs"

# the same for a part (`--buckets I/N -o PART`): no name until complete, and its
# spills in TMPDIR none ever; a whole part and the named fallback merge as stdout
mkdir -p tmpd
for d in 0.8 2; do
    rm -f part.rvp*
    TMPDIR=$PWD/tmpd $REPVIEW pairs -l 40 --no-save --mem-budget 1m --buckets 1/1 -o part.rvp ref.fa 2>/dev/null & pid=$!
    sleep "$d"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    left=$(ls part.rvp* 2>/dev/null)
    if [ -n "$(ls -A tmpd)" ]; then bad "kill9_part_after_${d}s" "left in TMPDIR: $(ls -A tmpd | head -3)"
    elif [ -z "$left" ] || { [ "$left" = part.rvp ] && $R merge part.rvp 2>/dev/null | cmp -s - pairs_want.bed; }; then
        ok "kill9_part_after_${d}s"
    else bad "kill9_part_after_${d}s" "left: $left"; fi
done
for v in unnamed:0 named:1; do
    rm -f part.rvp*
    REPVIEW_TEMP_NAMED=${v#*:} $R pairs -l 40 --no-save --buckets 1/1 -o part.rvp ref.fa 2>/dev/null
    $R merge part.rvp 2>/dev/null | cmp -s - pairs_want.bed && [ "$(ls part.rvp*)" = part.rvp ] &&
        ok "part_whole_${v%%:*}" || bad "part_whole_${v%%:*}" "differs from stdout, or a temporary left"
done
# without /proc (a mount namespace of its own where it is unmounted: needs root
# and unshare, skipped otherwise) a file without a name could not get one: the
# output and a part take the named way.  A sanitizer build cannot check leaks
# there (LeakSanitizer lists threads in /proc, and reads ASAN_OPTIONS from it,
# so it cannot be told not to): its exit status 1 counts when LeakSanitizer's
# fatal error is the only thing it printed; the files are checked either way.
if unshare -m sh -c 'umount -l /proc' 2>/dev/null; then
    rm -f noproc.bed noproc.rvp
    unshare -m sh -c "umount -l /proc || exit
        $R pairs -l 40 --no-save -o noproc.bed ref.fa 2>err_noproc_o; echo \$? >rc_noproc_o
        $R pairs -l 40 --no-save --buckets 1/1 -o noproc.rvp ref.fa 2>err_noproc_p; echo \$? >rc_noproc_p"
    noproc_ok() {   # exit status file, stderr file
        [ "$(cat "$1")" = 0 ] && return 0
        grep -q 'LeakSanitizer has encountered a fatal error' "$2" &&
            ! grep -v '^==[0-9]*==' "$2" | grep -q .
    }
    noproc_ok rc_noproc_o err_noproc_o && cmp -s noproc.bed pairs_want.bed &&
        [ "$(ls noproc.bed*)" = noproc.bed ] && ok output_without_proc ||
        bad output_without_proc "exit $(cat rc_noproc_o): $(head -c 200 err_noproc_o)"
    noproc_ok rc_noproc_p err_noproc_p && $R merge noproc.rvp 2>/dev/null | cmp -s - pairs_want.bed &&
        [ "$(ls noproc.rvp*)" = noproc.rvp ] && ok part_without_proc ||
        bad part_without_proc "exit $(cat rc_noproc_p): $(head -c 200 err_noproc_p)"
else
    echo "faults.sh: no mount namespace here (unshare -m): the runs without /proc are skipped" >&2
fi
