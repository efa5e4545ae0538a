# rvx.sh — the .rvx index file: written atomically, reused when it matches, and a
# stale, truncated, corrupt, foreign or other-version file is reported in one line
# and rebuilt (never trusted, never a crash) — repview-index(1).
. "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE # a damaged file is rewritten by the next command that builds
R="timeout 60 $REPVIEW"
cd "${T:?}" || exit 1
cp "$RV_TOP/samples/lambda.fa.gz" l.fa.gz
$R sa --rows 5 --around 1000 l.fa.gz > want.txt 2>/dev/null

expect_exit index_writes 0 $R index --quiet l.fa.gz
[ -s l.fa.gz.rvx ] && ok index_file_exists || bad index_file_exists "no l.fa.gz.rvx"
ls l.fa.gz.rvx.tmp.* >/dev/null 2>&1 && bad no_temp_left "temporary file left" || ok no_temp_left
expect_eq reused_up_to_date "$($R stats l.fa.gz | grep '^# index:' | cut -d, -f1)" "# index: l.fa.gz.rvx up to date"
expect_eq reused_same_answer "$($R sa --rows 5 --around 1000 l.fa.gz 2>&1)" "$(cat want.txt)"
$R index --quiet -o other.rvx l.fa.gz && [ -s other.rvx ] && ok index_output_option || bad index_output_option "no other.rvx"
expect_exit index_stdin_needs_output 2 $R index - <l.fa.gz

