# pairs.sh — `repview pairs`: exact output on a hand-checked input, filters and
# --covering against filtering the full output, thread invariance, exit codes,
# and the same set of direct maximal pairs as vmatch (mkvtree + vmatch -d) and
# genometools (gt repfind) on the bundled lambda sample (skipped, visibly, when
# those tools are missing).
source "$RV_TOP/tests/lib.sh"
HDR=$'#chrom1\tstart1\tend1\tchrom2\tstart2\tend2\tname\tscore\tstrand1\tstrand2\tgap'

# ---- hand-checked: ACGT at r1:1 (left C), r1:7 (left G), r2:2 (after N: a breaker)
printf '>r1\nCACGTAGACGTT\n>r2\nNNACGTA\n' >"$T/small.fa"
P1=$'r1\t1\t5\tr1\t7\t11\t.\t4\t+\t+\t2'
P2=$'r1\t1\t6\tr2\t2\t7\t.\t5\t+\t+\t.'
P3=$'r1\t7\t11\tr2\t2\t6\t.\t4\t+\t+\t.'
expect_eq pairs_exact "$("$REPVIEW" pairs -l 4 "$T/small.fa")" "$HDR"$'\n'"$P1"$'\n'"$P2"$'\n'"$P3"
expect_eq pairs_exact_l3 "$("$REPVIEW" pairs -l 3 "$T/small.fa")" "$HDR"$'\n'"$P1"$'\n'"$P2"$'\n'"$P3"
expect_eq pairs_exact_l5 "$("$REPVIEW" pairs --min-len 5 "$T/small.fa")" "$HDR"$'\n'"$P2"
expect_eq pairs_count "$("$REPVIEW" pairs -l 4 --count "$T/small.fa")" "3"
expect_eq pairs_max_gap "$("$REPVIEW" pairs -l 4 --max-gap 10 "$T/small.fa")" "$HDR"$'\n'"$P1"
expect_eq pairs_min_gap "$("$REPVIEW" pairs -l 4 --min-gap 3 "$T/small.fa")" "$HDR"
expect_eq pairs_gap_exact "$("$REPVIEW" pairs -l 4 --min-gap 2 --max-gap 2 "$T/small.fa")" "$HDR"$'\n'"$P1"
expect_eq pairs_within "$("$REPVIEW" pairs -l 4 --within r1:2-11 "$T/small.fa")" "$HDR"$'\n'"$P1"
expect_eq pairs_within_tight "$("$REPVIEW" pairs -l 4 --within r1:2-10 "$T/small.fa")" "$HDR"
expect_eq pairs_covering "$("$REPVIEW" pairs -l 4 --covering r2:3 "$T/small.fa")" "$HDR"$'\n'"$P2"$'\n'"$P3"
expect_eq pairs_covering_end "$("$REPVIEW" pairs -l 4 --covering r1:6 "$T/small.fa")" "$HDR"$'\n'"$P2"
expect_eq pairs_covering_count "$("$REPVIEW" pairs -l 4 --count --covering r1:8 "$T/small.fa")" "2"
expect_eq pairs_covering_breaker "$("$REPVIEW" pairs -l 4 --covering r2:1 "$T/small.fa")" "$HDR"
# overlapping copies: negative gap
printf '>o\nGACACACAT\n' >"$T/ovl.fa"
expect_eq pairs_overlap "$("$REPVIEW" pairs -l 4 "$T/ovl.fa" | tail -n +2)" $'o\t1\t6\to\t3\t8\t.\t5\t+\t+\t-3'

# ---- usage and data errors
expect_exit pairs_no_l 2 "$REPVIEW" pairs "$T/small.fa"
expect_exit pairs_l_zero 2 "$REPVIEW" pairs -l 0 "$T/small.fa"
expect_exit pairs_l_word 2 "$REPVIEW" pairs -l ten "$T/small.fa"
expect_exit pairs_l_negative 2 "$REPVIEW" pairs -l -3 "$T/small.fa"
expect_exit pairs_no_file 2 "$REPVIEW" pairs -l 4
expect_exit pairs_two_files 2 "$REPVIEW" pairs -l 4 "$T/small.fa" "$T/small.fa"
expect_exit pairs_bad_gap 2 "$REPVIEW" pairs -l 4 --max-gap x "$T/small.fa"
expect_exit pairs_gap_order 2 "$REPVIEW" pairs -l 4 --min-gap 5 --max-gap 2 "$T/small.fa"
expect_exit pairs_missing_file 1 "$REPVIEW" pairs -l 4 "$T/nope.fa"
expect_exit pairs_bad_region 2 "$REPVIEW" pairs -l 4 --within chrX "$T/small.fa"
expect_exit pairs_bad_pos 2 "$REPVIEW" pairs -l 4 --covering r1:999 "$T/small.fa"
expect_exit pairs_help 0 "$REPVIEW" pairs --help

