# strands.sh — `repview pairs --strands`: inverted (palindromic) maximal pairs next
# to the direct ones, against vmatch (mkvtree + vmatch -d -p, REPuter semantics:
# 'P' pairs, the second position the forward start of the reverse-complement copy)
# pair for pair on synthetic chromosomes, lambda and a hand-made multi-record file
# with N runs and planted inverted repeats (skipped, visibly, without vmatch);
# the index of both strands kept in FILE.rvx answering + and both; exit codes.
source "$RV_TOP/tests/lib.sh"
GEN="$RV_BUILD/gen_chrom"

# ---- inputs
"$GEN" --kind dna --records 3 20k 7 >"$T/syn.fa"
"$GEN" --kind dna 30k 11 >"$T/syn1.fa"
zcat "$RV_TOP/samples/lambda.fa.gz" >"$T/lambda.fa"
# hand-made: random records (lower case too) with N runs, IUPAC codes, and copies
# and reverse complements of earlier stretches (some across records, some
# overlapping their source, some palindromes)
awk 'function rc(s,   i, r, c) { r = ""; for (i = length(s); i > 0; i--) { c = substr(s, i, 1)
        r = r (c == "A" ? "T" : c == "C" ? "G" : c == "G" ? "C" : c == "T" ? "A" : c) }; return r }
    function rnd(n,   s, i) { s = ""; for (i = 0; i < n; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1); return s }
    BEGIN { srand(3); all = ""
        for (r = 0; r < 4; r++) { s = ""
            for (k = 0; k < 40; k++) {
                u = rand(); src = all s
                if (u < 0.25 && length(src) > 40) { b = int(rand() * (length(src) - 30)) + 1; s = s rc(substr(src, b, 8 + int(rand() * 20))) }
                else if (u < 0.35 && length(src) > 40) { b = int(rand() * (length(src) - 30)) + 1; s = s substr(src, b, 8 + int(rand() * 20)) }
                else if (u < 0.45) { p = rnd(3 + int(rand() * 8)); s = s p rc(p) }
                else if (u < 0.5) s = s substr("NNNNNNNNRYKN", 1, 1 + int(rand() * 12))
                else s = s rnd(5 + int(rand() * 30))
            }
            if (r == 2) s = tolower(substr(s, 1, 200)) substr(s, 201)
            all = all s; print ">h" r; print s } }' >"$T/hand.fa"
printf '>p1\nMKVLATTGLLLAGSAAAQDRSX\n>p2\nMKVLATWWGSAAAQ\n' >"$T/prot.fa"
printf '>a\nACGTTTGCAAACGTNNCCATGGAA\n>b\nTTCCATGG\n' >"$T/tiny.fa"

# ---- hand-checked (vmatch -l 3 -d -p gives the same eight pairs)
HDR=$'#chrom1\tstart1\tend1\tchrom2\tstart2\tend2\tname\tscore\tstrand1\tstrand2\tgap'
TINY="$HDR"$'\na\t0\t14\ta\t0\t14\t.\t14\t+\t-\t-14\na\t0\t4\ta\t0\t4\t.\t4\t+\t-\t-4\na\t0\t4\ta\t10\t14\t.\t4\t+\t+\t6
a\t10\t14\ta\t10\t14\t.\t4\t+\t-\t-4\na\t16\t22\ta\t16\t22\t.\t6\t+\t-\t-6\na\t16\t24\tb\t0\t8\t.\t8\t+\t-\t.
a\t16\t22\tb\t2\t8\t.\t6\t+\t+\t.\nb\t2\t8\tb\t2\t8\t.\t6\t+\t-\t-6'
# (a 0 4 and a 0 14 are tied in the documented order (p1, p2, direct first): the
# order between them is left open, so lines are compared sorted)
expect_eq strands_tiny "$("$REPVIEW" pairs -l 3 --strands both "$T/tiny.fa" | sort)" "$(sort <<<"$TINY")"
expect_eq strands_tiny_minus "$("$REPVIEW" pairs -l 3 --strands - "$T/tiny.fa" | sort)" "$(grep -v $'\t+\t+\t' <<<"$TINY" | sort)"
expect_eq strands_tiny_plus "$("$REPVIEW" pairs -l 3 --strands + "$T/tiny.fa")" "$(grep -v $'\t+\t-\t' <<<"$TINY")"

