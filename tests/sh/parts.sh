# parts.sh — `repview lr|tandem|find --buckets I/N -o PART` and `repview merge`
# (mpi.sh has those of pairs, but for a merge short of memory at the end): for N = 1,
# 2, 3 and 7 slices the parts merged, in any order, give the single-process output
# byte for byte, in the commands' output modes and filters, on DNA of several records
# with N runs, protein, periodic and empty inputs; merge refuses missing and repeated
# slices, parts of other runs, inputs or commands, and parts cut or altered, with one
# error line and no output left behind.  No MPI needed.
source "$RV_TOP/tests/lib.sh"

# ---- inputs
"$RV_BUILD/gen_chrom" --kind dna --records 3 60k 15 >"$T/g.fa" || { bad parts_inputs "gen_chrom failed"; exit 1; }
"$RV_BUILD/gen_chrom" --kind dna 60k 16 >"$T/g1.fa"   # one 60 kbp segment: cut into pieces at 1m
printf '>r1\nCACGTAGACGTTNNACGTAGACGTTACGTA\n>r2\nNNACGTAGAYYACGTTCACGTA\n>r3\nTACGTCTACGT\n' >"$T/small.fa"
family_protein >"$T/prot.fa"
{ echo ">per"; for i in $(seq 40); do printf ACG; done; for i in $(seq 25); do printf AC; done
  printf 'NNNN'; for i in $(seq 30); do printf AAGAG; done; echo
  echo ">same"; printf 'A%.0s' $(seq 70); echo; } >"$T/per.fa"
printf '>a\nNNNNNN\n>b\nAC\n' >"$T/none.fa"
printf '>p1\nACGTACG\n>p2\nTTTTT\n>p3\nGRNAC\n' >"$T/pat.fa"

SLICES="1 2 3 7"
[ "${RV_TEST_QUICK:-0}" = 1 ] && SLICES="1 3 7"

# slices NAME N CMD FILE ARGS...: the N parts of CMD, written in turn; 0 when all
# were written.
slices() {
    local name=$1 n=$2 cmd=$3 f=$4; shift 4
    rm -f "$T"/part.*
    local i
    for i in $(seq 1 "$n"); do
        "$REPVIEW" "$cmd" --buckets "$i/$n" -o "$T/part.$i" "$f" "$@" 2>"$T/err" ||
            { bad "$name" "slice $i/$n: $(head -c 200 "$T/err")"; return 1; }
    done
    [ -z "$(ls "$T"/part.*.tmp.* 2>/dev/null)" ] || { bad "$name" "temporary part files left"; return 1; }
}

# variant NAME CMD FILE ARGS...: for each N, the parts merged in reverse order equal
# the command's output in one process (from the index); once with -o too.
variant() {
    local name=$1 cmd=$2 f=$3; shift 3
    local ref n
    ref=$("$REPVIEW" "$cmd" "$f" "$@" 2>&1) || { bad "$name" "$cmd: $ref"; return; }
    for n in $SLICES; do
        slices "${name}_n$n" "$n" "$cmd" "$f" "$@" || continue
        expect_eq "${name}_n$n" "$("$REPVIEW" merge $(ls -r "$T"/part.*) 2>&1)" "$ref"
    done
    rm -f "$T/merged"
    "$REPVIEW" merge -o "$T/merged" "$T"/part.* 2>"$T/err" >"$T/out"
    if [ -s "$T/out" ] || ! cmp -s "$T/merged" <(printf '%s\n' "$ref"); then
        bad "${name}_merge_o" "merge -o differs: $(head -c 200 "$T/err")"
    else ok "${name}_merge_o"; fi
}

for f in g small prot per none; do
    variant "lr_$f" lr "$T/$f.fa"
    variant "lr_bedgraph_$f" lr "$T/$f.fa" --bedgraph
    variant "tandem_$f" tandem "$T/$f.fa" --min-len 4
