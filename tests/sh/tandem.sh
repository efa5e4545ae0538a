# tandem.sh — `repview tandem`: exact output, filters, REGION, usage errors, the
# index file, threads, and (when trf is installed) agreement with TRF on lambda.
source "$RV_TOP/tests/lib.sh"

H=$'#chrom\tstart\tend\tperiod\tcopies\tmotif'
printf '>chr1 test\nACACACACACGTTTTTTTTTTTTNNNNAGAGAGAGAGAGAGA\n>chr2\ncagcagcagcagCAGCAGtt\n>chr3\nGATTACA\n' >"$T/t.fa"
tsv() { printf '%s\n' "$H"; printf '%s\n' "$@" | tr ' ' '\t'; }

# runs by hand: AC x5, T x12 (after G, before the N gap), AG x7.5 after the gap;
# lower case chr2 still matches; the tt at the end of chr2 and TT of chr3 are runs
# of length 2, hidden by the default --min-len 10
expect_eq tandem_default "$($REPVIEW tandem "$T/t.fa")" \
    "$(tsv 'chr1 0 10 2 5.00 AC' 'chr1 11 23 1 12.00 T' 'chr1 27 42 2 7.50 AG' 'chr2 0 18 3 6.00 CAG')"
expect_eq tandem_all_runs "$($REPVIEW tandem --min-len 2 "$T/t.fa")" \
    "$(tsv 'chr1 0 10 2 5.00 AC' 'chr1 11 23 1 12.00 T' 'chr1 27 42 2 7.50 AG' 'chr2 0 18 3 6.00 CAG' \
           'chr2 18 20 1 2.00 T' 'chr3 2 4 1 2.00 T')"
expect_eq tandem_min_copies "$($REPVIEW tandem --min-copies 6 "$T/t.fa")" \
    "$(tsv 'chr1 11 23 1 12.00 T' 'chr1 27 42 2 7.50 AG' 'chr2 0 18 3 6.00 CAG')"
expect_eq tandem_min_copies_frac "$($REPVIEW tandem --min-copies 7.5 "$T/t.fa")" \
    "$(tsv 'chr1 11 23 1 12.00 T' 'chr1 27 42 2 7.50 AG')"
expect_eq tandem_max_period "$($REPVIEW tandem --max-period 1 --min-len 2 "$T/t.fa")" \
    "$(tsv 'chr1 11 23 1 12.00 T' 'chr2 18 20 1 2.00 T' 'chr3 2 4 1 2.00 T')"
expect_eq tandem_period_range "$($REPVIEW tandem --min-period 2 --max-period 2 "$T/t.fa")" \
    "$(tsv 'chr1 0 10 2 5.00 AC' 'chr1 27 42 2 7.50 AG')"
expect_eq tandem_min_len "$($REPVIEW tandem --min-len 13 "$T/t.fa")" \
    "$(tsv 'chr1 27 42 2 7.50 AG' 'chr2 0 18 3 6.00 CAG')"

# REGION: runs that overlap it, printed whole
expect_eq tandem_region "$($REPVIEW tandem "$T/t.fa" chr1:12-30)" \
    "$(tsv 'chr1 11 23 1 12.00 T' 'chr1 27 42 2 7.50 AG')"
expect_eq tandem_region_edge "$($REPVIEW tandem "$T/t.fa" chr1:23-27)" \
    "$(tsv 'chr1 11 23 1 12.00 T')"
expect_eq tandem_region_gap "$($REPVIEW tandem "$T/t.fa" chr1:24-27)" "$H"
expect_eq tandem_region_record "$($REPVIEW tandem --min-len 2 "$T/t.fa" chr3)" "$(tsv 'chr3 2 4 1 2.00 T')"
expect_eq tandem_region_last_base "$($REPVIEW tandem "$T/t.fa" chr2:18-18)" "$(tsv 'chr2 0 18 3 6.00 CAG')"

# usage errors exit 2, data errors 1, one stderr line each
expect_exit tandem_bad_min_period 2 "$REPVIEW" tandem --min-period 0 "$T/t.fa"
expect_exit tandem_bad_max_period 2 "$REPVIEW" tandem --max-period x "$T/t.fa"
expect_exit tandem_max_below_min 2 "$REPVIEW" tandem --min-period 5 --max-period 4 "$T/t.fa"
expect_exit tandem_bad_min_copies 2 "$REPVIEW" tandem --min-copies two "$T/t.fa"
expect_exit tandem_negative_copies 2 "$REPVIEW" tandem --min-copies -1 "$T/t.fa"
expect_exit tandem_bad_min_len 2 "$REPVIEW" tandem --min-len 1e "$T/t.fa"
expect_exit tandem_unknown_option 2 "$REPVIEW" tandem --period 3 "$T/t.fa"
expect_exit tandem_no_file 2 "$REPVIEW" tandem
expect_exit tandem_extra_operand 2 "$REPVIEW" tandem "$T/t.fa" chr1 chr2
expect_exit tandem_bad_region 2 "$REPVIEW" tandem "$T/t.fa" chrX:1-5
expect_exit tandem_missing_file 1 "$REPVIEW" tandem "$T/missing.fa"
expect_exit tandem_help 0 "$REPVIEW" tandem --help

