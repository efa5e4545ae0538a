# fault_matrix.sh — hostile things in the index's place, foreign, truncated and
# damaged indexes, kills and races that leave temporaries, read-only and full places,
# closed outputs, scripted mode on bad inputs, and memory limits.  Every case runs the
# real binary under a timeout and fails on a hang, a crash (a signal), a wrong answer
# (against a clean --no-save run of the same query on a copy of the input) or a file
# left behind.  faults.sh (kill -9 of index and of the explorer's save, a reader
# during a rewrite, FIFO input), keep.sh (saving into read-only, full and blocked
# places, concurrent commands), rvx.sh (one flip per section kind) and bad_input.sh
# (bad inputs of the subcommands, /dev/full for find, sa and stats) hold the rest.
# About 45 s on 2 busy cores.
. "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE
cd "${T:?}" || exit 1
TO=30
R="timeout $TO $REPVIEW"
"$RV_BUILD/gen_chrom" --kind dna 200k 7 >g.fa || { bad matrix_input "gen_chrom failed"; exit 0; }
awk 'NR > 1 && NR < 60' g.fa | { echo ">two"; cat; } >>g.fa # a second record: a copy
cp g.fa ref.fa
Q=("lr --bedgraph @" "pairs -l 30 @" "tandem @" "sa --rows 3 --around chrSyn:150000 @"
   "lce @ chrSyn:1000 two:1")
for k in "${!Q[@]}"; do REPVIEW_NO_SAVE=1 $R ${Q[k]//@/ref.fa} >"want$k" 2>/dev/null; done
leftovers() { ls -d g.fa.rvx.tmp.* g.fa.rvx.saving.* 2>/dev/null | tr '\n' ' '; }

# status NAME RC: 1 (and a FAIL line) for a hang or a crash
status() {
    if [ "$2" = 124 ]; then bad "$1" "hang (no end in ${TO} s)"; return 1; fi
    if [ "$2" -ge 128 ]; then bad "$1" "killed by signal $(($2 - 128))"; return 1; fi
    return 0
}
# answer NAME K: query K on g.fa exits 0 in time with the clean answer
answer() {
    local rc
    $R ${Q[$2]//@/g.fa} >out 2>err; rc=$?
    status "$1" $rc || return 1
    [ $rc = 0 ] || { bad "$1" "exit $rc: $(head -c 200 err)"; return 1; }
    cmp -s out "want$2" || { bad "$1" "the answer differs from a clean --no-save run"; return 1; }
}
# all_answers NAME: every query right, nothing left behind; one PASS line
all_answers() {
    for k in "${!Q[@]}"; do answer "$1_q$k" "$k" || return; done
    [ -z "$(leftovers)" ] && ok "$1" || bad "$1" "left behind: $(leftovers)"
}
# check_fails NAME WHY: index --check exits 1 in time with one line naming WHY
check_fails() {
    local rc
    $R index --check g.fa >out 2>err; rc=$?
    status "$1" $rc || return 1
    [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "^repview: .*$2" err && return 0
    bad "$1" "exit $rc: $(head -c 200 err)"; return 1
}

# ---- things in the index's place: never a hang, the answers, left as they were ----
$REPVIEW index --quiet g.fa && cp g.fa.rvx good.rvx
for kind in fifo directory device_link read_only; do
    rm -rf g.fa.rvx
    case $kind in
    fifo) mkfifo g.fa.rvx ;;
    directory) mkdir g.fa.rvx ;;
    device_link) ln -s /dev/zero g.fa.rvx ;;
    read_only) cp good.rvx g.fa.rvx && chmod 0444 g.fa.rvx ;;
    esac
    was=$(stat -c '%F %s %Y %a' g.fa.rvx)
    all_answers "odd_${kind}_answers"
    if [ $kind = read_only ]; then expect_exit "odd_${kind}_check" 0 $R index --check g.fa
    else check_fails "odd_${kind}_check" "not a regular file" && ok "odd_${kind}_check"; fi
    $R --keys '' --dump --wait-index --size 80x12 g.fa >screen 2>err; rc=$?
    status "odd_${kind}_explorer" $rc && { [ $rc = 0 ] && grep -q 'chrSyn' screen && ok "odd_${kind}_explorer" ||
        bad "odd_${kind}_explorer" "exit $rc: $(head -c 200 err)"; }
    [ "$(stat -c '%F %s %Y %a' g.fa.rvx)" = "$was" ] && ok "odd_${kind}_left_alone" || bad "odd_${kind}_left_alone" "changed"