done
variant lr_leftmost_g lr "$T/g.fa" --leftmost
variant lr_budget_g lr "$T/g.fa" --mem-budget 1m -t 2
variant lr_region_g lr "$T/g.fa" chrSyn_2:1000-15000 --bedgraph
variant lr_region_empty lr "$T/none.fa" a
variant lr_leftmost_per lr "$T/per.fa" --leftmost
variant tandem_g_default tandem "$T/g.fa"
variant tandem_budget_g tandem "$T/g.fa" --mem-budget 1m
variant tandem_cut tandem "$T/g1.fa" --mem-budget 1m -t 2   # the segment cut: long periods from buckets
variant tandem_cut_filters tandem "$T/g1.fa" --mem-budget 1m --min-period 2 --max-period 40 --min-copies 2.5 chrSyn:3000-48000
variant tandem_region_per tandem "$T/per.fa" per:100-160 --min-len 2
variant find_g find "$T/g.fa" ACGTAC GGTNNA -k 1
variant find_file_g find "$T/g.fa" -f "$T/pat.fa" --strand +
variant find_small find "$T/small.fa" ACGT CGTA -k 1
variant find_minus_small find "$T/small.fa" TACG --strand -
variant find_prot find "$T/prot.fa" ACDXF KLM -k 1
variant find_per find "$T/per.fa" ACGACG AAAA -k 2
variant find_none find "$T/none.fa" AC
# merge --count of find parts: find --count's lines (hits of every slice counted)
count_variant() {
    local name=$1 f=$2; shift 2
    local ref n
    ref=$("$REPVIEW" find --count "$f" "$@" 2>&1) || { bad "$name" "find --count: $ref"; return; }
    for n in 1 3; do
        slices "${name}_n$n" "$n" find "$f" "$@" || continue
        expect_eq "${name}_n$n" "$("$REPVIEW" merge --count $(ls -r "$T"/part.*) 2>&1)" "$ref"
    done
}
count_variant find_count_g "$T/g.fa" ACGTAC GGTNNA -k 1
count_variant find_count_file_g "$T/g.fa" -f "$T/pat.fa" --strand +
count_variant find_count_prot "$T/prot.fa" ACDXF KLM -k 1
count_variant find_count_none "$T/none.fa" AC

# ---- usage errors (exit 2)
F=$T/g.fa
expect_exit lr_buckets_no_o 2 "$REPVIEW" lr --buckets 1/2 "$F"
expect_exit lr_buckets_both 2 "$REPVIEW" lr --buckets 1/2 --strands both -o "$T/P" "$F"
expect_exit lr_buckets_over 2 "$REPVIEW" lr --buckets 3/2 -o "$T/P" "$F"
expect_exit tandem_buckets_zero 2 "$REPVIEW" tandem --buckets 0/2 -o "$T/P" "$F"
expect_exit tandem_buckets_timing 2 "$REPVIEW" tandem --timing --buckets 1/2 -o "$T/P" "$F"
expect_exit find_buckets_word 2 "$REPVIEW" find --buckets x -o "$T/P" "$F" ACGT
expect_exit find_buckets_no_o 2 "$REPVIEW" find --buckets 1/2 "$F" ACGT
# numbers start with a digit (strtoull would skip a blank and wrap a sign) and fit
# in 64 bits (18446744074g is 2^64 + 2.9e8)
for b in ' 1/4' '1/ 4' '+1/4' '1/+4' '-1/4' '1/-4' '18446744073709551617/4' '1/' '/4'; do
    expect_exit "buckets_bad ($b)" 2 "$REPVIEW" lr --buckets "$b" -o "$T/P" "$F"
done
for m in 18446744074g 18446744073709551616 ' 2m' +2m -2m; do
    expect_exit "mem_budget_bad ($m)" 2 "$REPVIEW" pairs -l 20 --mem-budget "$m" "$F"
    expect_exit "mem_budget_bad_tandem ($m)" 2 "$REPVIEW" tandem --mem-budget "$m" "$F"