# ---- lambda: a multi-record variant with N runs, filters vs the full output
zcat "$RV_TOP/samples/lambda.fa.gz" >"$T/lambda.fa"
lambda_multi "$T/lambda.fa" >"$T/multi.fa"
"$REPVIEW" pairs -l 10 -t 1 "$T/multi.fa" >"$T/all.bedpe"
"$REPVIEW" pairs -l 10 -t 2 "$T/multi.fa" >"$T/all2.bedpe"
expect_eq pairs_threads_same "$(cmp "$T/all.bedpe" "$T/all2.bedpe" && echo same)" "same"
# the merge on every thread (tiny chunks and sort runs: checkpoints, spills), from
# the index and from buckets, gives the same bytes
for ch in 2 50; do
    REPVIEW_MERGE_CHUNK=$ch "$REPVIEW" pairs -l 10 -t 3 "$T/multi.fa" >"$T/pm.bedpe"
    expect_eq "pairs_parallel_merge_$ch" "$(cmp "$T/all.bedpe" "$T/pm.bedpe" && echo same)" "same"
    REPVIEW_MERGE_CHUNK=$ch "$REPVIEW" pairs -l 10 -t 4 --mem-budget 2m "$T/multi.fa" >"$T/pm.bedpe"
    expect_eq "pairs_parallel_merge_buckets_$ch" "$(cmp "$T/all.bedpe" "$T/pm.bedpe" && echo same)" "same"
done
# a bucket above the budget's job (1m: 8928 suffixes a job on one thread): split by
# longer prefixes where its suffixes part within -l (copies of one 11-mer, each
# followed by random DNA), one warning where they do not (a poly-A run longer than
# -l), none with --quiet; the pairs those of the index either way
skewed_inputs "$T"
for f in skew polya; do
    "$REPVIEW" pairs -l 20 -t 1 "$T/$f.fa" >"$T/$f.idx"
    "$REPVIEW" pairs -l 20 -t 1 --mem-budget 1m "$T/$f.fa" >"$T/$f.bk" 2>"$T/$f.err"
    expect_eq "pairs_split_$f" "$(cmp "$T/$f.idx" "$T/$f.bk" && echo same)" "same"
    "$REPVIEW" pairs -l 20 -t 1 --mem-budget 1m --buckets 2/3 -o "$T/$f.part" "$T/$f.fa" 2>"$T/$f.perr"
    expect_eq "pairs_split_part_warns_$f" "$(grep -c 'exceeds the memory budget' "$T/$f.perr")" "$([ $f = polya ] && echo 1 || echo 0)"
done
expect_eq pairs_split_no_warning "$(cat "$T/skew.err")" ""
expect_eq pairs_split_warning "$(cat "$T/polya.err")" \
    "repview: pairs: a bucket of 29984 suffixes exceeds the memory budget (8928 a job) even by its first 17 symbols; it runs as one job"
expect_eq pairs_split_quiet "$("$REPVIEW" pairs -l 20 -t 1 --quiet --mem-budget 1m --count "$T/polya.fa" 2>&1)" \
    "$(($(wc -l <"$T/polya.idx") - 1))"
# a budget that holds neither the jobs' lists nor their map: every job scans the
# text, pairs says so once and names a budget that avoids it, which then is quiet
# (12.5 Mbp: the map's 12.5 MB at half the budget is 25m; 2^20-byte units would
# have said 24m, which does not hold it)
"$RV_BUILD/gen_chrom" --kind dna 12500k 5 >"$T/m1.fa"
M1=$("$REPVIEW" pairs --cpu -l 40 --count "$T/m1.fa")
expect_eq pairs_scan_same "$("$REPVIEW" pairs --cpu -t 2 -l 40 --mem-budget 16m --count "$T/m1.fa" 2>"$T/scan.err")" "$M1"
expect_eq pairs_scan_warns "$(grep -c "^repview: pairs: the memory budget holds no list of the jobs' starts: each of [0-9]* jobs reads the whole text; --mem-budget [0-9]*m or more avoids that" "$T/scan.err")/$(wc -l <"$T/scan.err")" 1/1
want=$(grep -o -- '--mem-budget [0-9]*m' "$T/scan.err" | cut -d' ' -f2)
expect_eq pairs_scan_advice "$("$REPVIEW" pairs --cpu -t 2 -l 40 --mem-budget "${want:-1m}" --count "$T/m1.fa" 2>&1)" "$M1"
expect_eq pairs_scan_quiet "$("$REPVIEW" pairs --cpu -t 2 -l 40 --quiet --mem-budget 16m --count "$T/m1.fa" 2>&1)" "$M1"
# enough pairs (> 2 x 4096) for the BEDPE formatting to use several threads
"$REPVIEW" pairs -l 8 -t 1 "$T/multi.fa" >"$T/l8_t1.bedpe"
for t in 2 3; do
    expect_eq "pairs_threads_same_l8_t$t" "$("$REPVIEW" pairs -l 8 -t $t "$T/multi.fa" | cmp - "$T/l8_t1.bedpe" && echo same)" "same"
done
expect_eq pairs_sorted "$(tail -n +2 "$T/all.bedpe" | awk '{print $1, $2, $4, $5}' | sort -c -k1,1 -k2,2n -s 2>&1 | head -1)" ""
expect_eq pairs_count_multi "$("$REPVIEW" pairs -l 10 --count "$T/multi.fa")" "$(($(wc -l <"$T/all.bedpe") - 1))"
n_cross=$(awk '$11 == "."' "$T/all.bedpe" | wc -l)
expect_eq pairs_has_cross "$([ "$n_cross" -gt 0 ] && echo yes)" "yes"

