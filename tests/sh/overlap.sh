# overlap.sh — `repview overlap`: exact output on small files, FASTQ/gzip queries,
# errors, and a brute-force check of longest prefixes on a random genome.
source "$RV_TOP/tests/lib.sh"
printf '>chr1 desc\nACGTacgtNNGAATTCAC\n>chr2\nttGAATTCaa\n' >"$T/s.fa"
printf '>q1\nGAATTCAAAA\n>q2 x\nNACG\n@q3\nttcacg\n+\nIIIIII\n>q4\nNNNN\n' >"$T/q.fq"
H=$'#query\tqlen\tlen\tchrom\tstart\tend\tstrand'
want="$H
q1	10	8	chr2	2	10	+
q2	4	3	chr1	1	4	-
q2	4	3	chr1	5	8	-
q3	6	5	chr1	13	18	+
q4	4	0	.	.	.	."
expect_eq overlap_small "$($REPVIEW overlap -f "$T/q.fq" "$T/s.fa")" "$want"
expect_eq overlap_wide_arrays "$(REPVIEW_FORCE_WIDE=1 $REPVIEW overlap -f "$T/q.fq" "$T/s.fa")" "$want"
gzip -c "$T/q.fq" >"$T/q.fq.gz"
expect_eq overlap_gz_queries "$($REPVIEW overlap -f "$T/q.fq.gz" "$T/s.fa")" "$want"
expect_eq overlap_stdin_queries "$($REPVIEW overlap -f - "$T/s.fa" <"$T/q.fq")" "$want"
expect_eq overlap_plus "$($REPVIEW overlap --strand + -f "$T/q.fq" "$T/s.fa" | grep '^q2')" "q2	4	0	.	.	.	."

# 150 occurrences of one prefix: only the first 100 lines, in text order
awk 'BEGIN { printf ">r\n"; for (i = 0; i < 150; i++) printf "ACGTTN"; printf "\n" }' >"$T/rep.fa"
printf '>q\nACGTTAAAA\n' >"$T/q1.fa"
out=$($REPVIEW overlap --strand + -f "$T/q1.fa" "$T/rep.fa")
expect_eq overlap_first_100 "$(tail -n +2 <<<"$out" | wc -l) $(sed -n 2p <<<"$out" | cut -f3-5 | tr "\t" " ") $(tail -1 <<<"$out" | cut -f5)" \
    "100 5 r 0 594"

expect_exit overlap_no_queries 2 $REPVIEW overlap "$T/s.fa"
expect_exit overlap_no_file 2 $REPVIEW overlap -f "$T/q.fq"
expect_exit overlap_bad_strand 2 $REPVIEW overlap --strand up -f "$T/q.fq" "$T/s.fa"
expect_exit overlap_missing_queries 1 $REPVIEW overlap -f "$T/nope.fq" "$T/s.fa"
printf '@q\nACGT\n+\nII\n' >"$T/trunc.fq"
expect_exit overlap_truncated_fastq 1 $REPVIEW overlap -f "$T/trunc.fq" "$T/s.fa"
printf '>prot\nMKVLAAGMKW\n' >"$T/p.faa"
expect_exit overlap_protein_minus 2 $REPVIEW overlap --strand - -f "$T/q.fq" "$T/p.faa"

# Brute force: longest prefix (either strand) of random reads on a random genome.
awk 'BEGIN { srand(7); printf ">g\n"; for (i = 0; i < 3000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); printf "\n" }' >"$T/g.fa"
awk 'BEGIN { srand(8); for (q = 0; q < 40; q++) { printf ">q%d\n", q; for (i = 0; i < 12; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); printf "\n" } }' >"$T/rq.fa"
$REPVIEW overlap -f "$T/rq.fa" "$T/g.fa" | awk -F'\t' 'NR > 1 { print $1, $3 }' | sort -u >"$T/got"
awk 'function rc(s,  r, i, c) { r = ""; for (i = length(s); i > 0; i--) { c = substr(s, i, 1)
        r = r (c == "A" ? "T" : c == "C" ? "G" : c == "G" ? "C" : "A") } return r }
     NR == FNR { if (FNR == 2) g = $0; next }
     /^>/ { name = substr($1, 2); next }
     { best = 0; for (L = length($0); L > 0 && !best; L--)
           if (index(g, substr($0, 1, L)) || index(g, substr(rc($0), 1, L))) best = L
       print name, best }' "$T/g.fa" "$T/rq.fa" | sort -u >"$T/want"
if cmp -s "$T/got" "$T/want"; then ok overlap_brute_force; else bad overlap_brute_force "$(diff "$T/got" "$T/want" | head -3 | tr '\n' ' ')"; fi