done
expect_exit estimate_sample_blank 2 "$REPVIEW" pairs -l 20 --estimate --estimate-sample ' 0.5' "$F"
expect_exit lr_buckets_bad_region 2 "$REPVIEW" lr --buckets 1/2 -o "$T/P" "$F" chrX
expect_exit find_buckets_bad_pattern 2 "$REPVIEW" find --buckets 1/2 -o "$T/P" "$F" 'AC!T'
# a part holds hits or pairs, never their count: the merge counts (merge --count)
expect_exit find_buckets_count 2 "$REPVIEW" find --count --buckets 1/2 -o "$T/P" "$F" ACGT
grep -q "merge --count" "$T/err" && ok find_buckets_count_says || bad find_buckets_count_says "$(cat "$T/err")"
expect_exit pairs_buckets_count 2 "$REPVIEW" pairs -l 20 --count --buckets 1/2 -o "$T/P" "$F"
grep -q "merge --count" "$T/err" && ok pairs_buckets_count_says || bad pairs_buckets_count_says "$(cat "$T/err")"
expect_exit lr_buckets_missing 1 "$REPVIEW" lr --buckets 1/2 -o "$T/P" "$T/nope.fa"
expect_exit tandem_buckets_bad_dir 1 "$REPVIEW" tandem --buckets 1/2 -o "$T/no/such/P" "$F"
expect_eq buckets_failed_no_part "$(ls "$T"/P* 2>/dev/null)" ""
expect_eq buckets_in_help "$( { "$REPVIEW" lr --help; "$REPVIEW" tandem --help; "$REPVIEW" find --help; } | grep -c -- '--buckets I/N')" 3

# ---- merge refuses (exit 1, or 2 for --count), one line, nothing written
mk() { # mk TAG N CMD ARGS...: parts TAG.1..TAG.N
    local tag=$1 n=$2 cmd=$3; shift 3
    local i
    for i in $(seq 1 "$n"); do "$REPVIEW" "$cmd" --buckets "$i/$n" -o "$T/$tag.$i" "$@" || bad "mk_$tag" "slice $i"; done
}
mk lr 3 lr "$F"
mk bg 3 lr --bedgraph "$F"
mk lrs 3 lr "$T/small.fa"
mk lr4 4 lr "$F"
mk td 3 tandem "$F"
mk td12 3 tandem --min-len 12 "$F"
mk fd 3 find "$F" ACGTAC
mk fk 3 find -k 1 "$F" ACGTAC
mk fp 3 find "$F" ACGTAG
expect_exit merge_lr_ok 0 "$REPVIEW" merge "$T"/lr.*
expect_exit merge_lr_missing 1 "$REPVIEW" merge "$T/lr.1" "$T/lr.3"
expect_exit merge_lr_twice 1 "$REPVIEW" merge "$T/lr.1" "$T/lr.2" "$T/lr.2" "$T/lr.3"
expect_exit merge_lr_mode 1 "$REPVIEW" merge "$T/lr.1" "$T/bg.2" "$T/lr.3"
expect_exit merge_lr_input 1 "$REPVIEW" merge "$T/lr.1" "$T/lrs.2" "$T/lr.3"
expect_exit merge_lr_other_n 1 "$REPVIEW" merge "$T/lr.1" "$T/lr4.2" "$T/lr.3"
expect_exit merge_tandem_filter 1 "$REPVIEW" merge "$T/td.1" "$T/td12.2" "$T/td.3"
expect_exit merge_find_k 1 "$REPVIEW" merge "$T/fd.1" "$T/fk.2" "$T/fd.3"
expect_exit merge_find_pattern 1 "$REPVIEW" merge "$T/fd.1" "$T/fp.2" "$T/fd.3"
expect_exit merge_wrong_kind 1 "$REPVIEW" merge "$T/lr.1" "$T/td.2" "$T/lr.3"
expect_exit merge_wrong_kind_find 1 "$REPVIEW" merge "$T/fd.1" "$T/fd.2" "$T/td.3"
grep -q "part of 'tandem'" "$T/err" && ok merge_wrong_kind_says || bad merge_wrong_kind_says "$(cat "$T/err")"
expect_exit merge_count_not_pairs 2 "$REPVIEW" merge --count "$T"/td.*
# slices that cut the work otherwise (-t sizes the jobs of a cut segment's long periods)
"$REPVIEW" tandem --mem-budget 1m -t 1 --buckets 1/2 -o "$T/tt.1" "$T/g1.fa"
"$REPVIEW" tandem --mem-budget 1m -t 2 --buckets 2/2 -o "$T/tt.2" "$T/g1.fa"
expect_exit merge_tandem_threads 1 "$REPVIEW" merge "$T/tt.1" "$T/tt.2"
expect_exit merge_not_a_part 1 "$REPVIEW" merge "$F"
for k in lr td fd; do
    head -c -1 "$T/$k.2" >"$T/cut.2"
    expect_exit "merge_${k}_truncated" 1 "$REPVIEW" merge "$T/$k.1" "$T/cut.2" "$T/$k.3"
    tail -c +2 "$T/$k.2" >"$T/cut.2"
    expect_exit "merge_${k}_head_cut" 1 "$REPVIEW" merge "$T/$k.1" "$T/cut.2" "$T/$k.3"
    { cat "$T/$k.2"; printf 'x'; } >"$T/cut.2"
    expect_exit "merge_${k}_extended" 1 "$REPVIEW" merge "$T/$k.1" "$T/cut.2" "$T/$k.3"
    # one byte of the body (its last) changed: the body's hash catches it
    size=$(wc -c <"$T/$k.2")
    { head -c $((size - 1)) "$T/$k.2"; tail -c 1 "$T/$k.2" | LC_ALL=C tr '\000-\377' '\001-\377\000'; } >"$T/cut.2"
    expect_exit "merge_${k}_altered" 1 "$REPVIEW" merge "$T/$k.1" "$T/cut.2" "$T/$k.3"