damage() { # NAME EXPECTED_WORD COMMAND-TO-DAMAGE
    local name=$1 word=$2; shift 2
    $R index --quiet l.fa.gz; "$@"
    $R sa --rows 5 --around 1000 l.fa.gz >got.txt 2>err.txt; local rc=$?
    if [ $rc -ne 0 ]; then bad "$name" "exit $rc: $(cat err.txt)"; return; fi
    if ! cmp -s got.txt want.txt; then bad "$name" "different answer after damage"; return; fi
    if [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q "$word" err.txt; then
        bad "$name" "report is not one line with '$word': $(cat err.txt)"; return; fi
    ok "$name"
}
flip() { python3 -c "
import sys
b = bytearray(open('l.fa.gz.rvx','rb').read()); f = $1; b[int(len(b)*f) if f < 1 else int(f)] ^= 0x10
open('l.fa.gz.rvx','wb').write(b)"; }
damage stale stale touch -d '2001-01-01' l.fa.gz
damage truncated truncated truncate -s 100000 l.fa.gz.rvx
damage truncated_header truncated truncate -s 40 l.fa.gz.rvx
damage corrupt_section corrupt flip 0.6
damage corrupt_header corrupt flip 20
damage corrupt_table corrupt flip 100
damage empty_file empty truncate -s 0 l.fa.gz.rvx
damage other_version "index format 99" python3 -c "
b = bytearray(open('l.fa.gz.rvx','rb').read()); b[8] = 99; open('l.fa.gz.rvx','wb').write(b)"
damage older_format "index format 3; rebuilding" python3 -c "
b = bytearray(open('l.fa.gz.rvx','rb').read()); b[8] = 3; open('l.fa.gz.rvx','wb').write(b)"
# after a rebuild the file is good again
$R index --quiet l.fa.gz; flip 0.5; $R stats l.fa.gz >/dev/null 2>&1
$R sa --rows 1 l.fa.gz >/dev/null 2>&1
expect_eq rebuilt_file_good "$($R stats l.fa.gz | grep '^# index:' | cut -d, -f1)" "# index: l.fa.gz.rvx up to date"

# a foreign file with that name is reported and left alone
head -c 3000 /dev/urandom > l.fa.gz.rvx; cp l.fa.gz.rvx foreign.copy
$R sa --rows 5 --around 1000 l.fa.gz >got.txt 2>err.txt
cmp -s got.txt want.txt && grep -q 'not a repview index' err.txt && ok foreign_reported || bad foreign_reported "$(cat err.txt)"
cmp -s l.fa.gz.rvx foreign.copy && ok foreign_not_overwritten || bad foreign_not_overwritten "file changed"
rm -f l.fa.gz.rvx

# 64-bit arrays round-trip through the file (REPVIEW_FORCE_WIDE is a test hook)
REPVIEW_FORCE_WIDE=1 $R index --quiet -o wide.rvx l.fa.gz
cp wide.rvx l.fa.gz.rvx
expect_eq wide_index_same_answer "$($R sa --rows 5 --around 1000 l.fa.gz 2>&1)" "$(cat want.txt)"

# ---- version 3: block hashes verified lazily ------------------------------------
# A generated chromosome large enough for many 64 KiB blocks per section
# (REPVIEW_RVX_BLOCK is a test hook).  For every section kind: flip one byte, then
# the command that reads it reports one line naming the checksum mismatch, gives
# the answer of the intact index, and leaves a rebuilt, intact file (lce, which
# needs only the sequence, reads the input instead, as when there is no index).
export REPVIEW_RVX_BLOCK=65536
"$RV_BUILD/gen_chrom" 200000 3 > g.fa 2>/dev/null
$R index --quiet g.fa
chk=$($R index --check g.fa); rc=$?
[ $rc -eq 0 ] && [[ "$chk" =~ ^g\.fa\.rvx:\ ok\ \([0-9]+\ sections,\ [0-9.]+\ GB\ verified\ in\ [0-9.]+\ s\)$ ]] \
    && ok check_intact || bad check_intact "exit $rc: $chk"
expect_eq check_names_rvx "$($R index --check g.fa.rvx | cut -d: -f1)" "g.fa.rvx"
cp g.fa.rvx g.good
$R sa --rows 3 --around 5000 g.fa > sa.want 2>/dev/null
$R lr g.fa chrSyn:1-3000 > lr.want 2>/dev/null
$R tandem g.fa > tandem.want 2>/dev/null
$R lce g.fa 100 5000 > lce.want 2>/dev/null
$R find g.fa ACGTACG > find.want 2>/dev/null
$R sa --rows 0 g.fa > all.want 2>/dev/null
# id offset bytes of every section (rvx_format.h: the header says its size, then
# 32-byte entries)
python3 - <<'PY' > sections
import struct
b = open('g.good', 'rb').read()
hb = struct.unpack_from('<I', b, 12)[0]
ns = struct.unpack_from('<I', b, 28)[0]
for i in range(ns):
    sid, _, off, n, _ = struct.unpack_from('<IIQQQ', b, hb + 32 * i)
    print(sid, off, n)
PY
flip_at() { python3 -c "
b = bytearray(open('g.fa.rvx','rb').read()); b[$1] ^= 0x21; open('g.fa.rvx','wb').write(b)"; }
cmd_for() { case $1 in 16|17|18) echo "lr g.fa chrSyn:1-3000 lr.want";; 24|25) echo "tandem g.fa tandem.want";;
    4|10) echo "lce g.fa 100 5000 lce.want";; 3|5|11) echo "find g.fa ACGTACG find.want";;
    *) echo "sa --rows 0 g.fa all.want";; esac; }
