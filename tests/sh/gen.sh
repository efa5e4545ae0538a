# gen.sh — the synthetic sequence generator (samples/gen_chrom.c): determinism, exact
# lengths, the composition its model promises, and that repview reads every kind.
. "$RV_TOP/tests/lib.sh"
GEN=$RV_BUILD/gen_chrom

# seq_of FILE: the sequence of all records, one line (headers dropped)
seq_of() { grep -v '^>' "$1" | tr -d '\n'; }

$GEN 300k 11 >"$T/a.fa"; $GEN 300k 11 >"$T/b.fa"; $GEN 300k 12 >"$T/c.fa"
if cmp -s "$T/a.fa" "$T/b.fa"; then ok gen_same_seed_same_bytes; else bad gen_same_seed_same_bytes "outputs differ"; fi
if cmp -s "$T/a.fa" "$T/c.fa"; then bad gen_other_seed_differs "seeds 11 and 12 gave the same file"; else ok gen_other_seed_differs; fi
expect_eq gen_exact_length "$(seq_of "$T/a.fa" | wc -c)" 300000
expect_eq gen_suffix_k "$($GEN 2k 1 | seq_of /dev/stdin | wc -c)" 2000
expect_eq gen_line_width "$(grep -v '^>' "$T/a.fa" | awk 'length > 60' | wc -l)" 0
expect_eq gen_one_record "$(grep -c '^>' "$T/a.fa")" 1

# composition: GC of the A/C/G/T bases, lower-case share, N gaps, IUPAC codes
read -r gc low nruns iu < <(seq_of "$T/a.fa" | awk '{
    n = length($0); acgt = gsub(/[ACGTacgt]/, "&"); gc = gsub(/[GCgc]/, "&");
    low = gsub(/[acgt]/, "&"); nr = gsub(/N+/, "&"); iu = gsub(/[RYKMSW]/, "&");
    printf "%d %d %d %d\n", 1000 * gc / acgt, 1000 * low / n, nr, iu }')
if [ "$gc" -ge 390 ] && [ "$gc" -le 430 ]; then ok gen_gc_41; else bad gen_gc_41 "GC ${gc} per mille"; fi
if [ "$low" -ge 200 ] && [ "$low" -le 450 ]; then ok gen_soft_masked; else bad gen_soft_masked "lower case ${low} per mille"; fi
if [ "$nruns" -ge 3 ]; then ok gen_n_gaps; else bad gen_n_gaps "$nruns N runs"; fi
if [ "$iu" -ge 1 ]; then ok gen_iupac; else bad gen_iupac "no IUPAC code"; fi

# the model's repeats are there: 40-mers of the upper-cased sequence that occur
# again elsewhere (random 300 kbp at 41% GC would have practically none)
rep=$(seq_of "$T/a.fa" | tr acgt ACGT | awk '{ n = length($0)
    for (i = 1; i + 40 <= n; i++) { k = substr($0, i, 40); if (k !~ /N/) c[k]++ }
    for (k in c) if (c[k] > 1) r++; print r + 0 }')
if [ "$rep" -ge 500 ]; then ok gen_has_repeats; else bad gen_has_repeats "only $rep repeated 40-mers"; fi

expect_exit gen_stats_reads_dna 0 "$REPVIEW" stats "$T/a.fa"
grep -q '^# alphabet: dna' "$T/out" && ok gen_stats_dna_alphabet || bad gen_stats_dna_alphabet "$(head -3 "$T/out")"

for kind in protein english collection; do
    $GEN --kind $kind 200k 5 >"$T/$kind.fa"
    $GEN --kind $kind 200k 5 | cmp -s - "$T/$kind.fa" && ok gen_${kind}_deterministic || bad gen_${kind}_deterministic "outputs differ"
    expect_eq gen_${kind}_length "$(seq_of "$T/$kind.fa" | wc -c)" 200000
    expect_exit gen_${kind}_parses 0 "$REPVIEW" stats "$T/$kind.fa"
done
"$REPVIEW" stats "$T/protein.fa" | grep -q '^# alphabet: protein' && ok gen_protein_alphabet || bad gen_protein_alphabet "not detected as protein"
"$REPVIEW" stats "$T/english.fa" | grep -q '^# alphabet: text' && ok gen_english_alphabet || bad gen_english_alphabet "not detected as text"
expect_eq gen_collection_records "$(grep -c '^>' "$T/collection.fa")" 8
expect_eq gen_records_option "$($GEN --kind collection --records 3 --name g 30k 1 | grep '^>' | tr '\n' ' ')" ">g_1 >g_2 >g_3 "
expect_eq gen_dna_records "$($GEN --records 4 --width 80 10k 2 | grep -c '^>')" 4
if [ "$(grep -c '^>' "$T/protein.fa")" -ge 100 ]; then ok gen_protein_one_per_protein; else bad gen_protein_one_per_protein "few records"; fi

