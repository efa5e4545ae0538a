# rvx.sh — the .rvx index file: written atomically, reused when it matches, and a
# stale, truncated, corrupt, foreign or other-version file is reported in one line
# and rebuilt (never trusted, never a crash) — SPEC §6, issue 2 point 4.
. "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE # a damaged file is rewritten by the next command that builds
R="timeout 60 $REPVIEW"
cd "$T" || exit 1
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
damage other_version version python3 -c "
b = bytearray(open('l.fa.gz.rvx','rb').read()); b[8] = 99; open('l.fa.gz.rvx','wb').write(b)"
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