while read -r id off n; do
    [ "$n" -gt 0 ] || continue
    cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
    flip_at $((off + n / 2))
    set -- $(cmd_for "$id"); want=${!#}; set -- "${@:1:$#-1}"
    out=$($R "$@" 2>err.txt); rc=$?
    if [ $rc -ne 0 ]; then bad "damage_section_$id" "exit $rc: $(cat err.txt)"
    elif [ "$out" != "$(cat "$want")" ]; then bad "damage_section_$id" "wrong answer after damage"
    elif [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q 'corrupt' err.txt; then bad "damage_section_$id" "report: $(cat err.txt)"
    elif [ "$id" -ne 4 ] && [ "$id" -ne 10 ] && ! $R index --check g.fa >/dev/null 2>&1; then bad "damage_section_$id" "not rebuilt intact"
    else ok "damage_section_$id"; fi
    # --check names the damaged section and block (of the sections read whole at
    # open, the section)
    cp g.good g.fa.rvx; flip_at $((off + n / 2))
    if [ "$id" -le 2 ]; then expect_exit "check_damage_$id" 1 $R index --check g.fa; continue; fi
    if [ "$id" -eq 10 ] || [ "$id" -eq 11 ] || [ "$id" -eq 25 ]; then
        msg=$($R index --check g.fa 2>&1); rc=$?
        [ $rc -eq 1 ] && [[ "$msg" == *"checksum mismatch in "* ]] && ok "check_damage_$id" ||
            bad "check_damage_$id" "exit $rc: $msg"
        continue
    fi
    msg=$($R index --check g.fa 2>&1); rc=$?
    [ $rc -eq 1 ] && [[ "$msg" == *"checksum mismatch"*"section $id, block $(( n / 2 / 65536 )) of"* || \
        ( "$id" -eq 8 && "$msg" == *corrupt* ) ]] && ok "check_damage_$id" || bad "check_damage_$id" "exit $rc: $msg"
done < sections
# sa --around reads a few blocks: damage in them is found, damage elsewhere is not
# read (the answer is right) and --check still finds it.  The file has no ISA: the
# rank of the place is checked against the SA block that holds it
for id in 5; do
    cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
    read -r _ off n < <(grep "^$id " sections)
    at=$((off + 8285 * (n / 198507)))
    flip_at $at
    out=$($R sa --rows 3 --around 5000 g.fa 2>err.txt)
    [ "$out" = "$(cat sa.want)" ] && grep -q 'checksum mismatch' err.txt && [ "$(wc -l <err.txt)" -eq 1 ] \
        && ok "sa_rows_damage_found_$id" || bad "sa_rows_damage_found_$id" "$(cat err.txt)"
done
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
read -r _ off n < <(grep '^5 ' sections)
flip_at $((off + n - 8))
expect_eq sa_rows_damage_unread "$($R sa --rows 3 --around 5000 g.fa 2>&1)" "$(cat sa.want)"
expect_exit check_finds_unread_sa_damage 1 $R index --check g.fa
# damage the command does not read stays unread: lce answers from the text alone
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
read -r _ off n < <(grep '^5 ' sections)
flip_at $((off + 8))
expect_eq lce_reads_only_the_sequence "$($R lce g.fa 100 5000 2>&1)" "$(cat lce.want)"
expect_exit check_finds_unread_damage 1 $R index --check g.fa
# neither does lr nor tandem of a forward index read SA, ISA or LCP; with both
# strands lr does (the strands column), and finds damage there
expect_eq lr_reads_no_suffix_array "$($R lr g.fa chrSyn:1-3000 2>&1)" "$(cat lr.want)"
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx; flip_at $((off + 8))
expect_eq tandem_reads_no_suffix_array "$($R tandem g.fa 2>&1)" "$(cat tandem.want)"
cp g.fa b.fa; $R index --quiet --strands both b.fa
$R lr --strands both b.fa chrSyn:1-3000 > lrb.want 2>&1
python3 -c "
import struct
b = bytearray(open('b.fa.rvx','rb').read()); hb = struct.unpack_from('<I', b, 12)[0]
for i in range(struct.unpack_from('<I', b, 28)[0]):
    sid, _, off, n, _ = struct.unpack_from('<IIQQQ', b, hb + 32 * i)
    if sid == 5: b[off + n // 2] ^= 0x21
open('b.fa.rvx','wb').write(b)"
touch -r b.fa b.fa.rvx
out=$($R lr --strands both b.fa chrSyn:1-3000 2>err.txt)
[ "$out" == "$(cat lrb.want)" ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'checksum mismatch in SA' err.txt &&
    ok lr_both_strands_verifies_sa || bad lr_both_strands_verifies_sa "$(cat err.txt)"
# the explorer verifies the blocks its first screen reads before showing it: damage
# there (the LLR around the cursor) is reported at once, then the index rebuilt
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
read -r _ off n < <(grep '^16 ' sections)
flip_at $((off + 100))
timeout 60 $REPVIEW --keys '' --dump --wait-index g.fa > screen.txt 2>&1; echo "rc=$?" >> screen.txt
grep -q 'checksum mismatch in LLR' screen.txt && ok explorer_reports_damage || bad explorer_reports_damage "$(tail -3 screen.txt)"
$R index --check g.fa >/dev/null 2>&1 || $R sa --rows 1 g.fa >/dev/null 2>&1
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
timeout 60 $REPVIEW --keys '' --dump --wait-index g.fa > screen.txt 2>&1; echo "rc=$?" >> screen.txt
grep -q 'index loaded from g.fa.rvx' screen.txt && ! grep -q 'checksum mismatch' screen.txt && ok explorer_intact_index \
    || bad explorer_intact_index "$(tail -3 screen.txt)"
# A screen without its message line; its status bar without the key hint shown
# there while a long message fills that line
screen_body() { sed '$d' | sed -E '$ s/F1 help  (index [a-z]+)$/         \1/'; }
# the screens of a saved index are those of the index built from the FASTA (all but
# the message line), at the start, at a REGION, after jumps and in every pane
screens_agree=1
for keys in '' ':chrSyn:150000<CR>' '<Tab><Tab>]]' ':chrSyn:90001<CR><Tab><Tab><Tab>]' '<S-Tab>z' 'G<Tab>'; do
    for arg in "" chrSyn:120000; do
        cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
        saved=$(timeout 60 $REPVIEW --keys "$keys" --dump --wait-index --size 120x40 g.fa $arg 2>&1 | screen_body)
        mv g.fa.rvx g.keep
        built=$(timeout 60 $REPVIEW --no-save --keys "$keys" --dump --wait-index --size 120x40 g.fa $arg 2>&1 | screen_body)
        mv g.keep g.fa.rvx
        if [ -z "$saved" ] || [ "$saved" != "$built" ]; then
            screens_agree=0
            bad explorer_saved_screen_is_built_screen "keys [$keys] $arg: $(diff <(echo "$saved") <(echo "$built") | head -5)"
        fi
    done
done
[ $screens_agree = 1 ] && ok explorer_saved_screen_is_built_screen
# damage far from the first screen (the LLR at 190 kbp, in block 2 of 4): the
# first screen comes from verified blocks and says nothing; the background
# verification finds it (<verified> waits for it), reports it in one line, rebuilds
# and rewrites the file; the screen is then the intact one
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx
want=$(timeout 60 $REPVIEW --keys '' --dump --wait-index --size 120x40 g.fa 2>&1 | screen_body)
read -r _ off n < <(grep '^16 ' sections)
flip_at $((off + 190000))
got=$(timeout 60 $REPVIEW --keys '' --dump --wait-index --size 120x40 g.fa 2>&1); rc=$?
[ $rc = 0 ] && [ "$(screen_body <<<"$got")" == "$want" ] && ok explorer_far_damage_first_screen ||
    bad explorer_far_damage_first_screen "exit $rc: $(tail -2 <<<"$got")"
cp g.good g.fa.rvx; touch -r g.fa g.fa.rvx; flip_at $((off + 190000))
got=$(timeout 60 $REPVIEW --keys '<verified>' --dump --wait-index --size 120x40 g.fa 2>&1); rc=$?
msg=$(tail -1 <<<"$got")
[ $rc = 0 ] && [[ "$msg" == *"g.fa.rvx: corrupt index (checksum mismatch in LLR section 16, block 2 of 4)"* ]] &&
    [ "$(screen_body <<<"$got")" == "$want" ] && ok explorer_later_damage_reported ||
    bad explorer_later_damage_reported "exit $rc: $msg"
expect_exit explorer_later_damage_rewritten 0 $R index --check g.fa
# with a usable FILE.rvx the explorer needs no .fai (making one reads the whole
# input); when the index is unusable (stale), the .fai serves the sequence while
# the index is rebuilt
cp g.fa h.fa; $R index --quiet h.fa; rm -f h.fa.fai
timeout 60 $REPVIEW --keys '' --dump --wait-index h.fa >/dev/null 2>&1
[ ! -e h.fa.fai ] && ok explorer_rvx_without_fai || bad explorer_rvx_without_fai "h.fa.fai made"
touch -d '2001-01-01' h.fa
scr=$(timeout 60 $REPVIEW --keys '' --dump --wait-index --size 200x12 h.fa 2>&1)
[ -s h.fa.fai ] && grep -q 'stale index' <<<"$scr" && ok explorer_stale_rvx_makes_fai ||
    bad explorer_stale_rvx_makes_fai "$(tail -1 <<<"$scr")"
# 64-bit arrays: the same checks
REPVIEW_FORCE_WIDE=1 $R index --quiet g.fa
expect_exit check_wide 0 $R index --check g.fa
expect_eq wide_sa_answer "$($R sa --rows 3 --around 5000 g.fa 2>&1)" "$(cat sa.want)"
# the SA of a wide index is stored in 5 bytes a rank (SA40, section 12) and expanded
# at open, its blocks verified as they are read: a flip in it is reported at open
# in one line naming the block, the answer is the intact index's, the file rebuilt
REPVIEW_FORCE_WIDE=1 $R index --quiet -o g.wide g.fa
sa40=$(python3 -c "
import struct
b = open('g.wide', 'rb').read()
hb, ns = struct.unpack_from('<I', b, 12)[0], struct.unpack_from('<I', b, 28)[0]
ids = {struct.unpack_from('<IIQQQ', b, hb + 32 * i)[0]: struct.unpack_from('<IIQQQ', b, hb + 32 * i)[2:4] for i in range(ns)}
print(struct.unpack_from('<I', b, 8)[0], 5 in ids, *ids.get(12, (0, 0)))")
read -r ver has_sa off n <<<"$sa40"
[ "$ver" = 6 ] && [ "$has_sa" = False ] && [ "$n" -gt 0 ] && ok wide_file_sa40 || bad wide_file_sa40 "$sa40"
for at in $((off + 3)) $((off + n / 2)) $((off + n - 1)); do
    cp g.wide g.fa.rvx; touch -r g.fa g.fa.rvx; flip_at $at
    msg=$($R index --check g.fa 2>&1); rc=$?
    [ $rc -eq 1 ] && [[ "$msg" == *"checksum mismatch in SA section 12, block $(( (at - off) / 65536 )) of"* ]] &&
        ok "check_damage_sa40_$at" || bad "check_damage_sa40_$at" "exit $rc: $msg"
    cp g.wide g.fa.rvx; touch -r g.fa g.fa.rvx; flip_at $at
    out=$($R sa --rows 0 g.fa 2>err.txt); rc=$?
    if [ $rc -ne 0 ]; then bad "damage_sa40_$at" "exit $rc: $(cat err.txt)"
    elif [ "$out" != "$(cat all.want)" ]; then bad "damage_sa40_$at" "wrong answer after damage"
    elif [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q 'corrupt index (checksum mismatch in SA' err.txt; then
        bad "damage_sa40_$at" "report: $(cat err.txt)"
    elif ! $R index --check g.fa >/dev/null 2>&1; then bad "damage_sa40_$at" "not rebuilt intact"
    else ok "damage_sa40_$at"; fi
done
# the file of a 2 Mbp chromosome: at most 9 bytes a symbol wide, 7 with 32-bit arrays
"$RV_BUILD/gen_chrom" 2000000 5 > c2.fa 2>/dev/null
for wide in 0 1; do
    out=$(REPVIEW_FORCE_WIDE=$wide $R index -o c2.rvx c2.fa 2>&1)
    bps=$(sed -n 's/.*(\([0-9.]*\) bytes a symbol).*/\1/p' <<<"$out")
    awk -v b="$bps" -v m=$((7 + 2 * wide)) 'BEGIN { exit !(b != "" && b <= m) }' &&
        ok "bytes_a_symbol_wide_$wide ($bps)" || bad "bytes_a_symbol_wide_$wide" "$out"
done
rm -f c2.fa c2.rvx g.wide
ls ./*.tmp.* >/dev/null 2>&1 && bad no_temp_left_v3 "temporary files left" || ok no_temp_left_v3
# a big file being replaced is let go by a process of its own after the command
# returns: the new file is complete, no process is left holding the old one, and
# the command's output is not held open; a failed build leaves the old file as it was
cp l.fa.gz l2.fa.gz
head -c $((70 << 20)) /dev/zero | tr '\0' 'x' > l2.fa.gz.rvx && cp l2.fa.gz.rvx h.keep
printf '>bad\nAC\x01GT\n' > bad.fa
$R index --quiet -o l2.fa.gz.rvx bad.fa 2>/dev/null
cmp -s l2.fa.gz.rvx h.keep && ok replace_failed_keeps_old || bad replace_failed_keeps_old "old file changed"
out=$($R index l2.fa.gz 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "wrote l2.fa.gz.rvx" <<<"$out" && [ "$(stat -c %s l2.fa.gz.rvx)" -lt $((70 << 20)) ] &&
    ok replace_big_file || bad replace_big_file "exit $rc: $out"
held=1
for _ in $(seq 50); do
    held=$(find /proc/[0-9]*/fd -lname "*/l2.fa.gz.rvx (deleted)" 2>/dev/null | wc -l)
    [ "$held" -eq 0 ] && break; sleep 0.1
done
[ "$held" -eq 0 ] && ok replaced_file_let_go || bad replaced_file_let_go "$held descriptors still hold it"
expect_eq replaced_up_to_date "$($R stats l2.fa.gz | grep '^# index:' | cut -d, -f1)" "# index: l2.fa.gz.rvx up to date"
rm -f l2.fa.gz l2.fa.gz.rvx h.keep bad.fa

# the file of a chromosome holds at most 7 bytes a symbol (SA 4, LCP and LLR one
# each, the text in 2 bits, the runs in 2 bytes each), and the answers from it are
# those of the index built in memory
unset REPVIEW_RVX_BLOCK
"$RV_BUILD/gen_chrom" 2000000 5 > big.fa 2>/dev/null
$R index --quiet big.fa
n=$($R stats big.fa 2>/dev/null | sed -n 's/^# indexed text: \([0-9]*\) symbols.*/\1/p')
bytes=$(stat -c %s big.fa.rvx)
awk -v b="$bytes" -v n="${n:-0}" 'BEGIN { exit !(n > 0 && b / n <= 7) }' && ok file_7_bytes_a_symbol ||
    bad file_7_bytes_a_symbol "$bytes bytes for ${n:-?} symbols"
queries=("lr big.fa chrSyn:1000000-1004000" "tandem big.fa chrSyn:1-200000" "find big.fa ACGTACGTA"
         "sa --rows 4 --around 777777 big.fa" "lce big.fa 100 1500000" "stats big.fa")
for k in "${!queries[@]}"; do $R ${queries[$k]} > "file.$k" 2>&1; done
mv big.fa.rvx big.keep
for k in "${!queries[@]}"; do
    set -- ${queries[$k]}
    expect_eq "file_answers_$1" "$(cat "file.$k" | grep -v '^# index:')" "$($R "$@" 2>&1 | grep -v '^# index:')"
done