# ---- every file: both = direct + inverted; + = the default; counts; threads; order
for f in syn hand lambda; do
    for l in 8 14; do
        "$REPVIEW" pairs -l $l --strands both -t 1 "$T/$f.fa" >"$T/both.bedpe"
        "$REPVIEW" pairs -l $l --strands - "$T/$f.fa" >"$T/minus.bedpe"
        "$REPVIEW" pairs -l $l --strands + "$T/$f.fa" >"$T/plus.bedpe"
        "$REPVIEW" pairs -l $l "$T/$f.fa" >"$T/plain.bedpe"
        n=$(($(wc -l <"$T/both.bedpe") - 1))
        expect_eq "strands_plus_is_default_${f}_l$l" "$(cmp "$T/plus.bedpe" "$T/plain.bedpe" && echo same)" same
        expect_eq "strands_both_is_union_${f}_l$l($n)" "$(tail -n +2 "$T/both.bedpe" | sort)" \
            "$(tail -qn +2 "$T/plus.bedpe" "$T/minus.bedpe" | sort)"
        expect_eq "strands_minus_only_inverted_${f}_l$l" "$(tail -n +2 "$T/minus.bedpe" | awk -F'\t' '$10 != "-"' | head -3)" ""
        expect_eq "strands_count_${f}_l$l" "$("$REPVIEW" pairs -l $l --count --strands both "$T/$f.fa")" "$n"
        expect_eq "strands_count_minus_${f}_l$l" "$("$REPVIEW" pairs -l $l --count --strands - "$T/$f.fa")" \
            "$(($(wc -l <"$T/minus.bedpe") - 1))"
        expect_eq "strands_threads_${f}_l$l" "$("$REPVIEW" pairs -l $l --strands both -t 3 "$T/$f.fa" | cmp - "$T/both.bedpe" && echo same)" same
        # ordered by (first copy, second copy), direct before inverted (records in file order)
        order=$(grep '^>' "$T/$f.fa" | sed 's/^>//; s/[[:space:]].*//' | awk '{ print $0, NR }')
        expect_eq "strands_sorted_${f}_l$l" "$(tail -n +2 "$T/both.bedpe" | awk -F'\t' -v o="$order" '
            BEGIN { n = split(o, w, /[ \n]/); for (i = 1; i < n; i += 2) rank[w[i]] = w[i + 1] }
            { k = sprintf("%06d %012d %06d %012d %d", rank[$1], $2, rank[$4], $5, $10 == "-")
              if (NR > 1 && k < prev) { print "line " NR ": " $0; exit } prev = k }')" ""
        # an inverted pair's second copy is the reverse complement of its first
        expect_eq "strands_inverted_are_rc_${f}_l$l" "$(awk -F'\t' '$10 == "-" { print $1, $2, $3; print $4, $5, $6 }' "$T/minus.bedpe" | head -400 |
            awk 'NR == FNR { if (/^>/) { name = substr($1, 2) } else seq[name] = seq[name] toupper($0); next }
                 function rc(s,   i, r, c) { r = ""; for (i = length(s); i > 0; i--) { c = substr(s, i, 1)
                     r = r (c == "A" ? "T" : c == "C" ? "G" : c == "G" ? "C" : c == "T" ? "A" : "?") }; return r }
                 { w = substr(seq[$1], $2 + 1, $3 - $2) }
                 FNR % 2 == 1 { a = w; next }
                 w != rc(a) { print "not reverse complements: " a " " w; exit }' "$T/$f.fa" -)" ""
    done
done