done

# a part of an older format (the magic's two digits): refused, saying so
cp "$T/lr.2" "$T/cut.2"
printf 'RVPART03' | dd of="$T/cut.2" bs=1 conv=notrunc 2>/dev/null
expect_exit merge_older_format 1 "$REPVIEW" merge "$T/lr.1" "$T/cut.2" "$T/lr.3"
grep -q "another repview version" "$T/err" && ok merge_older_format_says || bad merge_older_format_says "$(cat "$T/err")"

# a failed merge leaves an existing OUT as it was, and no temporary
echo old >"$T/OUT"
expect_exit out_failed_merge 1 "$REPVIEW" merge -o "$T/OUT" "$T/lr.1" "$T/lr.2"
expect_exit out_failed_mixed 1 "$REPVIEW" merge -o "$T/OUT" "$T/lr.1" "$T/td.2" "$T/lr.3"
expect_eq out_kept "$(cat "$T/OUT"; ls "$T" | grep -c 'OUT.tmp')" $'old\n0'

# the input changed after the parts were written
cp "$F" "$T/c.fa"
mk cp 2 tandem "$T/c.fa"
expect_exit merge_unchanged 0 "$REPVIEW" merge "$T/cp.1" "$T/cp.2"
touch -d '2001-01-01' "$T/c.fa"
expect_exit merge_input_touched 1 "$REPVIEW" merge "$T/cp.1" "$T/cp.2"
rm -f "$T/c.fa"
expect_exit merge_input_gone 1 "$REPVIEW" merge "$T/cp.1" "$T/cp.2"

# pairs parts merged when not every thread's cursors can be allocated
# (REPVIEW_MERGE_SCRATCH=N: only N can): fewer threads, down to the calling one
# alone, the same bytes; "out of memory" only when none can
ref=$("$REPVIEW" pairs -l 12 "$F" 2>&1)
mk pr 2 pairs -l 12 "$F"
for most in 1 2; do
    expect_eq "merge_pairs_scratch_$most" \
        "$(REPVIEW_MERGE_SCRATCH=$most REPVIEW_MERGE_CHUNK=500 "$REPVIEW" merge -t 4 "$T/pr.1" "$T/pr.2" 2>&1)" "$ref"
done
REPVIEW_MERGE_SCRATCH=0 expect_exit merge_pairs_no_scratch 1 "$REPVIEW" merge -o "$T/PR" "$T/pr.1" "$T/pr.2"
grep -q "out of memory" "$T/err" && ok merge_pairs_no_scratch_says || bad merge_pairs_no_scratch_says "$(cat "$T/err")"
expect_eq merge_pairs_no_scratch_nothing "$(ls "$T" | grep -c '^PR')" 0
