# tandem_kmruns.sh — `repview tandem --mismatches K` (k-mismatch runs): format, a
# planted repeat with substitutions, K = 0 equal to the exact runs (an independent
# algorithm: the index's runs), threads, regions, stdin and
# usage errors.  The definition itself is checked exhaustively by t_kmruns.
source "$RV_TOP/tests/lib.sh"

H=$'#chrom\tstart\tend\tperiod\tcopies\tmismatches\tmotif'

# 24 copies of a 10-mer, the 16th with one substitution (two mismatches at period 10)
u=ACGTTGCAAC
seq=
for ((i = 0; i < 24; i++)); do if [ $i = 15 ]; then seq+=ACGTTGCGAC; else seq+=$u; fi; done
printf '>c\n%s\n' "$seq" >"$T/p.fa"
out=$($REPVIEW tandem --mismatches 2 "$T/p.fa")
expect_eq km_header "$(head -1 <<<"$out")" "$H"
expect_eq km_whole "$(tail -n +2 <<<"$out")" $'c\t0\t240\t10\t24.00\t2\tACGTTGCAAC'
# with one mismatch: two runs overlapping across the substitution, no multiples of 10
expect_eq km_one "$($REPVIEW tandem --mismatches 1 "$T/p.fa" | awk 'NR > 1 { print $2, $3, $4, $6 }' | tr '\n' ' ')" \
    "0 167 10 1 148 240 10 1 "

# K = 0 gives the exact runs of period <= 500 (tandem's own algorithm, from the index)
"$RV_BUILD/gen_chrom" --kind dna 2m 5 >"$T/g.fa"
$REPVIEW tandem --mismatches 0 -t 1 "$T/g.fa" | tail -n +2 | cut -f1-5 >"$T/k0"
$REPVIEW tandem --max-period 500 --no-save "$T/g.fa" | tail -n +2 | cut -f1-5 >"$T/ex"
expect_eq km_zero_is_exact "$(cmp "$T/k0" "$T/ex" && wc -l <"$T/ex" | awk '$1 > 1000 { print "same" }')" same

# every line: copies = length / period, a motif of period letters, mismatches <= K,
# length >= 2 period and >= the default 10 (K + 1)
$REPVIEW tandem --mismatches 2 -t 1 "$T/g.fa" >"$T/k2"
expect_eq km_lines "$(awk 'NR > 1 { L = $3 - $2
    if (sprintf("%.2f", L / $4) != $5 || length($7) != $4 || $6 > 2 || L < 2 * $4 || L < 30 || $4 > 500) { print; exit } }' "$T/k2")" ""
expect_eq km_threads "$($REPVIEW tandem --mismatches 2 -t 2 "$T/g.fa" | cmp - "$T/k2" && echo same)" same
expect_eq km_stdin "$($REPVIEW tandem --mismatches 2 - <"$T/g.fa" | cmp - "$T/k2" && echo same)" same
# a region: the runs that overlap it, as in the whole answer
awk -F'\t' 'NR == 1 || ($3 > 500000 && $2 < 600000)' "$T/k2" >"$T/k2r"
expect_eq km_region "$($REPVIEW tandem --mismatches 2 "$T/g.fa" chrSyn:500001-600000 | cmp - "$T/k2r" && echo same)" same
# the filters apply
expect_eq km_filters "$($REPVIEW tandem --mismatches 1 --min-period 3 --max-period 7 --min-len 40 "$T/g.fa" |
    awk 'NR > 1 && ($4 < 3 || $4 > 7 || $3 - $2 < 40) { print; exit }')" ""

# usage errors: one line, exit 2
for args in "--mismatches x" "--mismatches -1" "--mismatches 1001" "--mismatches 1 --approx" \
    "--mismatches 1 --max-period 200000" "--mismatches 1 --mem-budget 1g"; do
    $REPVIEW tandem $args "$T/p.fa" >/dev/null 2>"$T/err"; rc=$?
    expect_eq "km_usage ($args)" "$rc $(wc -l <"$T/err" | tr -d ' ') $(head -c 15 "$T/err")" "2 1 repview: tandem"
done
rm -rf "$T"