done
rm -rf g.fa.rvx

# ---- another text's index: the same record names and lengths, other bases ----
awk 'NR == 2 { $0 = "TTTT" substr($0, 5) } { print }' g.fa >other.fa
$REPVIEW index --quiet -o other.rvx other.fa && cp other.rvx g.fa.rvx
check_fails foreign_index_check "stale index" && ok foreign_index_check
all_answers foreign_index_answers
expect_exit foreign_index_rewritten 0 $R index --check g.fa

# ---- truncations and byte flips at many offsets, the padding included ----
# offsets: every header field, the table, the header's padding, and in every
# section its first, middle and last byte and the padding after it, the block hashes
cp good.rvx g.fa.rvx
python3 - good.rvx >offsets <<'EOF' || bad flip_offsets "python3 failed"
import struct, sys
b = open(sys.argv[1], 'rb').read()
n = len(b)
offs = set(range(0, 200, 8)) | {3500, 4095, n - 1} | {n * i // 40 for i in range(1, 40)}
# the layout of rvx_format.h (header size at 12, sections at 28, block hashes at
# 104): each section's ends, middle and the padding after it, when it reads sanely
hb, ns = struct.unpack_from('<II', b, 12)[0], struct.unpack_from('<I', b, 28)[0]
hash_off, n_hashes = struct.unpack_from('<QQ', b, 104)
table = [struct.unpack_from('<IIQQQ', b, hb + 32 * i) for i in range(ns)] if hb + 32 * ns < 4096 else []
if table and all(e[2] % 8 == 0 and e[2] + e[3] <= n for e in table) and hash_off + 8 * n_hashes == n:
    offs |= {hb + 32 * i + 9 for i in range(ns)} | {hb + 32 * ns + 5, hash_off}
    for _, _, off, size, _ in table:
        if size:
            offs |= {off, off + size // 2, off + size - 1}
        if (off + size) % 4096:
            offs.add(off + size + 3)
print(' '.join(str(o) for o in sorted(offs) if o < n))
EOF
len=$(stat -c %s good.rvx)
n_flip=0 flip_bad=0
# flip_copy SRC AT: g.fa.rvx is SRC with the byte at AT flipped
flip_copy() {
    cp "$1" g.fa.rvx
    printf "$(printf '\\%03o' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 0x41 )))" |
        dd of=g.fa.rvx bs=1 seek="$2" conv=notrunc 2>/dev/null
}
for at in $(cat offsets); do
    flip_copy good.rvx "$at"
    n_flip=$((n_flip + 1))
    check_fails "flip_at_${at}_check" "" || { flip_bad=1; continue; }
    answer "flip_at_${at}_answer" $((n_flip % ${#Q[@]})) || flip_bad=1
done
[ $flip_bad = 0 ] && ok "byte_flips_found ($n_flip offsets)"
trunc_bad=0
for cut in 0 7 16 119 120 3000 4096 4097 $((len / 3)) $((len / 2)) $((len - 8)) $((len - 1)); do
    head -c "$cut" good.rvx >g.fa.rvx
    check_fails "truncated_to_${cut}_check" "" || { trunc_bad=1; continue; }
    answer "truncated_to_${cut}_answer" $((cut % ${#Q[@]})) || trunc_bad=1
done
[ $trunc_bad = 0 ] && ok truncations_found
# a wide index (64-bit arrays, a test hook) keeps its SA in 5 bytes a rank (section
# 12, SA40), expanded and verified when the file is opened: flips in its head, body
# and padding and a truncation inside it are found, the answers stay right
export REPVIEW_FORCE_WIDE=1
$REPVIEW index --quiet -o wide.rvx g.fa
read -r sa40_off sa40_n < <(python3 -c "
import struct
b = open('wide.rvx', 'rb').read()
hb, ns = struct.unpack_from('<I', b, 12)[0], struct.unpack_from('<I', b, 28)[0]
e = [struct.unpack_from('<IIQQQ', b, hb + 32 * i) for i in range(ns)]
print(*[(x[2], x[3]) for x in e if x[0] == 12][0])")
wide_bad=0 n_wide=0
for at in $sa40_off $((sa40_off + 9)) $((sa40_off + 16)) $((sa40_off + sa40_n / 3)) $((sa40_off + sa40_n - 1)); do
    flip_copy wide.rvx "$at"
    n_wide=$((n_wide + 1))
    check_fails "wide_flip_at_${at}_check" "checksum mismatch in SA section 12" || { wide_bad=1; continue; }
    answer "wide_flip_at_${at}_answer" $((n_wide % ${#Q[@]})) || wide_bad=1
done
head -c $((sa40_off + sa40_n / 2)) wide.rvx >g.fa.rvx
check_fails wide_truncated_check "truncated" && answer wide_truncated_answer 3 || wide_bad=1
cp wide.rvx g.fa.rvx
expect_exit wide_intact_check 0 $R index --check g.fa
all_answers wide_intact_answers
[ $wide_bad = 0 ] && ok "wide_sa40_flips_found ($n_wide offsets)"
unset REPVIEW_FORCE_WIDE
# the first page lost with the machine (the header is written last, unsynced): the
# file is ours and damaged, so a query answers and rewrites it, never "foreign"
{ head -c 4096 /dev/zero; tail -c +4097 good.rvx; } >g.fa.rvx
check_fails lost_header_check "header is missing" && ok lost_header_check
answer lost_header_answer 0 && $R index --check g.fa >/dev/null 2>&1 && ok lost_header_rewritten ||
    bad lost_header_rewritten "the index was not rebuilt: $(head -c 200 err)"
[ -z "$(leftovers)" ] && ok damage_nothing_left || bad damage_nothing_left "$(leftovers)"

# ---- kill -9 during a build, then a query: the query removes what the dead left ----
"$RV_BUILD/gen_chrom" --kind dna 3m 9 >k.fa
REPVIEW_NO_SAVE=1 $R lce k.fa chrSyn:1000 chrSyn:2000000 >want_k 2>/dev/null
kleft() { ls -d k.fa.rvx.tmp.* k.fa.rvx.saving.* 2>/dev/null | tr '\n' ' '; }
for d in 0.1 0.4 0.8 1.2; do
    rm -f k.fa.rvx
    $REPVIEW index --cpu --quiet k.fa & pid=$!
    sleep "$d"; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    got=$($R lce k.fa chrSyn:1000 chrSyn:2000000 2>/dev/null)
    [ "$got" = "$(cat want_k)" ] && [ -z "$(kleft)" ] && ok "kill9_index_${d}s_then_query" ||
        bad "kill9_index_${d}s_then_query" "answer [$got], left: $(kleft)"
done
# a query that keeps its index, killed while saving (held before the rename)
rm -f k.fa.rvx
REPVIEW_SAVE_DELAY_MS=3000 $REPVIEW lr --bedgraph k.fa chrSyn:1-1000 >/dev/null 2>&1 & pid=$!
for i in $(seq 600); do [ -n "$(kleft)" ] && break; sleep 0.05; done # the build first
n=$(kleft | wc -w)
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
got=$($R lce k.fa chrSyn:1000 chrSyn:2000000 2>/dev/null)
[ "$n" -gt 0 ] && [ "$got" = "$(cat want_k)" ] && [ -z "$(kleft)" ] && ok kill9_save_then_query ||
    bad kill9_save_then_query "saving seen: $n, answer [$got], left: $(kleft)"

# ---- races: two builds at once; a build racing queries, which never take its file ----
rm -f g.fa.rvx
$REPVIEW index --quiet g.fa 2>e1 & p1=$!
$REPVIEW index --quiet g.fa 2>e2 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && $R index --check g.fa >/dev/null 2>&1 && [ -z "$(leftovers)" ] &&
    ok two_builds_at_once || bad two_builds_at_once "exits $r1 $r2: $(cat e1 e2 | head -c 200) $(leftovers)"
rm -f g.fa.rvx
REPVIEW_SAVE_DELAY_MS=1500 $REPVIEW index --quiet g.fa 2>e1 & pid=$!
race_bad=0
for i in 1 2 3 4; do answer "build_racing_query_$i" $((i % ${#Q[@]})) || race_bad=1; sleep 0.2; done
wait $pid; rc=$?
[ $race_bad = 0 ] && [ $rc = 0 ] && $R index --check g.fa >/dev/null 2>&1 && [ -z "$(leftovers)" ] &&
    ok build_racing_queries || bad build_racing_queries "index exit $rc: $(head -c 200 e1) $(leftovers)"

# ---- a read-only directory and a full disk: index fails in one line, leaves nothing ----
# index_fails NAME DIR WHY CMD...: exit 1, one line naming WHY, no FILE.rvx, no temporary
index_fails() {
    local name=$1 dir=$2 why=$3 rc; shift 3
    "$@" >out 2>err; rc=$?
    status "$name" $rc || return
    if [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "^repview: .*$why" err &&
        [ -z "$(ls "$dir" | grep -v '^g\.fa$\|^fill$')" ]; then ok "$name"
    else bad "$name" "exit $rc: $(head -c 200 err); in $dir: $(ls "$dir" | tr '\n' ' ')"; fi
}
mkdir -p ro && cp g.fa ro/
if [ "$(id -u)" -ne 0 ]; then
    chmod a-w ro
    index_fails read_only_dir_index ro "Permission denied" $R index g.fa
    chmod u+w ro
    echo "PASS full_disk_skipped (mounting a tmpfs needs root)"
elif unshare -m true 2>/dev/null; then
    index_fails read_only_dir_index ro "Read-only file system" unshare -m sh -c \
        "mount --bind ro ro && mount -o remount,bind,ro ro && exec $R index ro/g.fa"
    mkdir -p full
    if unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs full" 2>/dev/null; then
        index_fails full_disk_index full "No space left" unshare -m sh -c \
            "mount -t tmpfs -o size=1m tmpfs full && cp g.fa full/ && exec $R index full/g.fa"
        unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs full && cp g.fa full/ &&
            $R ${Q[1]//@/full/g.fa} >got 2>err; echo \$? >rc; ls full >left"
        [ "$(cat rc)" = 0 ] && cmp -s got want1 && [ "$(cat left)" = g.fa ] && ok full_disk_query ||
            bad full_disk_query "exit $(cat rc): $(head -c 200 err); left: $(cat left)"
    else
        echo "PASS full_disk_skipped (cannot mount a tmpfs here)"
    fi
else
    echo "PASS read_only_dir_skipped (root without unshare: chmod cannot stop root)"
    echo "PASS full_disk_skipped (cannot mount a tmpfs here)"
fi

# ---- closed stdout, /dev/full, a broken pipe: never success, one line, nothing left ----
out_bad=0
for k in 0 1 2; do
    for how in closed full; do
        rm -f g.fa.rvx
        if [ $how = closed ]; then $R ${Q[k]//@/g.fa} >&- 2>err; else $R ${Q[k]//@/g.fa} >/dev/full 2>err; fi
        rc=$?
        status "output_${how}_q$k" $rc || { out_bad=1; continue; }
        [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q '^repview: ' err && [ -z "$(leftovers)" ] ||
            { bad "output_${how}_q$k" "exit $rc: $(head -c 200 err) $(leftovers)"; out_bad=1; }
        ! [ -e g.fa.rvx ] || $R index --check g.fa >/dev/null 2>&1 || { bad "output_${how}_q$k" "a damaged index kept"; out_bad=1; }
    done
    rm -f g.fa.rvx
    $R ${Q[k]//@/g.fa} 2>err | head -c 10 >/dev/null; rc=${PIPESTATUS[0]}
    # SIGPIPE ends it as it ends any writer (141), or it says so in one line; a short
    # answer may be written whole before the reader leaves (0)
    { [ $rc = 141 ] || [ $rc = 0 ] || { [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ]; }; } && [ -z "$(leftovers)" ] ||
        { bad "broken_pipe_q$k" "exit $rc: $(head -c 200 err) $(leftovers)"; out_bad=1; }
    ! [ -e g.fa.rvx ] || $R index --check g.fa >/dev/null 2>&1 || { bad "broken_pipe_q$k" "a damaged index kept"; out_bad=1; }
done
for how in closed full; do
    if [ $how = closed ]; then $R --keys '' --dump g.fa >&- 2>err; else $R --keys '' --dump g.fa >/dev/full 2>err; fi
    rc=$?
    [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] || { bad "output_${how}_explorer" "exit $rc: $(head -c 200 err)"; out_bad=1; }
done
[ $out_bad = 0 ] && ok closed_full_and_broken_outputs

# ---- scripted mode (--dump) on each kind of bad input: its exit status, one line ----
: >empty.fa
head -c 3000 /dev/urandom >garbage.fa
printf 'ACGTACGT\nACGT\n' >noheader.fa
gzip -c k.fa | head -c 200000 >trunc.fa.gz
printf '@r1\nACGT\n+\nII\n' >bad.fq
bgzip -c k.fa >bgz.fa.gz && cp bgz.fa.gz bgzfai.fa.gz
$REPVIEW --no-save --keys '' --dump bgzfai.fa.gz >/dev/null 2>&1 # its .fai and .gzi
python3 -c '
import sys
for f in sys.argv[1:]:
    b = bytearray(open(f, "rb").read())
    for i in range(len(b) // 2, len(b) // 2 + 64): b[i] ^= 0x55
    open(f, "wb").write(b)' bgz.fa.gz bgzfai.fa.gz
for f in empty.fa garbage.fa noheader.fa trunc.fa.gz bgz.fa.gz bgzfai.fa.gz bad.fq; do
    # htslib's decompression threads leak 32 bytes on a corrupt block (stats and lr
    # too): a sanitizer build is told not to count leaks there
    leaks=1; [[ $f == bgz* ]] && leaks=0
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks" \
        expect_exit "dump_bad_${f//./_}" 1 $R --no-save --keys '' --dump --size 80x10 "$f"
done
expect_exit dump_reversed_region 2 $R --no-save --keys '' --dump g.fa chrSyn:10-5
expect_exit dump_unknown_record 2 $R --no-save --keys '' --dump g.fa nochr:1-5
expect_exit dump_good_input 0 $R --no-save --keys 'l' --dump g.fa chrSyn:10-50

# ---- memory limits: the status, and one line naming the command, stage and size ----
# (limits from where the program cannot start to where it succeeds; a limit too low
# for the dynamic loader says so in its own words and is passed over)
oom_bad=0 n_oom=0
memory_limits() {
    for cmd in index lr tandem pairs dump; do
        for v in 60000 90000 120000 150000 180000 250000; do
            case $cmd in
            index) args="index -t 2 -o lim.rvx k.fa" who=index ;;
            pairs) args="pairs -t 2 --no-save -l 30 k.fa" who=pairs ;;
            dump) args="-t 2 --no-save --keys '' --dump --wait-index k.fa" who=k.fa ;;
            *) args="$cmd -t 2 --no-save k.fa" who=$cmd ;;
            esac
            bash -c "ulimit -v $v; exec timeout $TO $REPVIEW $args" >/dev/null 2>err; rc=$?
            grep -q 'error while loading shared libraries\|failed to map segment' err && continue
            status "memory_${cmd}_$v" $rc || { oom_bad=1; continue; }
            [ $rc = 0 ] && continue
            if [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] &&
                grep -qE "^repview: $who: out of memory \([0-9]+ [kM]B for the [^()]+\)$" err; then
                n_oom=$((n_oom + 1))
            else bad "memory_${cmd}_$v" "exit $rc: $(head -c 200 err)"; oom_bad=1; fi
        done
    done
    rm -f lim.rvx*
    [ $oom_bad = 0 ] && [ $n_oom -ge 3 ] && ok "memory_limits ($n_oom out of memory)" ||
        { [ $oom_bad = 1 ] || bad memory_limits "only $n_oom runs ran out of memory"; }
}
if grep -aq __asan_init "$REPVIEW"; then # ASan reserves terabytes of address space
    echo "PASS memory_limits_skipped (a sanitizer build cannot start under ulimit -v)"
else
    memory_limits
fi
