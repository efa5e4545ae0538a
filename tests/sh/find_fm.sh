# find_fm.sh — `repview find --count` and `--search fm|sa|auto`: the FM-index
# path gives the bytes of the SA path for counts and BED6+ lines, on a generated genome
# with reads from both strands (mismatches, N, IUPAC, lower case, palindromes), k = 0..3,
# every strand mode; batches, pattern order, errors.  The GPU is used when the binary
# has one (`--gpu` runs are skipped otherwise).
source "$RV_TOP/tests/lib.sh"
G=${RV_BUILD:-build}/gen_chrom S=${RV_BUILD:-build}/sim_reads
"$G" --kind dna 300k 5 >"$T/g.fa"
"$S" "$T/g.fa" 3000 60 5 >"$T/r.fq"
# a few patterns that take the SA path: IUPAC, short, all N, and a palindrome
printf '@iupac\nACGTRYACGTNNACGT\n+\nIIIIIIIIIIIIIIII\n@short\nAC\n+\nII\n@pal\nGAATTC\n+\nIIIIII\n' >>"$T/r.fq"
$REPVIEW index --quiet "$T/g.fa" >/dev/null

all_same=1
for k in 0 1 2 3; do
    for st in both + -; do
        a=$($REPVIEW find --search sa --count -k $k --strand $st -f "$T/r.fq" "$T/g.fa")
        b=$($REPVIEW find --search fm --count -k $k --strand $st -f "$T/r.fq" "$T/g.fa")
        [ "$a" == "$b" ] || { all_same=0; bad find_fm_count "k=$k strand $st: counts differ"; }
    done
done
[ $all_same = 1 ] && ok find_fm_count_same_as_sa

for k in 0 2; do
    expect_eq find_fm_locate_k$k "$($REPVIEW find --search fm -k $k -f "$T/r.fq" "$T/g.fa" | md5sum)" \
        "$($REPVIEW find --search sa -k $k -f "$T/r.fq" "$T/g.fa" | md5sum)"
done

# many small batches (REPVIEW_FIND_BATCH) give the same answer as one
expect_eq find_fm_batches_count "$(REPVIEW_FIND_BATCH=7 $REPVIEW find --search fm --count -k 1 -f "$T/r.fq" "$T/g.fa")" \
    "$($REPVIEW find --search sa --count -k 1 -f "$T/r.fq" "$T/g.fa")"
expect_eq find_fm_batches_locate "$(REPVIEW_FIND_BATCH=5 $REPVIEW find --search fm -k 1 -f "$T/r.fq" "$T/g.fa" | md5sum)" \
    "$($REPVIEW find --search sa -k 1 -f "$T/r.fq" "$T/g.fa" | md5sum)"
# batches coded ahead by the reading thread (every batch after the first, all of
# them where a GPU searches), with patterns the FM-index does not take in each one
awk 'NR % 4 == 2 && NR % 12 == 2 { $0 = substr($0, 1, 20) "N" substr($0, 22) } { print }' "$T/r.fq" >"$T/rn.fq"
for k in 0 2; do
    expect_eq find_fm_ahead_count_k$k "$(REPVIEW_FIND_BATCH=9 $REPVIEW find --search fm --count -k $k -f "$T/rn.fq" "$T/g.fa")" \
        "$($REPVIEW find --search sa --count -k $k -f "$T/rn.fq" "$T/g.fa")"
    expect_eq find_fm_ahead_locate_k$k "$(REPVIEW_FIND_BATCH=9 $REPVIEW find --search fm -k $k -f "$T/rn.fq" "$T/g.fa" | md5sum)" \
        "$($REPVIEW find --search sa -k $k -f "$T/rn.fq" "$T/g.fa" | md5sum)"
done

# the output formatted in many slices and rounds (REPVIEW_FORMAT_SLICE) is the
# same bytes as in one
expect_eq find_fm_slices_locate "$(REPVIEW_FORMAT_SLICE=3 $REPVIEW find -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)" \
    "$($REPVIEW find -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)"
expect_eq find_fm_slices_count "$(REPVIEW_FORMAT_SLICE=3 REPVIEW_FIND_BATCH=50 $REPVIEW find --count -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)" \
    "$($REPVIEW find --count -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)"
# and on the threads asked for (-t: the hits' sort and their lines)
for t in 1 3; do
    expect_eq find_fm_slices_locate_t$t "$(REPVIEW_FORMAT_SLICE=3 $REPVIEW find -t $t -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)" \
        "$($REPVIEW find -k 2 -f "$T/r.fq" "$T/g.fa" | md5sum)"
