# repeats.sh — `repview repeats` and `repview wmers`: exact output on a
# hand-checked input, exit codes, a brute-force w-mer counter (awk) on the
# bundled lambda genome, and the peers where installed: the same supermaximal
# repeats as vmatch -supermax, the same maximal repeats as vmatch's maximal
# pairs, the same w-mer counts as gt tallymer (one strand, and both strands
# against a mirrored index).  Skipped visibly when a peer is missing.
source "$RV_TOP/tests/lib.sh"
RH=$'#length\tcount\toccurrences'
WH=$'#wmer\tcount\toccurrences'

# ---- hand-checked: r1 = ACGTACGTTTACGT, r2 = NACGTA.  ACGTA at r1:0 and r2:1
# (left: start, N; right: C, end), ACGT at r1:0, 4, 10 and r2:1, TACGT at r1:3, 9
# (left G, T; right T, end), TT at r1:7, 8 (left G, T; right T, A)
printf '>r1\nACGTACGTTTACGT\n>r2\nNACGTA\n' >"$T/small.fa"
expect_eq repeats_exact "$("$REPVIEW" repeats -l 4 "$T/small.fa")" \
    "$RH"$'\n5\t2\tr1:0,r2:1\n4\t4\tr1:0,r1:4,r1:10,r2:1\n5\t2\tr1:3,r1:9'
expect_eq repeats_supermax "$("$REPVIEW" repeats -l 2 --supermaximal "$T/small.fa")" \
    "$RH"$'\n5\t2\tr1:0,r2:1\n5\t2\tr1:3,r1:9\n2\t2\tr1:7,r1:8'
expect_eq repeats_none "$("$REPVIEW" repeats -l 6 "$T/small.fa")" "$RH"
expect_eq wmers_exact "$("$REPVIEW" wmers -w 4 "$T/small.fa")" \
    "$WH"$'\nACGT\t4\tr1:0,r1:4,r1:10,r2:1\nCGTA\t2\tr1:1,r2:2\nTACG\t2\tr1:3,r1:9'
expect_eq wmers_min_count "$("$REPVIEW" wmers -w 4 --min-count 3 --count-only "$T/small.fa")" $'#wmer\tcount\nACGT\t4'
# r1 holds 9 distinct 5-mers (TACGT twice), r2 none new: 9 lines + the header
expect_eq wmers_all "$("$REPVIEW" wmers -w 5 --min-count 1 --count-only "$T/small.fa" | wc -l)" "10"
# both strands: ACGT is its own reverse complement (+ and - at every copy)
expect_eq wmers_strands "$("$REPVIEW" wmers -w 4 --min-count 8 --strands both "$T/small.fa")" \
    "$WH"$'\nACGT\t8\tr1:0:+,r1:0:-,r1:4:+,r1:4:-,r1:10:+,r1:10:-,r2:1:+,r2:1:-'
# text: a backslash inside a w-mer is escaped (as a tab or newline would be)
printf '>t\na\\bxa\\b\n' >"$T/text.fa"
expect_eq wmers_text_escape "$("$REPVIEW" wmers --alphabet text -w 3 "$T/text.fa" | tail -n +2)" $'A\\\\B\t2\tt:0,t:4'

# ---- usage and data errors
expect_exit repeats_no_l 2 "$REPVIEW" repeats "$T/small.fa"
expect_exit repeats_l_zero 2 "$REPVIEW" repeats -l 0 "$T/small.fa"
expect_exit repeats_l_word 2 "$REPVIEW" repeats -l ten "$T/small.fa"
expect_exit repeats_no_file 2 "$REPVIEW" repeats -l 4
expect_exit repeats_two_files 2 "$REPVIEW" repeats -l 4 "$T/small.fa" "$T/small.fa"
expect_exit repeats_strands_both 2 "$REPVIEW" repeats -l 4 --strands both "$T/small.fa"
expect_exit repeats_missing_file 1 "$REPVIEW" repeats -l 4 "$T/nope.fa"
expect_exit repeats_help 0 "$REPVIEW" repeats --help
expect_exit wmers_no_w 2 "$REPVIEW" wmers "$T/small.fa"
expect_exit wmers_w_zero 2 "$REPVIEW" wmers -w 0 "$T/small.fa"
expect_exit wmers_min_count_zero 2 "$REPVIEW" wmers -w 4 --min-count 0 "$T/small.fa"
expect_exit wmers_strands_minus 2 "$REPVIEW" wmers -w 4 --strands - "$T/small.fa"
expect_exit wmers_strands_protein 1 "$REPVIEW" wmers -w 4 --strands both --alphabet protein "$T/small.fa"
expect_exit wmers_missing_file 1 "$REPVIEW" wmers -w 4 "$T/nope.fa"
expect_exit wmers_help 0 "$REPVIEW" wmers --help