filt() { awk -F'\t' "NR == 1 || ($1)" "$T/all.bedpe"; }
expect_eq pairs_filter_max_gap "$("$REPVIEW" pairs -l 10 --max-gap 2000 "$T/multi.fa")" \
    "$(filt '$11 != "." && $11 <= 2000')"
expect_eq pairs_filter_min_gap "$("$REPVIEW" pairs -l 10 --min-gap 5000 "$T/multi.fa")" \
    "$(filt '$11 != "." && $11 >= 5000')"
expect_eq pairs_filter_gap_range "$("$REPVIEW" pairs -l 10 --min-gap 100 --max-gap 9000 "$T/multi.fa")" \
    "$(filt '$11 != "." && $11 >= 100 && $11 <= 9000')"
expect_eq pairs_filter_within "$("$REPVIEW" pairs -l 10 --within a:1001-12000 "$T/multi.fa")" \
    "$(filt '$1 == "a" && $4 == "a" && $2 >= 1000 && $6 <= 12000')"
expect_eq pairs_filter_within_gap "$("$REPVIEW" pairs -l 10 --within b:2,001-30,000 --max-gap 4000 "$T/multi.fa")" \
    "$(filt '$1 == "b" && $4 == "b" && $2 >= 2000 && $6 <= 30000 && $11 <= 4000')"
# fixed spots plus spots inside reported copies (start, middle, last base)
spots=$(awk -F'\t' 'NR % 97 == 5 { print $1 ":" $2 + 1; print $4 ":" int(($5 + $6) / 2); print $1 ":" $3 }' "$T/all.bedpe" | head -12)
for pos in a:1 a:15003 b:7777 c:2999 $spots; do
    rec=${pos%%:*}; p=$((${pos#*:} - 1))
    expect_eq "pairs_covering_$pos" "$("$REPVIEW" pairs -l 10 --covering "$pos" "$T/multi.fa")" \
        "$(filt "(\$1 == \"$rec\" && \$2 <= $p && $p < \$3) || (\$4 == \"$rec\" && \$5 <= $p && $p < \$6)")"
done
expect_eq pairs_wide_same "$(REPVIEW_FORCE_WIDE=1 "$REPVIEW" pairs -l 8 "$T/multi.fa" | cmp - "$T/l8_t1.bedpe" && echo same)" "same"
"$REPVIEW" index -o "$T/multi.fa.rvx" "$T/multi.fa" 2>/dev/null
expect_eq pairs_from_rvx "$("$REPVIEW" pairs -l 10 "$T/multi.fa" | cmp - "$T/all.bedpe" && echo same)" "same"

# ---- the same direct maximal pairs as vmatch and gt repfind
# a protein file: random records sharing (truncated) families, X breakers
family_protein >"$T/prot.fa"
# rows "seq1 start1 seq2 start2 len", first copy first
ours() { "$REPVIEW" pairs -l "$1" "$2" | awk -F'\t' 'NR > 1 {print $1, $2, $4, $5, $8}' | sort; }
if command -v mkvtree >/dev/null && command -v vmatch >/dev/null; then
    for f in lambda multi prot; do
        kind=-dna; [ $f = prot ] && kind=-protein
        (cd "$T" && mkvtree -db "$f.fa" $kind -pl -allout >/dev/null 2>&1)
        names=$(grep '^>' "$T/$f.fa" | sed 's/^>//; s/ .*//' | tr '\n' ' ')
        for l in 8 12 20; do
            got=$(ours "$l" "$T/$f.fa")
            want=$(cd "$T" && vmatch -l "$l" -d "$f.fa" | awk -v names="$names" '
                BEGIN { split(names, nm, " ") } !/^#/ { print nm[$2 + 1], $3, nm[$6 + 1], $7, $1 }' | sort)
            n=$(grep -c . <<<"$want")
            expect_eq "pairs_vs_vmatch_${f}_l$l($n)" "$got" "$want"
        done
    done
else
    echo "SKIP pairs_vs_vmatch: mkvtree/vmatch not installed" >&2
    echo "PASS pairs_vs_vmatch_skipped(vmatch not installed)"
fi
if command -v gt >/dev/null; then
    (cd "$T" && gt suffixerator -db lambda.fa -indexname lam -dna -suf -lcp -tis -des -ssp -sds >/dev/null 2>&1)
    for l in 8 12; do
        want=$(cd "$T" && gt repfind -l "$l" -ii lam | awk '!/^#/ { print "NC_001416.1", $3, "NC_001416.1", $7, $1 }' | sort)
        expect_eq "pairs_vs_gt_repfind_l$l($(grep -c . <<<"$want"))" "$(ours "$l" "$T/lambda.fa")" "$want"
    done
else
    echo "SKIP pairs_vs_gt_repfind: gt not installed" >&2
    echo "PASS pairs_vs_gt_repfind_skipped(gt not installed)"
fi
rm -rf "$T"
