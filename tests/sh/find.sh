# find.sh — `repview find`: exact output on small files, options, errors, and
# agreement with `seqkit locate` on the bundled lambda genome when seqkit exists.
source "$RV_TOP/tests/lib.sh"
printf '>chr1 desc\nACGTacgtNNGAATTCAC\n>chr2\nttGAATTCaa\n' >"$T/s.fa"
H=$'#chrom\tstart\tend\tpattern\tmismatches\tstrand\tmatched'

expect_eq find_two_patterns "$($REPVIEW find "$T/s.fa" GAATTC ACG)" "$H
chr1	0	3	ACG	0	+	ACG
chr1	1	4	ACG	0	-	CGT
chr1	4	7	ACG	0	+	acg
chr1	5	8	ACG	0	-	cgt
chr1	10	16	GAATTC	0	+	GAATTC
chr1	10	16	GAATTC	0	-	GAATTC
chr2	2	8	GAATTC	0	+	GAATTC
chr2	2	8	GAATTC	0	-	GAATTC"

expect_eq find_wide_arrays "$(REPVIEW_FORCE_WIDE=1 $REPVIEW find -k 1 "$T/s.fa" GAATTC ACG)" \
    "$($REPVIEW find -k 1 "$T/s.fa" GAATTC ACG)"

expect_eq find_plus_k1 "$($REPVIEW find -k 1 --strand + "$T/s.fa" GAATTA)" "$H
chr1	10	16	GAATTA	1	+	GAATTC
chr2	2	8	GAATTA	1	+	GAATTC"

expect_eq find_minus_only "$($REPVIEW find --strand - "$T/s.fa" gtgaa)" "$H
chr1	13	18	gtgaa	0	-	TTCAC"

expect_eq find_iupac "$($REPVIEW find --strand + "$T/s.fa" GRAYTC)" "$H
chr1	10	16	GRAYTC	0	+	GAATTC
chr2	2	8	GRAYTC	0	+	GAATTC"

printf '>p1 first\nGAATTC\n>rev\nGTGAA\n' >"$T/p.fa"
gzip -c "$T/p.fa" >"$T/p.fa.gz"
want_f="$H
chr1	0	4	ACGT	0	+	ACGT
chr1	0	4	ACGT	0	-	ACGT
chr1	4	8	ACGT	0	+	acgt
chr1	4	8	ACGT	0	-	acgt
chr1	10	16	p1	0	+	GAATTC
chr1	10	16	p1	0	-	GAATTC
chr1	13	18	rev	0	-	TTCAC
chr2	2	8	p1	0	+	GAATTC
chr2	2	8	p1	0	-	GAATTC"
expect_eq find_pattern_file "$($REPVIEW find -f "$T/p.fa" "$T/s.fa" ACGT)" "$want_f"
expect_eq find_pattern_file_gz "$($REPVIEW find -f "$T/p.fa.gz" "$T/s.fa" ACGT)" "$want_f"

expect_eq find_too_long "$($REPVIEW find "$T/s.fa" ACGTACGTACGTACGTACGTACGTACGT)" "$H"
expect_eq find_only_n "$($REPVIEW find --strand + "$T/s.fa" NNNNNNNN | tail -n +2 | cut -f1-3 | tr '\t\n' '  ')" \
    "chr1 0 8 chr1 10 18 chr2 0 8 chr2 1 9 chr2 2 10 "
expect_eq find_stdin_seq "$(printf '>x\nAAACCC\n' | $REPVIEW find - GGG)" "$H
x	3	6	GGG	0	-	CCC"

printf '>prot\nMKVLAAGMKW\n' >"$T/p.faa"
expect_eq find_protein_default_plus "$($REPVIEW find "$T/p.faa" mkx)" "$H
prot	0	3	mkx	0	+	MKV
prot	7	10	mkx	0	+	MKW"

expect_exit find_empty_pattern 2 $REPVIEW find "$T/s.fa" ""
expect_exit find_no_pattern 2 $REPVIEW find "$T/s.fa"
expect_exit find_no_file 2 $REPVIEW find
expect_exit find_bad_strand 2 $REPVIEW find --strand x "$T/s.fa" ACG
expect_exit find_bad_k 2 $REPVIEW find -k -1 "$T/s.fa" ACG
expect_exit find_bad_letter 2 $REPVIEW find "$T/s.fa" AC-G
expect_exit find_protein_minus 2 $REPVIEW find --strand both "$T/p.faa" MKV
expect_exit find_missing_input 1 $REPVIEW find "$T/nope.fa" ACG
expect_exit find_missing_patterns 1 $REPVIEW find -f "$T/nope.fa" "$T/s.fa"
printf '>p\nAC*G\n' >"$T/bad.fa"
expect_exit find_bad_pattern_record 1 $REPVIEW find -f "$T/bad.fa" "$T/s.fa"
expect_exit find_help 0 $REPVIEW find --help

# Same hits as seqkit locate (chrom, start, end, strand) on the lambda genome.
lambda="$RV_TOP/samples/lambda.fa.gz"
if command -v seqkit >/dev/null; then
    cmp_seqkit() { # name "repview options" "seqkit options" patterns...
        local name=$1 ro=$2 so=$3; shift 3
        local pr=() ps=()
        for p in "$@"; do pr+=("$p"); ps+=(-p "$p"); done
        $REPVIEW find $ro "$lambda" "${pr[@]}" | tail -n +2 | cut -f1-3,6 | sort >"$T/a"
        seqkit locate -i $so "${ps[@]}" "$lambda" 2>/dev/null |
            awk -F'\t' 'NR > 1 { print $1 "\t" $5 - 1 "\t" $6 "\t" $4 }' | sort >"$T/b"
        if [ -s "$T/b" ] && cmp -s "$T/a" "$T/b"; then ok "$name"; else
            bad "$name" "$(wc -l <"$T/a") repview lines vs $(wc -l <"$T/b") seqkit lines"; fi
    }
    cmp_seqkit find_vs_seqkit_exact "" "" GGCGCGCC TTTAAA gatc ACGTTGCA
    cmp_seqkit find_vs_seqkit_k1 "-k 1" "-m 1" GGCGCGCCA TTAATTAAC
    cmp_seqkit find_vs_seqkit_k2 "-k 2" "-m 2" GCTGGCGCTGAC
    cmp_seqkit find_vs_seqkit_iupac "" "-d" GGNNCC RYTTAAR
    cmp_seqkit find_vs_seqkit_plus "--strand +" "-P" CAGCA
else
    echo "SKIP find_vs_seqkit: seqkit not installed (comparison with seqkit locate not run)"
fi