# genomes of a collection are near copies: most 100-mers of genome 2 occur in genome 1
awk -v d="$T" '/^>/ { k++; next } { print > (d "/g" k) }' "$T/collection.fa"
shared=$(awk 'FNR == 1 && NR > 1 { second = 1 }
    !second { a = a $0; next } { b = b $0 }
    END { n = 0; h = 0
          for (i = 1; i + 100 <= length(b); i += 997) { n++; h += index(a, substr(b, i, 100)) > 0 }
          print int(100 * h / (n ? n : 1)) }' "$T/g1" "$T/g2")
if [ "$shared" -ge 50 ]; then ok gen_collection_related; else bad gen_collection_related "$shared% of 100-mers shared"; fi

# the pan-genome collection (--identity): genome 2 copies genome 1, so their identity,
# measured by tests/sh/identity.awk, is the one asked for; its differences sit in
# patches, leaving most 1 kb windows identical (the classic model leaves none)
lines() { awk '/^>/ { printf "\n"; next } { printf "%s", $0 } END { printf "\n" }' "$1"; }
ident() { lines "$1" | awk -f "$RV_TOP/tests/sh/identity.awk"; }
$GEN --kind collection --records 3 6m 1 >"$T/classic.fa"
$GEN --kind collection --records 3 --identity 0.99 6m 1 >"$T/pan99.fa"
$GEN --kind collection --records 3 --identity 0.995 6m 1 >"$T/pan995.fa"
read -r id clean used < <(ident "$T/pan99.fa")
if [ "$id" -ge 98500 ] && [ "$id" -le 99500 ] && [ "$used" -ge 1500 ]; then ok gen_identity_99; else bad gen_identity_99 "identity $id/100000 over $used windows"; fi
if [ "$clean" -ge 60 ]; then ok gen_identity_long_shared; else bad gen_identity_long_shared "$clean% of 1 kb windows identical"; fi
read -r id clean used < <(ident "$T/pan995.fa")
if [ "$id" -ge 99100 ] && [ "$id" -le 99900 ] && [ "$used" -ge 1500 ]; then ok gen_identity_995; else bad gen_identity_995 "identity $id/100000 over $used windows"; fi
read -r id clean used < <(ident "$T/classic.fa")
if [ "$clean" -le 10 ]; then ok gen_classic_spread_out; else bad gen_classic_spread_out "$clean% of windows identical"; fi
cmp -s "$T/pan99.fa" "$T/classic.fa" && bad gen_identity_changes_model "same bytes as the classic model" || ok gen_identity_changes_model
$GEN --kind collection --records 3 --identity 0.99 6m 1 | cmp -s - "$T/pan99.fa" && ok gen_identity_deterministic || bad gen_identity_deterministic "outputs differ"
$GEN --kind collection --records 3 --identity 0.99 --shared 5k 6m 1 | cmp -s - "$T/pan99.fa" && bad gen_shared_option "--shared changed nothing" || ok gen_shared_option
$GEN --kind collection --records 16 --identity 0.995 4800007 2 >"$T/pan16.fa"
expect_eq gen_identity_records "$(grep -c '^>' "$T/pan16.fa")" 16
expect_eq gen_identity_lengths "$(lines "$T/pan16.fa" | awk 'NR > 1 { print length($0) }' | sort -u | tr '\n' ' ')" "300000 300001 "
expect_eq gen_identity_total "$(seq_of "$T/pan16.fa" | wc -c)" 4800007
expect_exit gen_identity_parses 0 "$REPVIEW" stats "$T/pan16.fa"
expect_eq gen_identity_dna_exit "$($GEN --identity 0.99 10k 1 >/dev/null 2>&1; echo $?)" 2
expect_eq gen_identity_range_exit "$($GEN --kind collection --identity 0.5 10k 1 >/dev/null 2>&1; echo $?)" 2
expect_eq gen_shared_alone_exit "$($GEN --kind collection --shared 10k 10k 1 >/dev/null 2>&1; echo $?)" 2

# the bytes of the classic kinds never change: tests, golden data and published
# bench inputs depend on them (the checksum pins their outputs; --identity leaves them be)
expect_eq gen_bytes_pinned "$({ $GEN 300k 11; $GEN --kind protein 200k 5; $GEN --kind english 200k 5
    $GEN --kind collection 200k 5; $GEN --records 3 5m 2; $GEN --kind collection --records 16 3m 7; } | cksum)" "107415009 9054190"

expect_eq gen_bad_length_exit "$($GEN 0 1 >/dev/null 2>&1; echo $?)" 2
expect_eq gen_bad_kind_exit "$($GEN --kind rna 10 1 >/dev/null 2>&1; echo $?)" 2
rm -rf "$T"