# covering: the full output filtered by either copy (forward coordinates)
"$REPVIEW" pairs -l 10 --strands both "$T/hand.fa" >"$T/all.bedpe"
spots=$(awk -F'\t' 'NR > 1 && NR % 23 == 2 && $10 == "-" { print $1 ":" $2 + 1; print $4 ":" $6 }' "$T/all.bedpe" | head -10)
for pos in h0:1 h1:57 h3:100 $spots; do
    rec=${pos%%:*}; p=$((${pos#*:} - 1))
    expect_eq "strands_covering_$pos" "$("$REPVIEW" pairs -l 10 --strands both --covering "$pos" "$T/hand.fa")" \
        "$(awk -F'\t' "NR == 1 || (\$1 == \"$rec\" && \$2 <= $p && $p < \$3) || (\$4 == \"$rec\" && \$5 <= $p && $p < \$6)" "$T/all.bedpe")"
done
# filters apply to inverted pairs as to direct ones
expect_eq strands_within "$("$REPVIEW" pairs -l 10 --strands both --within h1:101-900 "$T/hand.fa")" \
    "$(awk -F'\t' 'NR == 1 || ($1 == "h1" && $4 == "h1" && $2 >= 100 && $3 <= 900 && $5 >= 100 && $6 <= 900)' "$T/all.bedpe")"
expect_eq strands_gap "$("$REPVIEW" pairs -l 10 --strands - --min-gap -5 --max-gap 300 "$T/hand.fa")" \
    "$(awk -F'\t' 'NR == 1 || ($10 == "-" && $11 != "." && $11 >= -5 && $11 <= 300)' "$T/all.bedpe")"

# ---- an index of both strands kept in FILE.rvx answers both and + (forward view)
cp "$T/hand.fa" "$T/kept.fa"
"$REPVIEW" pairs -l 10 --strands + "$T/kept.fa" >"$T/kept_plus.bedpe"
"$REPVIEW" index --strands both "$T/kept.fa" 2>/dev/null
expect_eq strands_rvx_stats "$("$REPVIEW" stats "$T/kept.fa" 2>/dev/null | grep -c 'strands: both')" 1
expect_eq strands_rvx_both "$("$REPVIEW" pairs -l 10 --strands both "$T/kept.fa" 2>"$T/err" | cmp - "$T/all.bedpe" && echo same)" same
expect_eq strands_rvx_both_quiet "$(cat "$T/err")" ""
expect_eq strands_rvx_plus "$("$REPVIEW" pairs -l 10 --strands + "$T/kept.fa" | cmp - "$T/kept_plus.bedpe" && echo same)" same
expect_eq strands_rvx_plain "$("$REPVIEW" pairs -l 10 "$T/kept.fa" | cmp - "$T/kept_plus.bedpe" && echo same)" same
expect_eq strands_rvx_count "$("$REPVIEW" pairs -l 10 --count --strands both "$T/kept.fa")" "$(($(wc -l <"$T/all.bedpe") - 1))"

# ---- usage and data errors
expect_exit strands_bad_word 2 "$REPVIEW" pairs -l 4 --strands x "$T/tiny.fa"
expect_exit strands_empty_word 2 "$REPVIEW" pairs -l 4 --strands '' "$T/tiny.fa"
"$REPVIEW" pairs -l 4 --strands both "$T/prot.fa" >"$T/out" 2>"$T/err"; rc=$?
if { [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^repview: ' "$T/err" && [ ! -s "$T/out" ]; then
    ok strands_protein_refused
else
    bad strands_protein_refused "exit $rc, stdout $(wc -c <"$T/out") bytes, stderr: $(head -c 300 "$T/err")"
fi
"$REPVIEW" pairs -l 4 --strands - "$T/prot.fa" >"$T/out" 2>"$T/err"; rc=$?
if { [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^repview: ' "$T/err"; then
    ok strands_protein_minus_refused
else
    bad strands_protein_minus_refused "exit $rc, stderr: $(head -c 300 "$T/err")"
fi
expect_exit strands_protein_plus_ok 0 "$REPVIEW" pairs -l 4 --strands + "$T/prot.fa"

# ---- the same pairs as vmatch -d -p (-p alone; -d alone)
# rows "seq1 start1 seq2 start2 len D|P"
ours() { awk -F'\t' 'NR > 1 { print $1, $2, $4, $5, $8, ($10 == "-" ? "P" : "D") }' | sort; }
if command -v mkvtree >/dev/null && command -v vmatch >/dev/null; then
    for f in syn syn1 hand lambda tiny; do
        (cd "$T" && mkvtree -db "$f.fa" -dna -pl -allout >/dev/null 2>&1)
        names=$(grep '^>' "$T/$f.fa" | sed 's/^>//; s/[[:space:]].*//' | tr '\n' ' ')
        for l in 3 8 12 20; do
            [ $l = 3 ] && [ $f != tiny ] && continue
            theirs() { (cd "$T" && vmatch -l "$l" "$@" -noevalue -noscore -noidentity "$f.fa") | awk -v names="$names" '
                BEGIN { split(names, nm, " ") } !/^#/ { print nm[$2 + 1], $3, nm[$6 + 1], $7, $1, $4 }' | sort; }
            want=$(theirs -d -p); n=$(grep -c . <<<"$want")
            expect_eq "strands_vs_vmatch_dp_${f}_l$l($n)" "$("$REPVIEW" pairs -l $l --strands both "$T/$f.fa" | ours)" "$want"
            expect_eq "strands_count_vs_vmatch_${f}_l$l" "$("$REPVIEW" pairs -l $l --count --strands both "$T/$f.fa")" "$n"
            want=$(theirs -p)
            expect_eq "strands_vs_vmatch_p_${f}_l$l($(grep -c . <<<"$want"))" "$("$REPVIEW" pairs -l $l --strands - "$T/$f.fa" | ours)" "$want"
            want=$(theirs -d)
            expect_eq "strands_vs_vmatch_d_${f}_l$l($(grep -c . <<<"$want"))" "$("$REPVIEW" pairs -l $l --strands + "$T/$f.fa" | ours)" "$want"
        done
    done
else
    echo "SKIP strands_vs_vmatch: mkvtree/vmatch not installed" >&2
fi
rm -rf "$T"