done
n_lines=$($REPVIEW find -k 2 -f "$T/r.fq" "$T/g.fa" | wc -l)
[ "$n_lines" -gt 100 ] && ok find_fm_slices_many_hits || bad find_fm_slices_many_hits "only $n_lines lines"

# --count: one line per pattern, command line first, then the file in its order
c=$($REPVIEW find --count -k 1 -f "$T/r.fq" "$T/g.fa" GAATTC)
expect_eq find_count_header "$(head -1 <<<"$c")" $'#pattern\tcount'
expect_eq find_count_order "$(sed -n '2p;3p' <<<"$c" | cut -f1 | tr '\n' ' ')" "GAATTC r1 "
expect_eq find_count_lines "$(wc -l <<<"$c")" "$((1 + 1 + $(grep -c '^@' "$T/r.fq")))"
# counts agree with the number of BED6+ lines of the same search
expect_eq find_count_is_lines "$(awk 'NR>1{s+=$2}END{print s}' <<<"$c")" \
    "$($REPVIEW find -k 1 -f "$T/r.fq" "$T/g.fa" GAATTC | tail -n +2 | wc -l)"
# a palindrome counts on both strands
printf '>s\nCCGAATTCCC\n' >"$T/p.fa"
expect_eq find_count_palindrome "$($REPVIEW find --count "$T/p.fa" GAATTC)" $'#pattern\tcount\nGAATTC\t2'
expect_eq find_count_none "$($REPVIEW find --count --strand + "$T/p.fa" TTTT)" $'#pattern\tcount\nTTTT\t0'

# -o: the file appears complete, also with --count
$REPVIEW find --count -f "$T/r.fq" -o "$T/out.tsv" "$T/g.fa"
expect_eq find_count_output "$(cat "$T/out.tsv")" "$($REPVIEW find --count -f "$T/r.fq" "$T/g.fa")"

# errors
expect_exit find_search_bad 2 $REPVIEW find --search xyz "$T/g.fa" ACGT
printf '@ok\nACGT\n+\nIIII\n@bad\nAC!T\n+\nIIII\n' >"$T/bad.fq"
expect_exit find_fm_bad_record 1 $REPVIEW find --search fm --count -f "$T/bad.fq" "$T/g.fa"
expect_eq find_fm_bad_record_msg "$($REPVIEW find --search fm -f "$T/bad.fq" "$T/g.fa" 2>&1 >/dev/null)" \
    "repview: $T/bad.fq: record 'bad': pattern 'AC!T': '!' matches nothing in a dna index"
printf '>p\nACDEFG\n' >"$T/prot.fa"
expect_exit find_fm_protein 1 $REPVIEW find --search fm --alphabet protein "$T/prot.fa" ACD
expect_eq find_auto_protein "$($REPVIEW find --count --alphabet protein "$T/prot.fa" ACD)" $'#pattern\tcount\nACD\t1'

# the GPU (when this binary has one and a device answers)
if $REPVIEW --version | grep -q 'cuda: yes' && $REPVIEW find --gpu --count "$T/p.fa" ACGT >/dev/null 2>&1; then
    for k in 0 2; do
        expect_eq find_gpu_count_k$k "$($REPVIEW find --gpu --count -k $k -f "$T/r.fq" "$T/g.fa")" \
            "$($REPVIEW find --cpu --search sa --count -k $k -f "$T/r.fq" "$T/g.fa")"
        expect_eq find_gpu_locate_k$k "$($REPVIEW find --gpu -k $k -f "$T/r.fq" "$T/g.fa" | md5sum)" \
            "$($REPVIEW find --cpu --search sa -k $k -f "$T/r.fq" "$T/g.fa" | md5sum)"
    done
    # every batch coded ahead (the first while the table is built), N in some reads
    expect_eq find_gpu_ahead_count "$(REPVIEW_FIND_BATCH=9 $REPVIEW find --gpu --count -k 2 -f "$T/rn.fq" "$T/g.fa")" \
        "$($REPVIEW find --cpu --search sa --count -k 2 -f "$T/rn.fq" "$T/g.fa")"
    expect_eq find_gpu_ahead_locate "$(REPVIEW_FIND_BATCH=9 $REPVIEW find --gpu -k 1 -f "$T/rn.fq" "$T/g.fa" | md5sum)" \
        "$($REPVIEW find --cpu --search sa -k 1 -f "$T/rn.fq" "$T/g.fa" | md5sum)"
else
    echo "SKIP find_gpu: no usable GPU"
    expect_exit find_gpu_missing 1 $REPVIEW find --gpu --count "$T/p.fa" ACGT
fi