# ---- lambda and a multi-record variant with N runs and IUPAC codes
zcat "$RV_TOP/samples/lambda.fa.gz" >"$T/lambda.fa"
# real human DNA, two records (tests/data/README.md; chr1's repeats in lower case)
zcat "$RV_TOP/tests/data/human_chr17_63k.fa.gz" "$RV_TOP/tests/data/human_chr1_100k.fa.gz" >"$T/human.fa"
lambda_multi "$T/lambda.fa" >"$T/multi.fa"
family_protein >"$T/prot.fa"
# a brute-force counter: every 10-mer of lambda (one record, no breakers)
want=$(awk 'NR > 1 { s = s $0 } END { for (i = 1; i + 9 <= length(s); i++) { k = substr(s, i, 10); c[k]++; p[k] = p[k] (c[k] > 1 ? "," : "") "NC_001416.1:" i - 1 }
    for (k in c) if (c[k] >= 2) print k "\t" c[k] "\t" p[k] }' "$T/lambda.fa" | LC_ALL=C sort)
expect_eq "wmers_vs_brute_force_lambda($(grep -c . <<<"$want"))" "$("$REPVIEW" wmers -w 10 "$T/lambda.fa" | tail -n +2)" "$want"
# the GPU pass prints the same bytes as the CPU's (--gpu: at any size); without a
# usable GPU --gpu is one line on stderr and exit 1
if "$REPVIEW" wmers --quiet --gpu -w 10 "$T/lambda.fa" >"$T/wg.tsv" 2>"$T/wg.err"; then
    for f in lambda multi; do
        for a in "-w 10" "-w 12 --count-only --min-count 1" "-w 8 --strands both" "-w 300 --min-count 1"; do
            "$REPVIEW" wmers --quiet --cpu $a "$T/$f.fa" >"$T/wc.tsv"
            expect_eq "wmers_gpu_same_${f}_${a// /_}" "$("$REPVIEW" wmers --quiet --gpu $a "$T/$f.fa" | cmp - "$T/wc.tsv" && echo same)" same
        done
    done
else
    expect_eq wmers_gpu_unusable "$(wc -l <"$T/wg.err") $(grep -c '^repview: --gpu: ' "$T/wg.err")" "1 1"
fi
"$REPVIEW" repeats -l 10 -t 1 "$T/multi.fa" >"$T/max.tsv"
expect_eq repeats_threads_same "$("$REPVIEW" repeats -l 10 -t 2 "$T/multi.fa" | cmp - "$T/max.tsv" && echo same)" same
expect_eq repeats_wide_same "$(REPVIEW_FORCE_WIDE=1 "$REPVIEW" repeats -l 10 "$T/multi.fa" | cmp - "$T/max.tsv" && echo same)" same
"$REPVIEW" index -o "$T/multi.fa.rvx" "$T/multi.fa" 2>/dev/null
expect_eq repeats_from_rvx "$("$REPVIEW" repeats -l 10 "$T/multi.fa" | cmp - "$T/max.tsv" && echo same)" same
rm -f "$T/multi.fa.rvx"
# every occurrence of a supermaximal repeat is one of a maximal repeat of that length
expect_eq repeats_supermax_subset "$("$REPVIEW" repeats -l 10 --supermaximal "$T/multi.fa" | awk -F'\t' '
    NR == FNR { if (FNR > 1) { n = split($3, o, ","); for (i = 1; i <= n; i++) m[$1 " " o[i]] = 1 }; next }
    FNR > 1 { n = split($3, o, ","); for (i = 1; i <= n; i++) if (!(($1 " " o[i]) in m)) bad++ } END { print bad + 0 }' "$T/max.tsv" -)" 0

