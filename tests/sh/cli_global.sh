# cli_global.sh — the options every command takes may also come before its name
# (`repview --quiet lr FILE`, `repview -t 4 pairs FILE`), with the same answers;
# without a command name after them the explorer opens with those options.
. "$RV_TOP/tests/lib.sh"
cp "$RV_TOP/tests/data/multi.fa" "$T/m.fa"
cd "${T:?}" || exit 1
R=$REPVIEW
same() { # NAME "BEFORE ARGS" "AFTER ARGS"
    local a b
    a=$($R $2 2>&1); local ra=$?
    b=$($R $3 2>&1); local rb=$?
    [ "$ra" -eq "$rb" ] && [ "$a" == "$b" ] && [ -n "$a" ] && ok "$1" || bad "$1" "exit $ra/$rb, [$(head -c 200 <<<"$a")] vs [$(head -c 200 <<<"$b")]"
}
$R index --quiet m.fa
same quiet_before_lr "--quiet lr m.fa chr1:1-50" "lr --quiet m.fa chr1:1-50"
same threads_before_pairs "-t 2 pairs -l 8 m.fa" "pairs -t 2 -l 8 m.fa"
same threads_glued_cpu "-t1 --cpu sa --rows 3 m.fa" "sa -t1 --cpu --rows 3 m.fa"
same long_forms_tandem "--threads=2 --alphabet dna tandem m.fa" "tandem --threads=2 --alphabet dna m.fa"
same alphabet_eq_find "--alphabet=dna find m.fa ACGTTGCA" "find --alphabet=dna m.fa ACGTTGCA"
same no_save_lce "--no-save --quiet lce m.fa chr1:1 chr2:1" "lce --no-save --quiet m.fa chr1:1 chr2:1"
expect_exit unknown_global_option 2 $R --bogus lr m.fa
expect_exit bad_thread_count_before 2 $R -t 0 lr m.fa
# not followed by a command: the explorer, with the options it knows
out=$($R --cpu -t 2 --keys '' --dump --wait-index --size 80x12 m.fa 2>&1)
grep -q 'chr1' <<<"$out" && grep -q 'index ready' <<<"$out" && ok explorer_after_globals || bad explorer_after_globals "$(tail -2 <<<"$out")"
# a file named like a command is still a file when it is not where a command goes
cp m.fa lr
out=$($R --keys '' --dump --size 80x12 lr 2>&1)
grep -q 'chr1' <<<"$out" && ok file_named_like_command || bad file_named_like_command "$(tail -2 <<<"$out")"
