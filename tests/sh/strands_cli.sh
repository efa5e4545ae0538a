# strands_cli.sh — both strands from the command line: the index file
# remembers them, every command answers the same from a both-strand index as from a
# forward one (find without double hits, tandem per strand, lr and pairs for the
# forward strand through the forward view), sa's doubled table, stats, errors.
source "$RV_TOP/tests/lib.sh"
unset REPVIEW_NO_SAVE # the both-strand FILE.rvx is what is tested
gen=$RV_BUILD/gen_chrom
"$gen" --kind dna --records 3 60k 11 >"$T/g.fa" || { bad gen "gen_chrom failed"; exit 0; }
cp "$T/g.fa" "$T/f.fa" # f.fa keeps a forward index, g.fa gets both strands

expect_exit index_both 0 "$REPVIEW" index --quiet --strands both "$T/g.fa"
expect_exit index_fwd 0 "$REPVIEW" index --quiet "$T/f.fa"
expect_eq stats_both "$("$REPVIEW" stats "$T/g.fa" | grep '^# strands')" \
    "# strands: both (forward $("$REPVIEW" stats "$T/f.fa" | awk '/^# indexed text/ { print $4 }') symbols, a breaker, their reverse complement)"
expect_eq stats_fwd "$("$REPVIEW" stats "$T/f.fa" | grep '^# strands')" "# strands: forward"
expect_eq stats_both_symbols "$("$REPVIEW" stats "$T/g.fa" | awk '/^# indexed text/ { print $4 }')" \
    "$(( 2 * $("$REPVIEW" stats "$T/f.fa" | awk '/^# indexed text/ { print $4 }') + 1 ))"

# one-strand answers from the both-strand index equal those of the forward index
for cmd in "pairs -l 25" "pairs -l 25 --count" "lr" "lr --bedgraph" "tandem" "find -k 1 GAATTC ACGTTG" \
           "find --strand - TTAGGG" "lce chrSyn_1:100 chrSyn_1:5000"; do
    name=same_$(tr ' :-' '___' <<<"$cmd")
    # shellcheck disable=SC2086
    expect_eq "$name" "$("$REPVIEW" $cmd "$T/g.fa" 2>&1)" "$("$REPVIEW" $cmd "$T/f.fa" 2>&1)"
done
printf '>q1\nGAATTCAGGCATTAGGACCAT\n>q2\nTTTTTTTTTTTTTTTTTTTTTTTTTTTT\n' >"$T/q.fa"
expect_eq same_overlap "$("$REPVIEW" overlap -f "$T/q.fa" "$T/g.fa")" "$("$REPVIEW" overlap -f "$T/q.fa" "$T/f.fa")"
# find on a both-strand index: no hit twice, '+' and '-' as on the forward index
n_both=$("$REPVIEW" find "$T/g.fa" ACGTT | grep -vc '^#')
n_uniq=$("$REPVIEW" find "$T/g.fa" ACGTT | grep -v '^#' | sort -u | wc -l)
expect_eq find_no_double "$n_both" "$n_uniq"

# pairs --strands both on the forward file replaces its index by a both-strand one
"$REPVIEW" pairs --quiet -l 25 --strands both "$T/f.fa" >"$T/pf"
expect_eq pairs_both_keeps "$("$REPVIEW" stats "$T/f.fa" | grep '^# strands')" \
    "$("$REPVIEW" stats "$T/g.fa" | grep '^# strands')"
expect_eq pairs_both_same "$(cat "$T/pf")" "$("$REPVIEW" pairs -l 25 --strands both "$T/g.fa")"
expect_eq pairs_minus_is_inverted "$("$REPVIEW" pairs -l 25 --strands - "$T/g.fa" | grep -vc '^#')" \
    "$(awk '$10 == "-"' "$T/pf" | wc -l)"
expect_eq pairs_plus_is_direct "$("$REPVIEW" pairs -l 25 --strands + "$T/g.fa" | grep -vc '^#')" \
    "$(awk '$10 == "+"' "$T/pf" | wc -l)"
