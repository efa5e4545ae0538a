# lr.sh — `repview lr`: exact output on a small multi-record FASTA with N runs
# (expected lines checked against a brute-force enumeration of every substring),
# regions, --leftmost, --bedgraph, threads, errors.
source "$RV_TOP/tests/lib.sh"

printf '>chr1 first\nACGTNNACGTA\nAC\n>chr2\ncgtaNACGnnGT\n>chr3\nTTTT\n' >"$T/t.fa"
H=$'#chrom\tpos\tlr_start\tlr_end'
tsv() { tr ' ' '\t'; }

ALL=$(tsv <<'EOF'
chr1 0 0 4
chr1 1 0 4
chr1 2 0 4
chr1 3 0 4
chr1 6 6 10
chr1 7 6 10
chr1 7 7 11
chr1 8 6 10
chr1 8 7 11
chr1 9 6 10
chr1 9 7 11
chr1 10 7 11
chr1 11 11 13
chr1 12 11 13
chr2 0 0 4
chr2 1 0 4
chr2 2 0 4
chr2 3 0 4
chr2 5 5 8
chr2 6 5 8
chr2 7 5 8
chr2 10 10 12
chr2 11 10 12
chr3 0 0 3
chr3 1 0 3
chr3 1 1 4
chr3 2 0 3
chr3 2 1 4
chr3 3 1 4
EOF
)
expect_eq lr_all "$("$REPVIEW" lr "$T/t.fa")" "$H"$'\n'"$ALL"
expect_eq lr_all_threads "$("$REPVIEW" lr -t 3 --cpu "$T/t.fa")" "$H"$'\n'"$ALL"

LEFT=$(awk -F'\t' '!seen[$1" "$2]++' <<<"$ALL")
expect_eq lr_leftmost "$("$REPVIEW" lr --leftmost "$T/t.fa")" "$H"$'\n'"$LEFT"

BG=$(tsv <<'EOF'
chr1 0 4 4
chr1 6 11 4
chr1 11 13 2
chr2 0 4 4
chr2 5 8 3
chr2 10 12 2
chr3 0 4 3
EOF
)
expect_eq lr_bedgraph "$("$REPVIEW" lr --bedgraph "$T/t.fa")" $'#chrom\tstart\tend\tlr_len\n'"$BG"

# chr1:7-12 is 0-based [6, 12): positions 6..11, their LRs reported whole
REG=$(awk -F'\t' '$1=="chr1" && $2>=6 && $2<12' <<<"$ALL")
expect_eq lr_region "$("$REPVIEW" lr "$T/t.fa" chr1:7-12)" "$H"$'\n'"$REG"
expect_eq lr_region_record "$("$REPVIEW" lr --leftmost "$T/t.fa" chr3)" \
    "$H"$'\n'"$(awk -F'\t' '$1=="chr3"' <<<"$LEFT")"
expect_eq lr_region_in_n_run "$("$REPVIEW" lr "$T/t.fa" chr1:5-6)" "$H"

# the same answers from a saved index
"$REPVIEW" index "$T/t.fa" >/dev/null 2>&1
expect_eq lr_from_rvx "$("$REPVIEW" lr "$T/t.fa")" "$H"$'\n'"$ALL"

# mississippi (text alphabet): position 4 has two LRs, [1,5) and [4,8)
printf '>m\nmississippi\n' >"$T/m.fa"
expect_eq lr_mississippi_pos4 "$("$REPVIEW" lr --alphabet text "$T/m.fa" | awk -F'\t' '$2==4' | cut -f3,4 | tr '\t\n' ' ')" "1 5 4 8 "
expect_eq lr_mississippi_pos0 "$("$REPVIEW" lr --alphabet text "$T/m.fa" | awk -F'\t' '$2==0')" ""

# a larger input streams the same lines whatever the thread count
awk 'BEGIN{srand(3); print ">big"; for(i=0;i<40000;i++){printf "%s", substr("ACGT",int(rand()*4)+1,1); if(i%70==69) print ""}; print ""}' >"$T/big.fa"
a=$("$REPVIEW" lr -t 1 "$T/big.fa" | md5sum); b=$("$REPVIEW" lr -t 4 "$T/big.fa" | md5sum)
expect_eq lr_threads_agree "$a" "$b"

expect_exit lr_bad_region 2 "$REPVIEW" lr "$T/t.fa" chrX:1-5
expect_exit lr_bad_region_syntax 2 "$REPVIEW" lr "$T/t.fa" chr1:9-3
expect_exit lr_bad_option 2 "$REPVIEW" lr --bogus "$T/t.fa"
expect_exit lr_both_modes 2 "$REPVIEW" lr --leftmost --bedgraph "$T/t.fa"
expect_exit lr_no_file 2 "$REPVIEW" lr
expect_exit lr_missing_file 1 "$REPVIEW" lr "$T/none.fa"
rm -rf "$T"