# the same answers from a saved index, from stdin, and with 1 or 2 threads
L="$RV_TOP/samples/lambda.fa.gz"
zcat "$L" >"$T/lambda.fa"
want=$($REPVIEW tandem --min-len 2 -t 1 "$T/lambda.fa")
expect_eq tandem_threads "$($REPVIEW tandem --min-len 2 -t 2 "$T/lambda.fa")" "$want"
$REPVIEW index --quiet "$T/lambda.fa" 2>/dev/null
expect_eq tandem_from_rvx "$($REPVIEW tandem --min-len 2 "$T/lambda.fa")" "$want"
expect_eq tandem_stdin "$($REPVIEW tandem --min-len 2 - <"$T/lambda.fa")" "$want"
expect_eq tandem_gz "$($REPVIEW tandem --min-len 2 "$L")" "$want"

# Every line is a run: period p, copies = len/p >= 2, motif = first p bases, and the
# sequence really has period p there and stops having it at both ends (awk check).
bad_lines=$(awk 'NR==FNR { if (!/^>/) s = s $0; next }
    FNR > 1 { b = $2; e = $3; p = $4; L = e - b
        if (L < 2 * p || sprintf("%.2f", L / p) != $5 || toupper(substr(s, b + 1, p)) != $6) { print; next }
        for (i = b + p; i < e; i++) if (substr(s, i + 1, 1) != substr(s, i - p + 1, 1)) { print; next }
        if (b > 0 && substr(s, b, 1) == substr(s, b + p, 1)) { print; next }
        if (e < length(s) && substr(s, e + 1, 1) == substr(s, e - p + 1, 1)) print }' \
    "$T/lambda.fa" <(printf '%s\n' "$want") | head -3)
expect_eq tandem_lines_are_runs "$bad_lines" ""

# TRF on lambda (Benson 1999).  A minimum score of 50 finds nothing in lambda
# (its best locus scores 44), so we ask for 20 (= 10 matching bases at weight 2).
# Recall TRF -> ours: TRF loci with period <= 6 and >= 95% identity must overlap an
# exact run of ours (default filter: >= 10 bp, 2 copies).  Such a locus of 10-19 bp
# has no mismatch at all (one would be > 5%), so it IS one of our runs; longer ones
# may hold one mismatch per 20 bp, which can cut the exact run below 10 bp, so we
# allow 10% misses (measured: 49/49).
# Reverse: our runs with period <= 6 and length >= 11 must overlap a TRF locus.  TRF
# scores an exact repeat 2 per base, so these score >= 22, clear of the minimum 20:
# at exactly 20 TRF's k-tuple detection drops most 2-copy period-5 10-mers (25 of
# the 28 in lambda).  We allow 10% misses for its redundancy elimination
# (measured: 38/38).
if command -v trf >/dev/null 2>&1; then
    ( cd "$T" && trf lambda.fa 2 7 7 80 10 20 500 -h -ngs >trf.txt 2>/dev/null )
    awk '/^[0-9]/ { print $1 - 1 "\t" $2 "\t" $3 "\t" $6 }' "$T/trf.txt" >"$T/trf_all.tsv"
    awk '$3 <= 6 && $4 >= 95' "$T/trf_all.tsv" >"$T/trf_sel.tsv"
    $REPVIEW tandem "$T/lambda.fa" | awk 'NR > 1 { print $2 "\t" $3 "\t" $4 }' >"$T/ours.tsv"
    awk '$3 <= 6 && $2 - $1 >= 11' "$T/ours.tsv" >"$T/ours_scorable.tsv"
    # covered A B: "hits total" of intervals of B that overlap some interval of A
    covered() { awk 'NR == FNR { s[NR] = $1; e[NR] = $2; n = NR; next }
        { t++; for (i = 1; i <= n; i++) if (s[i] < $2 && $1 < e[i]) { c++; break } }
        END { print c + 0, t + 0 }' "$1" "$2"; }
    read -r hit tot < <(covered "$T/ours.tsv" "$T/trf_sel.tsv")
    if [ "$tot" -ge 20 ] && [ $((hit * 10)) -ge $((tot * 9)) ]; then ok "tandem_trf_recall ($hit/$tot)"
    else bad tandem_trf_recall "$hit of $tot TRF loci overlap a run"; fi
    read -r hit tot < <(covered "$T/trf_all.tsv" "$T/ours_scorable.tsv")
    if [ "$tot" -ge 20 ] && [ $((hit * 10)) -ge $((tot * 9)) ]; then ok "tandem_trf_reverse ($hit/$tot)"
    else bad tandem_trf_reverse "$hit of $tot runs overlap a TRF locus"; fi
fi
rm -rf "$T"