expect_eq pairs_count_both "$("$REPVIEW" pairs -l 25 --strands both --count "$T/g.fa")" "$(grep -vc '^#' "$T/pf")"
expect_eq pairs_threads "$("$REPVIEW" pairs -t 7 -l 25 --strands both "$T/g.fa" | md5sum)" "$(md5sum <"$T/pf")"
# an inverted pair's copies are reverse complements of each other (read off the FASTA)
bad_rc=$(awk -F'\t' 'FNR == NR { if (/^>/) { name = substr($1, 2); sub(/ .*/, "", name) } else seq[name] = seq[name] toupper($0); next }
    $10 == "-" {
        a = substr(seq[$1], $2 + 1, $3 - $2); b = substr(seq[$4], $5 + 1, $6 - $5); r = ""
        for (i = length(b); i > 0; i--) r = r (substr(b, i, 1) == "A" ? "T" : substr(b, i, 1) == "C" ? "G" : substr(b, i, 1) == "G" ? "C" : "A")
        if (a != r) print $2, $5 }' "$T/g.fa" "$T/pf" | head -3)
expect_eq inverted_copies_are_revcomp "$bad_rc" ""
n_inv=$(awk '$10 == "-"' "$T/pf" | wc -l)
[ "$n_inv" -gt 0 ] && ok inverted_pairs_exist || bad inverted_pairs_exist "no inverted pair of 25+ in 60 kbp"

# lr --strands both: five columns; the LR lengths at least the forward ones
expect_eq lr_both_header "$("$REPVIEW" lr --strands both "$T/g.fa" chrSyn_1:1-10 | head -1)" \
    "$(printf '#chrom\tpos\tlr_start\tlr_end\tstrands')"
longer=$(paste <("$REPVIEW" lr --bedgraph --strands both "$T/g.fa" chrSyn_1:1-20000 | awk 'NR > 1 { for (i = $2; i < $3; i++) print i, $4 }') \
               <("$REPVIEW" lr --bedgraph "$T/g.fa" chrSyn_1:1-20000 | awk 'NR > 1 { for (i = $2; i < $3; i++) print i, $4 }') |
         awk '$1 != $3 || $2 < $4 { n++ } END { print n + 0 }')
expect_eq lr_both_at_least_forward "$longer" 0
printf '>m\nAAACCGTTTGACGGTT\n' >"$T/m.fa"
expect_eq lr_both_small "$("$REPVIEW" lr --no-save --strands both "$T/m.fa" m:2-2)" \
    "$(printf '#chrom\tpos\tlr_start\tlr_end\tstrands\nm\t1\t1\t7\t-')"

# the teaching table of the doubled text
expect_eq sa_both "$("$REPVIEW" sa --string GAATTCAC --strands both)" "$(printf '%s\n' \
    $'#rank\tsa\tlcp\tsuffix\tstrand' $'0\t.\t0\t$GTGAATTC\t.' $'1\t4\t0\tAATTC\t-' \
    $'2\t1\t5\tAATTCAC$GTGAATTC\t+' $'3\t6\t1\tAC$GTGAATTC\t+' $'4\t3\t1\tATTC\t-' \
    $'5\t2\t4\tATTCAC$GTGAATTC\t+' $'6\t0\t0\tC\t-' $'7\t7\t1\tC$GTGAATTC\t+' \
    $'8\t5\t1\tCAC$GTGAATTC\t+' $'9\t5\t0\tGAATTC\t-' $'10\t0\t6\tGAATTCAC$GTGAATTC\t+' \
    $'11\t7\t1\tGTGAATTC\t-' $'12\t1\t0\tTC\t-' $'13\t4\t2\tTCAC$GTGAATTC\t+' \
    $'14\t6\t1\tTGAATTC\t-' $'15\t2\t1\tTTC\t-' $'16\t3\t3\tTTCAC$GTGAATTC\t+')"
expect_eq sa_plus_unchanged "$("$REPVIEW" sa --string mississippi --strands + | md5sum)" \
    "$("$REPVIEW" sa --string mississippi | md5sum)"

# errors: one line, usage 2, data 1
printf '>p\nMKVLAAGIVGLLLAMKVLA\n' >"$T/p.fa"
expect_exit protein_both 1 "$REPVIEW" pairs --no-save -l 3 --strands both "$T/p.fa"
expect_exit bad_word 2 "$REPVIEW" pairs -l 3 --strands x "$T/p.fa"
expect_exit lr_minus 2 "$REPVIEW" lr --strands - "$T/m.fa"
expect_exit index_minus 2 "$REPVIEW" index --strands - "$T/m.fa"
expect_exit sa_text_both 1 "$REPVIEW" sa --string mississippi --alphabet text --strands both

# an index written with -o onto a device or FIFO is refused, never renamed over it
mkfifo "$T/idx.fifo"
expect_exit index_fifo_refused 1 "$REPVIEW" index -o "$T/idx.fifo" "$T/m.fa"
expect_eq index_fifo_kept "$([ -p "$T/idx.fifo" ] && echo fifo)" fifo