# ---- peers.  vmatch -supermax prints every pair of copies of each supermaximal
# repeat: our lines expanded to pairs must give the same set.  vmatch's maximal
# pairs: each copy of a pair is an occurrence of one of our maximal repeats of
# that length, both copies of the same one, and every repeat has a pair.
names_of() { grep '^>' "$1" | sed 's/^>//; s/ .*//' | tr '\n' ' '; }
if command -v mkvtree >/dev/null && command -v vmatch >/dev/null; then
    for f in lambda multi prot human; do
        kind=-dna; [ $f = prot ] && kind=-protein
        (cd "$T" && mkvtree -db "$f.fa" $kind -pl -allout >/dev/null 2>&1)
        names=$(names_of "$T/$f.fa")
        for l in 8 12 16; do
            got=$("$REPVIEW" repeats -l "$l" --supermaximal "$T/$f.fa" | awk -F'\t' 'NR > 1 {
                n = split($3, o, ","); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) print $1, o[i], o[j] }' | sort)
            want=$(cd "$T" && vmatch -l "$l" -supermax "$f.fa" | awk -v names="$names" '
                BEGIN { split(names, nm, " ") } !/^#/ { print $1, nm[$2 + 1] ":" $3, nm[$6 + 1] ":" $7 }' | sort)
            expect_eq "repeats_supermax_vs_vmatch_${f}_l$l($(grep -c . <<<"$want") pairs)" "$got" "$want"
        done
        for l in 10 14; do
            "$REPVIEW" repeats -l "$l" "$T/$f.fa" >"$T/rep.tsv"
            verdict=$(cd "$T" && vmatch -l "$l" -d "$f.fa" | awk -v names="$names" -F'\t' '
                BEGIN { split(names, nm, " ") }
                NR == FNR { if (FNR > 1) { n = split($3, o, ","); for (i = 1; i <= n; i++) id[$1 " " o[i]] = FNR; reps++ }; next }
                !/^#/ { split($0, v, " "); a = v[1] " " nm[v[2] + 1] ":" v[3]; b = v[5] " " nm[v[6] + 1] ":" v[7]
                        if (!(a in id) || !(b in id) || id[a] != id[b]) bad++; else hit[id[a]] = 1 }
                END { n = 0; for (k in hit) n++; print (bad + 0) " bad, " (reps - n) " without a pair" }' "$T/rep.tsv" -)
            expect_eq "repeats_maximal_vs_vmatch_${f}_l$l($(($(wc -l <"$T/rep.tsv") - 1)) repeats)" "$verdict" "0 bad, 0 without a pair"
        done
    done
else
    echo "SKIP repeats_vs_vmatch: mkvtree/vmatch not installed" >&2
    echo "PASS repeats_vs_vmatch_skipped(vmatch not installed)"
fi
# gt tallymer mkindex prints "OCC NUMBER" then the NUMBER mers of that count
# (lower case); mers with a wildcard (N, IUPAC) are not counted, as ours.
# Known: gt 1.6 asserts (encseq.c containsspecialViaequallength) on some
# mirrored indexes; such a run is skipped with a note, not compared.
if command -v gt >/dev/null; then
    for f in lambda multi human; do
        (cd "$T" && gt suffixerator -db "$f.fa" -dna -tis -suf -lcp -pl -indexname "$f.esa" >/dev/null 2>&1 &&
            gt suffixerator -db "$f.fa" -dna -tis -suf -lcp -pl -mirrored -indexname "$f.mir" >/dev/null 2>&1)
        for w in 8 10 12; do
            for m in esa mir; do
                st=+; [ $m = mir ] && st=both
                if ! (cd "$T" && gt tallymer mkindex -esa "$f.$m" -mersize "$w" -minocc 2 >"$T/ty.out" 2>"$T/ty.err"); then
                    echo "SKIP wmers_vs_tallymer_${f}_w${w}_$st: gt failed: $(head -c 120 "$T/ty.err" | tr '\n' ' ')" >&2
                    echo "PASS wmers_vs_tallymer_${f}_w${w}_${st}_skipped(gt tallymer failed)"
                    continue
                fi
                want=$(awk 'NF == 2 && $1 ~ /^[0-9]+$/ { occ = $1; next } NF == 1 { print toupper($1), occ }' "$T/ty.out" | sort)
                got=$("$REPVIEW" wmers -w "$w" --count-only --strands "$st" "$T/$f.fa" | awk -F'\t' 'NR > 1 { print $1, $2 }' | sort)
                expect_eq "wmers_vs_tallymer_${f}_w${w}_$st($(grep -c . <<<"$want"))" "$got" "$want"
            done
        done
    done
else
    echo "SKIP wmers_vs_tallymer: gt not installed" >&2
    echo "PASS wmers_vs_tallymer_skipped(gt not installed)"
fi
rm -rf "$T"
