# mpi.sh — `repview pairs`, `lr`, `tandem` and `find` from the text alone (prefix
# buckets, jobs of segments and pieces, a scan): the --mem-budget path,
# `pairs --buckets I/N -o PART` + `repview merge` and `mpirun -np N` all give
# the default (index) output byte for byte, in their output modes and filters;
# exit codes, atomic -o, one error line, a rank that dies (the parts of lr, tandem
# and find: parts.sh).  The first part needs
# no MPI; the mpirun part is skipped (a note on stderr, no PASS) when mpirun is
# missing or repview was built without MPI.
source "$RV_TOP/tests/lib.sh"

# ---- inputs: a synthetic genome (3 records, N gaps, repeats) and hand-made files
"$RV_BUILD/gen_chrom" --kind dna --records 3 100k 15 >"$T/g.fa" || { bad mpi_inputs "gen_chrom failed"; exit 1; }
printf '>r1\nCACGTAGACGTTNNACGTAGACGTTACGTA\n>r2\nNNACGTAGAYYACGTTCACGTA\n>r3\nTACGTCTACGT\n' >"$T/small.fa"
printf '>x\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n>y\nAAAAAAAAAAAAANAAAAA\n' >"$T/same.fa"
printf '>a\nNNNNNN\n>b\nAC\n' >"$T/none.fa"

# variant NAME FILE ARGS...: the default output, --mem-budget, and 3 parts merged
# (in another order) equal it; merge --count and merge -o agree with pairs --count.
variant() {
    local name=$1 f=$2; shift 2
    local ref got cnt
    ref=$("$REPVIEW" pairs "$@" "$f" 2>&1) || { bad "$name" "pairs: $ref"; return; }
    got=$("$REPVIEW" pairs "$@" --mem-budget 1m "$f" 2>&1)
    expect_eq "${name}_mem_budget" "$got" "$ref"
    rm -f "$T"/part.*
    local i ok=1
    for i in 1 2 3; do
        "$REPVIEW" pairs "$@" --buckets "$i/3" -o "$T/part.$i" "$f" 2>"$T/err" || { ok=0; bad "${name}_buckets" "slice $i: $(cat "$T/err")"; }
    done
    [ "$ok" = 1 ] || return
    [ -z "$(ls "$T"/part.*.tmp.* 2>/dev/null)" ] || bad "${name}_buckets" "temporary part files left"
    got=$("$REPVIEW" merge "$T/part.3" "$T/part.1" "$T/part.2" 2>&1)
    expect_eq "${name}_merge" "$got" "$ref"
    cnt=$("$REPVIEW" pairs "$@" --count "$f" 2>&1)
    expect_eq "${name}_merge_count" "$("$REPVIEW" merge --count "$T/part.2" "$T/part.3" "$T/part.1" 2>&1)" "$cnt"
    expect_eq "${name}_count_budget" "$("$REPVIEW" pairs "$@" --count --mem-budget 2m "$f" 2>&1)" "$cnt"
    rm -f "$T/merged"
    "$REPVIEW" merge -o "$T/merged" "$T/part.1" "$T/part.2" "$T/part.3" 2>"$T/err" >"$T/out"
    if [ -s "$T/out" ] || ! cmp -s "$T/merged" <(printf '%s\n' "$ref"); then
        bad "${name}_merge_o" "merge -o differs (stdout $(wc -c <"$T/out") bytes): $(head -c 200 "$T/err")"
    else ok "${name}_merge_o"; fi
}

variant buckets_g_l20 "$T/g.fa" -l 20
variant buckets_g_l12_both "$T/g.fa" -l 12 --strands both
variant buckets_g_l15_minus "$T/g.fa" -l 15 --strands -
variant buckets_g_within_gap "$T/g.fa" -l 14 --within chrSyn_2:1000-60000 --max-gap 5000 --strands both
variant buckets_g_min_gap "$T/g.fa" -l 16 --min-gap -3 -t 2
variant buckets_small_l3 "$T/small.fa" -l 3
variant buckets_small_l1_both "$T/small.fa" -l 1 --strands both
variant buckets_same_l2 "$T/same.fa" -l 2 --strands both
variant buckets_none_l1 "$T/none.fa" -l 1
variant buckets_l_over_len "$T/small.fa" -l 100

# buckets split by longer prefixes (a 1m budget: 8928 suffixes a job on one thread):
# slices cut the same parts, merged they give the index's pairs
skewed_inputs "$T"
for f in skew polya; do
    "$REPVIEW" pairs -l 20 "$T/$f.fa" >"$T/$f.ref"
    rm -f "$T"/part.*
    for i in 1 2 3; do "$REPVIEW" pairs -l 20 -t 1 --quiet --mem-budget 1m --buckets "$i/3" -o "$T/part.$i" "$T/$f.fa"; done
    expect_eq "buckets_split_${f}_merge" "$("$REPVIEW" merge "$T/part.2" "$T/part.3" "$T/part.1" | cmp - "$T/$f.ref" && echo same)" same
done

# N = 1 and N larger than the number of jobs
rm -f "$T"/part.*
"$REPVIEW" pairs -l 4 --buckets 1/1 -o "$T/part.1" "$T/small.fa"
expect_eq buckets_one_slice "$("$REPVIEW" merge "$T/part.1")" "$("$REPVIEW" pairs -l 4 "$T/small.fa")"
rm -f "$T"/part.*
for i in $(seq 1 9); do "$REPVIEW" pairs -l 4 --buckets "$i/9" -o "$T/part.$i" "$T/small.fa"; done
expect_eq buckets_nine_slices "$("$REPVIEW" merge "$T"/part.*)" "$("$REPVIEW" pairs -l 4 "$T/small.fa")"

# ---- usage errors (exit 2) and data errors (exit 1), one 'repview: ' line
F=$T/g.fa
expect_exit buckets_zero 2 "$REPVIEW" pairs -l 20 --buckets 0/3 -o "$T/P" "$F"
expect_exit buckets_over 2 "$REPVIEW" pairs -l 20 --buckets 4/3 -o "$T/P" "$F"
expect_exit buckets_word 2 "$REPVIEW" pairs -l 20 --buckets x -o "$T/P" "$F"
expect_exit buckets_of_zero 2 "$REPVIEW" pairs -l 20 --buckets 1/0 -o "$T/P" "$F"
expect_exit buckets_trailing 2 "$REPVIEW" pairs -l 20 --buckets 1/3x -o "$T/P" "$F"
expect_exit buckets_no_o 2 "$REPVIEW" pairs -l 20 --buckets 1/3 "$F"
expect_exit buckets_covering 2 "$REPVIEW" pairs -l 20 --covering chrSyn_1:5 --buckets 1/2 -o "$T/P" "$F"
expect_exit mem_budget_covering 2 "$REPVIEW" pairs -l 20 --covering chrSyn_1:5 --mem-budget 1m "$F"
expect_exit mem_budget_word 2 "$REPVIEW" pairs -l 20 --mem-budget lots "$F"
expect_exit mem_budget_tiny 2 "$REPVIEW" pairs -l 20 --mem-budget 10 "$F"
expect_exit mem_budget_zero 2 "$REPVIEW" pairs -l 20 --mem-budget 0 "$F"
expect_exit mem_budget_bad_region 2 "$REPVIEW" pairs -l 20 --mem-budget 1m --within chrX "$F"
expect_exit mem_budget_missing 1 "$REPVIEW" pairs -l 20 --mem-budget 1m "$T/nope.fa"
expect_exit buckets_missing 1 "$REPVIEW" pairs -l 20 --buckets 1/2 -o "$T/P" "$T/nope.fa"
expect_exit buckets_bad_dir 1 "$REPVIEW" pairs -l 20 --buckets 1/2 -o "$T/no/such/P" "$F"
expect_eq buckets_failed_no_part "$(ls "$T"/P* 2>/dev/null)" ""
expect_exit merge_nothing 2 "$REPVIEW" merge
expect_exit merge_bad_option 2 "$REPVIEW" merge --bogus "$T/P"
expect_exit merge_help 0 "$REPVIEW" merge --help

rm -f "$T"/part.* "$T"/l21.*
for i in 1 2 3; do "$REPVIEW" pairs -l 20 --buckets "$i/3" -o "$T/part.$i" "$F"; done
for i in 1 2 3; do "$REPVIEW" pairs -l 21 --buckets "$i/3" -o "$T/l21.$i" "$F"; done
"$REPVIEW" pairs -l 20 --buckets 2/4 -o "$T/of4.2" "$F"
expect_exit merge_incomplete 1 "$REPVIEW" merge "$T/part.1" "$T/part.3"
expect_exit merge_incomplete_count 1 "$REPVIEW" merge --count "$T/part.1" "$T/part.2"
expect_exit merge_duplicate 1 "$REPVIEW" merge "$T/part.1" "$T/part.2" "$T/part.2"
expect_exit merge_other_run 1 "$REPVIEW" merge "$T/part.1" "$T/l21.2" "$T/part.3"
expect_exit merge_other_n 1 "$REPVIEW" merge "$T/part.1" "$T/of4.2" "$T/part.3"
expect_exit merge_missing_part 1 "$REPVIEW" merge "$T/part.1" "$T/part.2" "$T/nope"
expect_exit merge_not_a_part 1 "$REPVIEW" merge "$F"
head -c -9 "$T/part.2" >"$T/cut.2"
expect_exit merge_truncated 1 "$REPVIEW" merge "$T/part.1" "$T/cut.2" "$T/part.3"
tail -c +5 "$T/part.2" >"$T/cut.2"   # the run cut, the trailer kept
expect_exit merge_run_cut 1 "$REPVIEW" merge "$T/part.1" "$T/cut.2" "$T/part.3"
{ cat "$T/part.2"; printf 'x'; } >"$T/long.2"
expect_exit merge_extended 1 "$REPVIEW" merge "$T/part.1" "$T/long.2" "$T/part.3"
: >"$T/empty.2"
expect_exit merge_empty_part 1 "$REPVIEW" merge "$T/part.1" "$T/empty.2" "$T/part.3"

# -o is atomic: a failed run leaves an existing OUT as it was, and no temporary
echo old >"$T/OUT"
expect_exit out_failed_pairs 2 "$REPVIEW" pairs -l 20 --within chrX -o "$T/OUT" "$F"
expect_exit out_failed_budget 2 "$REPVIEW" pairs -l 20 --mem-budget 1m --within chrX -o "$T/OUT" "$F"
expect_exit out_failed_merge 1 "$REPVIEW" merge -o "$T/OUT" "$T/part.1" "$T/part.2"
expect_eq out_kept "$(cat "$T/OUT"; ls "$T" | grep -c 'OUT.tmp')" $'old\n0'
expect_exit out_missing_input 1 "$REPVIEW" pairs -l 20 --mem-budget 1m -o "$T/OUT2" "$T/nope.fa"
expect_eq out_not_created "$(ls "$T" | grep -c OUT2)" 0
expect_exit out_budget_ok 0 "$REPVIEW" pairs -l 20 --mem-budget 1m -o "$T/OUT" "$F"
expect_eq out_budget_content "$(cat "$T/OUT")" "$("$REPVIEW" pairs -l 20 "$F")"

# -o onto something that is not a regular file (a FIFO, /dev/null) writes into it,
# never renames over it; a part file refuses one
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/from_fifo" &
expect_exit out_fifo 0 "$REPVIEW" pairs -l 20 --mem-budget 1m -o "$T/fifo" "$F"
wait
expect_eq out_fifo_kept "$([ -p "$T/fifo" ] && echo fifo)" fifo
expect_eq out_fifo_content "$(cat "$T/from_fifo")" "$("$REPVIEW" pairs -l 20 "$F")"
expect_exit part_fifo_refused 1 "$REPVIEW" pairs -l 20 --buckets 1/2 -o "$T/fifo" "$F"
expect_eq part_fifo_kept "$([ -p "$T/fifo" ] && echo fifo)" fifo

# the input changed (other content, a new modification time) after the parts
cp "$F" "$T/c.fa"
rm -f "$T"/cp.*
for i in 1 2; do "$REPVIEW" pairs -l 20 --buckets "$i/2" -o "$T/cp.$i" "$T/c.fa"; done
expect_exit merge_unchanged 0 "$REPVIEW" merge "$T/cp.1" "$T/cp.2"
sleep 0.05
# one base for another: same size, same text length, other content
awk 'NR == 2 { c = substr($0, 10, 1); $0 = substr($0, 1, 9) (c == "C" ? "G" : "C") substr($0, 11) } 1' "$F" >"$T/c.fa"
expect_exit merge_changed_input 1 "$REPVIEW" merge "$T/cp.1" "$T/cp.2"
rm -f "$T/c.fa"
expect_exit merge_input_gone 1 "$REPVIEW" merge "$T/cp.2" "$T/cp.1"

# ---- lr from the buckets (--mem-budget): the index's output, byte for byte --------
lr_variant() { # NAME FILE [REGION] -- every output mode, a budget of 1m and 2m
    local name=$1 f=$2; shift 2
    local mode ref
    for mode in "" --leftmost --bedgraph; do
        ref=$("$REPVIEW" lr $mode "$f" "$@" 2>&1) || { bad "${name}${mode}" "lr: $ref"; continue; }
        expect_eq "lr_${name}${mode}" "$("$REPVIEW" lr $mode --mem-budget 1m "$f" "$@" 2>&1)" "$ref"
    done
    expect_eq "lr_${name}_t1_2m" "$("$REPVIEW" lr -t 1 --mem-budget 2m "$f" "$@" 2>&1)" "$("$REPVIEW" lr "$f" "$@")"
}
lr_variant g "$T/g.fa"
lr_variant g_region "$T/g.fa" chrSyn_2:1000-60000
lr_variant g_one_pos "$T/g.fa" chrSyn_3:77-77
lr_variant small "$T/small.fa"
lr_variant small_region "$T/small.fa" r2:5-15
lr_variant same "$T/same.fa"
lr_variant same_region "$T/same.fa" y:3-9
lr_variant none "$T/none.fa"
expect_exit lr_budget_both 2 "$REPVIEW" lr --strands both --mem-budget 1m "$F"
expect_exit lr_budget_word 2 "$REPVIEW" lr --mem-budget lots "$F"
expect_exit lr_budget_region 2 "$REPVIEW" lr --mem-budget 1m "$F" chrX
expect_exit lr_budget_missing 1 "$REPVIEW" lr --mem-budget 1m "$T/nope.fa"
echo old >"$T/OUT"
expect_exit lr_out_failed 2 "$REPVIEW" lr --mem-budget 1m -o "$T/OUT" "$F" chrX
expect_eq lr_out_kept "$(cat "$T/OUT"; ls "$T" | grep -c 'OUT.tmp')" $'old\n0'
expect_exit lr_out_ok 0 "$REPVIEW" lr --mem-budget 1m -o "$T/OUT" "$F"
expect_eq lr_out_content "$(cat "$T/OUT")" "$("$REPVIEW" lr "$F")"
expect_exit lr_out_index 0 "$REPVIEW" lr --bedgraph -o "$T/OUT" "$F"
expect_eq lr_out_index_content "$(cat "$T/OUT")" "$("$REPVIEW" lr --bedgraph "$F")"

# ---- tandem job by job from the text (--mem-budget): the index's output ----------
tandem_variant() { # NAME FILE [ARGS...] -- two budgets (many jobs, one job)
    local name=$1 f=$2; shift 2
    local ref
    ref=$("$REPVIEW" tandem "$@" "$f" 2>&1) || { bad "tandem_$name" "tandem: $ref"; return; }
    expect_eq "tandem_${name}_1m" "$("$REPVIEW" tandem --mem-budget 1m "$@" "$f" 2>&1)" "$ref"
    expect_eq "tandem_${name}_1g_t1" "$("$REPVIEW" tandem -t 1 --mem-budget 1g "$@" "$f" 2>&1)" "$ref"
}
tandem_variant g "$T/g.fa"
tandem_variant g_all "$T/g.fa" --min-len 1
tandem_variant g_filters "$T/g.fa" --min-period 2 --max-period 6 --min-copies 2.5 --min-len 4
tandem_variant same "$T/same.fa" --min-len 1
tandem_variant small "$T/small.fa" --min-len 2
tandem_variant none "$T/none.fa" --min-len 1
# a segment longer than a job is cut into pieces: a run of period 4000 across
# them (from maximal pairs with gap <= 0), one of period 8 across them (a piece's
# window, then extended)
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) u = u substr("ACGT", int(rand() * 4) + 1, 1)
             for (i = 0; i < 20000; i++) a = a substr("ACGT", int(rand() * 4) + 1, 1)
             for (i = 0; i < 8; i++) v = v "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA" "ACGTTGCA"
             printf ">long\n%s%s%s%s%s%s%s%s\n>short\n%s\n", a, u, u, substr(u, 1, 1500), a, v v v v v v v v, a, a, substr(a, 1, 3000) }' >"$T/longp.fa"
tandem_variant long_cut "$T/longp.fa" --min-len 20
tandem_variant long_cut_all "$T/longp.fa" --min-len 1
expect_eq tandem_long_cut_found "$("$REPVIEW" tandem --min-len 20 --mem-budget 1m "$T/longp.fa" | awk '$4 == 4000 || $4 == 8' | wc -l)" 2
# a poly-A run past a job: its bucket of long-period runs cannot split within the
# period bound, runs as one job, and one process says so once (as pairs does)
awk 'BEGIN { srand(16); printf ">polya\n"; for (i = 0; i < 30000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1)
    for (i = 0; i < 200000; i++) printf "A"; for (i = 0; i < 30000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); printf "\n" }' >"$T/tpa.fa"
PAREF=$("$REPVIEW" tandem --min-len 20 "$T/tpa.fa")
expect_eq tandem_over_budget_same "$("$REPVIEW" tandem --min-len 20 --mem-budget 1m "$T/tpa.fa" 2>"$T/err")" "$PAREF"
expect_eq tandem_over_budget_warns "$(grep -c '^repview: tandem: a bucket of [0-9]* suffixes exceeds the memory budget' "$T/err")/$(wc -l <"$T/err")" "1/1"
expect_eq tandem_over_budget_quiet "$("$REPVIEW" tandem --quiet --min-len 20 --mem-budget 1m "$T/tpa.fa" 2>&1)" "$PAREF"
TREG=$("$REPVIEW" tandem --min-len 3 "$F" chrSyn_2:1000-60000)
expect_eq tandem_region "$("$REPVIEW" tandem --min-len 3 --mem-budget 1m "$F" chrSyn_2:1000-60000 2>&1)" "$TREG"
expect_exit tandem_budget_word 2 "$REPVIEW" tandem --mem-budget lots "$F"
expect_exit tandem_budget_region 2 "$REPVIEW" tandem --mem-budget 1m "$F" chrX
expect_exit tandem_budget_missing 1 "$REPVIEW" tandem --mem-budget 1m "$T/nope.fa"
echo old >"$T/OUT"
expect_exit tandem_out_failed 2 "$REPVIEW" tandem --mem-budget 1m -o "$T/OUT" "$F" chrX
expect_eq tandem_out_kept "$(cat "$T/OUT"; ls "$T" | grep -c 'OUT.tmp')" $'old\n0'
expect_exit tandem_out_ok 0 "$REPVIEW" tandem --mem-budget 1m -o "$T/OUT" "$F"
expect_eq tandem_out_content "$(cat "$T/OUT")" "$("$REPVIEW" tandem "$F")"

# ---- find from a scan of the text (--mem-budget): the index's output -------------
printf '>p1\nACGTACGTAC\n>p2\nGGNCC\n>p3\nAAAAAAAAAAAAAAAAAAAA\n>p4\nCA\n' >"$T/pats.fa"
find_variant() { # NAME ARGS...
    local name=$1; shift
    local ref
    ref=$("$REPVIEW" find "$@" 2>&1) || { bad "find_$name" "find: $ref"; return; }
    expect_eq "find_${name}" "$("$REPVIEW" find --mem-budget 1m "$@" 2>&1)" "$ref"
}
find_variant g_exact "$F" ACGTAC GATTACA
find_variant g_k2 -k 2 "$F" ACGTACGTAAG
find_variant g_file -f "$T/pats.fa" "$F"
find_variant g_minus_iupac -k 1 --strand - "$F" TTTTRY GATTACA
find_variant g_plus_k4 --strand + -k 4 -t 1 "$F" ACGTAGGATC
find_variant small_all "$T/small.fa" A C G T ACG
find_variant same -k 1 "$T/same.fa" AAA ANA
find_variant none "$T/none.fa" AC
expect_exit find_budget_word 2 "$REPVIEW" find --mem-budget lots "$F" ACGT
expect_exit find_budget_bad_pattern 2 "$REPVIEW" find --mem-budget 1m "$F" 'AC*GT'
expect_exit find_budget_missing 1 "$REPVIEW" find --mem-budget 1m "$T/nope.fa" ACGT
expect_exit find_budget_missing_patterns 1 "$REPVIEW" find --mem-budget 1m -f "$T/nope.fa" "$F"
echo old >"$T/OUT"
expect_exit find_out_failed 2 "$REPVIEW" find --mem-budget 1m -o "$T/OUT" "$F" 'AC*GT'
expect_eq find_out_kept "$(cat "$T/OUT"; ls "$T" | grep -c 'OUT.tmp')" $'old\n0'
expect_exit find_out_ok 0 "$REPVIEW" find --mem-budget 1m -o "$T/OUT" "$F" ACGTAC
expect_eq find_out_content "$(cat "$T/OUT")" "$("$REPVIEW" find "$F" ACGTAC)"

# ---- under mpirun ----------------------------------------------------------------
# skipped without mpirun or an MPI build; REPVIEW_REQUIRE_MPI=1 (.ci/run, whose
# install-deps installs Open MPI) makes that a FAIL, so the checks cannot vanish
skip_mpi() {
    if [ "${REPVIEW_REQUIRE_MPI:-0}" != 0 ]; then bad mpi_required "$1 (REPVIEW_REQUIRE_MPI=1)"
    else echo "mpi.sh: $1: the mpirun checks are skipped" >&2; fi
    exit 0
}
if ! command -v mpirun >/dev/null 2>&1; then
    skip_mpi "mpirun not found"
fi
if ! "$REPVIEW" --version 2>&1 | grep -q '^mpi: yes'; then
    skip_mpi "$REPVIEW was built without MPI ($("$REPVIEW" --version 2>&1 | grep '^mpi:'))"
fi
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# -k: an mpirun that outlives timeout's SIGTERM (it can, once its ranks are gone) is killed
MPIRUN=(timeout -k 10 120 mpirun --oversubscribe)
rc_note() { [ "$1" = 0 ] || echo " [exit $1: $(head -c 300 "$T/err")]"; } # for expect_eq

REF1=$("$REPVIEW" pairs -l 20 "$F")
REF2=$("$REPVIEW" pairs -l 12 --strands both "$F")
CNT1=$("$REPVIEW" pairs -l 20 --count "$F")
CNT2=$("$REPVIEW" pairs -l 12 --strands both --count "$F")
for n in 1 2 3 4 7; do
    rm -f "$T/m1" "$T/m2"
    "${MPIRUN[@]}" -np "$n" "$REPVIEW" pairs -l 20 -o "$T/m1" "$F" 2>"$T/err"; rc=$?
    expect_eq "mpi_np${n}_one" "$(cat "$T/m1" 2>&1)$(rc_note $rc)" "$REF1"
    "${MPIRUN[@]}" -np "$n" "$REPVIEW" pairs -l 12 --strands both -o "$T/m2" "$F" 2>"$T/err"; rc=$?
    expect_eq "mpi_np${n}_both" "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$REF2"
    expect_eq "mpi_np${n}_count" "$("${MPIRUN[@]}" -np "$n" "$REPVIEW" pairs -l 20 --count "$F" 2>&1)" "$CNT1"
done
expect_eq mpi_np3_count_both "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 12 --strands both --count "$F" 2>&1)" "$CNT2"
# buckets split by longer prefixes: every rank takes rank 0's parts; the warning
# of a bucket that cannot split comes once, from rank 0
for f in skew polya; do
    for n in 2 3; do
        rm -f "$T/ms"
        "${MPIRUN[@]}" -np "$n" "$REPVIEW" pairs -l 20 --mem-budget 1m -o "$T/ms" "$T/$f.fa" 2>"$T/err"; rc=$?
        expect_eq "mpi_np${n}_split_$f" "$(cmp "$T/ms" "$T/$f.ref" && echo same)$(rc_note $rc)" same
        expect_eq "mpi_np${n}_split_${f}_warns" "$(grep -c 'exceeds the memory budget' "$T/err")" "$([ $f = polya ] && echo 1 || echo 0)"
    done
done
# how the ranks find their jobs' starts: job lists of the host (both strands of
# 400 kbp: 13 blocks, filled in shares by the 4 ranks), a byte map where the lists
# do not fit the budget's half and the map does, neither below that; the same
# output each way (CPU ranks: next to GPU ranks the plan has more, smaller jobs,
# and the map takes two bytes a position)
"$RV_BUILD/gen_chrom" --kind dna --records 3 400k 16 >"$T/g4.fa" || bad mpi_finder_input "gen_chrom failed"
REF4=$("$REPVIEW" pairs -l 16 --strands both "$T/g4.fa")
for v in "lists:" "a byte map:--mem-budget 2m" "none:--mem-budget 1m"; do
    rm -f "$T/m2"
    REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 4 "$REPVIEW" pairs --cpu -l 16 --strands both ${v#*:} -o "$T/m2" "$T/g4.fa" 2>"$T/err"; rc=$?
    expect_eq "mpi_np4_finder_${v%%:*}" "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$REF4"
    expect_eq "mpi_np4_finder_${v%%:*}_trace" "$(grep -c "job map (${v%%:*})" "$T/err")" 4
done
# the buckets counted by another rank for rank 0 (as the first GPU rank does): the
# counts travel, rank 0 plans from them; the same output, and a count
for r in 1 3; do
    rm -f "$T/m2"
    REPVIEW_MPI_COUNTER=$r REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 4 "$REPVIEW" pairs -l 16 --strands both -o "$T/m2" "$T/g4.fa" 2>"$T/err"; rc=$?
    expect_eq "mpi_np4_counter$r" "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$REF4"
    expect_eq "mpi_np4_counter${r}_trace" "$(grep -c -e "rank $r.counted for rank 0" -e "rank 0.counted (by another rank)" "$T/err")" 2
done
# a worker's part is opened by rank 0 where the worker wrote it (the same host);
# with REPVIEW_MPI_COPY_FILES=1 it travels as bytes, as from another host; with
# REPVIEW_TEMP_NAMED=1 the files have names for a moment (mkstemp, then unlink), as
# where the file system cannot make them without (TMPDIR of their own: nothing is
# left there after)
for v in "in_place:opened in place:REPVIEW_MPI_COPY_FILES=0" "copied:copied:REPVIEW_MPI_COPY_FILES=1" \
         "named_fallback:opened in place:REPVIEW_TEMP_NAMED=1"; do
    label=${v%%:*} says=${v#*:}; says=${says%%:*}
    rm -rf "$T/m2" "$T/tmpd"; mkdir "$T/tmpd"
    env "${v##*:}" TMPDIR="$T/tmpd" REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 4 "$REPVIEW" pairs -l 16 --strands both -o "$T/m2" "$T/g4.fa" 2>"$T/err"; rc=$?
    expect_eq "mpi_np4_parts_$label" "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$REF4"
    expect_eq "mpi_np4_parts_${label}_trace" "$(grep -c "file of rank [123]: $says" "$T/err")" 3
    expect_eq "mpi_np4_parts_${label}_nothing_left" "$(ls -A "$T/tmpd")" ""
done
# ranks on hosts of their own (REPVIEW_MPI_HOSTS_APART=1, as on a cluster): each reads
# the input itself, the parts come as bytes; the same output.  A host whose file
# differs (two records swapped: the same length and bucket counts) fails the job
# with one message naming its rank, and no output (mpirun's MPMD form gives rank 1
# the other file)
rm -f "$T/m2"
REPVIEW_MPI_HOSTS_APART=1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 16 --strands both -o "$T/m2" "$T/g4.fa" 2>"$T/err"; rc=$?
expect_eq mpi_hosts_apart "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$REF4"
expect_eq mpi_hosts_apart_copied "$(grep -c "file of rank [12]: copied" "$T/err")" 2
expect_eq mpi_hosts_apart_lr "$(REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" lr "$F" 2>&1)" "$("$REPVIEW" lr "$F")"
awk '/^>/{n++} {r[n]=r[n] $0 "\n"} END{printf "%s%s%s", r[1], r[3], r[2]}' "$T/g4.fa" >"$T/g4swap.fa"
rm -f "$T/m2"
REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 1 "$REPVIEW" pairs -l 16 -o "$T/m2" "$T/g4.fa" : \
    -np 1 "$REPVIEW" pairs -l 16 -o "$T/m2" "$T/g4swap.fa" >"$T/out" 2>"$T/err"; rc=$?
if [ "$rc" -eq 0 ] || [ -e "$T/m2" ]; then bad mpi_hosts_text_differs "exit $rc, output: $(ls "$T"/m2 2>&1)"
elif ! grep -q "host of rank 1 read another text" "$T/err"; then bad mpi_hosts_text_differs "$(head -c 300 "$T/err")"
else ok mpi_hosts_text_differs; fi
rm -f "$T/m2"
REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 1 "$REPVIEW" pairs -l 16 -o "$T/m2" "$T/g4.fa" : \
    -np 1 "$REPVIEW" pairs -l 16 -o "$T/m2" "$T/g4.fa" 2>"$T/err"; rc=$?
expect_eq mpi_hosts_text_same "$(cat "$T/m2" 2>&1)$(rc_note $rc)" "$("$REPVIEW" pairs -l 16 "$T/g4.fa")"
# a host that cannot read the input while rank 0's can: that host's rank says so in
# one line, at once (every rank votes on its read: without the vote the others would
# go on into collectives that host skips: MPI_ERR_TRUNCATE for pairs, a hang for lr);
# rank 0's own failure is rank 0's line
for cmd in "pairs -l 16" lr tandem "find GATTACA"; do
    set -- $cmd; name=mpi_host_cannot_read_$1
    rm -f "$T/m2"; SECONDS=0
    REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" $1 -o "$T/m2" "$T/g4.fa" "${@:2}" : \
        -np 1 "$REPVIEW" $1 -o "$T/m2" "$T/nope.fa" "${@:2}" >"$T/out" 2>"$T/err"; rc=$?
    if [ "$rc" != 1 ] || [ -e "$T/m2" ] || [ "$SECONDS" -gt 8 ]; then bad "$name" "exit $rc after $SECONDS s, output: $(ls "$T"/m2* 2>&1)"
    elif [ "$(grep -c '^repview: ' "$T/err")" != 1 ] || ! grep -q "^repview: rank 2: $T/nope.fa: " "$T/err"
    then bad "$name" "not rank 2's one line: $(grep repview "$T/err" | head -c 300)"
    else ok "$name"; fi
done
REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 1 "$REPVIEW" lr -o "$T/m2" "$T/nope.fa" : \
    -np 2 "$REPVIEW" lr -o "$T/m2" "$T/g4.fa" >"$T/out" 2>"$T/err"; rc=$?
expect_eq mpi_host_cannot_read_rank0 "$rc $(grep -c '^repview: ' "$T/err") $(grep -c "^repview: $T/nope.fa: " "$T/err")" "1 1 1"
# inputs past 4 MiB of sequence: the host's first rank encodes the text in
# parallel straight into the shared window (both strands grow there), plain and
# gzip, one host or hosts apart; a failure after the window exists (protein with
# both strands), a text of no symbols, and a rank without room for the records
# (REPVIEW_TEST_RECORDS_OOM) end with one message, not a hang
"$RV_BUILD/gen_chrom" --kind dna --records 2 5m 21 >"$T/g5.fa" && gzip -c "$T/g5.fa" >"$T/g5.fa.gz" ||
    bad mpi_placed_input "gen_chrom failed"
"$RV_BUILD/gen_chrom" --kind protein 5m 3 >"$T/p5.fa" || bad mpi_placed_input "gen_chrom protein failed"
awk 'BEGIN { print ">n"; for (i = 0; i < 90000; i++) print "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN" }' >"$T/n5.fa"
REF5=$("$REPVIEW" pairs -l 40 "$T/g5.fa")
rm -f "$T/m5"
"${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 40 -o "$T/m5" "$T/g5.fa" 2>"$T/err"; rc=$?
expect_eq mpi_placed_one "$(cat "$T/m5" 2>&1)$(rc_note $rc)" "$REF5"
# a GPU rank whose device refuses the text (REPVIEW_TEST_GPU_REFUSE) sorts on the CPU:
# the same output, on as many CPUs as a --cpu rank (mpirun binds a rank of two to
# one core; a GPU rank widens that before its upload).  Only where rank 1 is a GPU
# rank without the hook and mpirun binds it to fewer CPUs than the host has (a
# note on stderr, no PASS, elsewhere).
cores() { grep -a "^mpi	rank 1	plan (" "$T/err" | cut -f3; }
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs --quiet -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"
gpu_rank=$(cores)
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs --cpu --quiet -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"
want=$(cores)
bound=$(printf '%s' "$want" | grep -o '[0-9]*' | head -1)
if [[ "$gpu_rank" != *"GPU rank"* ]] || [ -z "$bound" ] || [ "$bound" -ge "$(nproc)" ]; then
    echo "note: mpi_gpu_refused not run (rank 1: '$gpu_rank'; a --cpu rank: '$want')" >&2
else
    REPVIEW_MPI_TRACE=1 REPVIEW_TEST_GPU_REFUSE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"; rc=$?
    got=$(cores)
    if [ "$rc" != 0 ] || [ "$(cat "$T/out")" != "$("$REPVIEW" pairs -l 40 --count "$T/g5.fa")" ] || [ "$got" != "$want" ]
    then bad mpi_gpu_refused "exit $rc, rank 1: '$got' against --cpu '$want': $(grep -av '^mpi' "$T/err" | head -c 300)"; else ok mpi_gpu_refused; fi
fi
# a job of one host takes Open MPI's ob1 layer (the other layers' probes cost 0.2 s of
# MPI_Init), unless the user named one; the answer is the same either way
transport() { grep -a "^mpi	rank 0	transport: " "$T/err" | cut -f3; }
: >"$T/none.conf" # no parameter file of the machine's: the outcome is the same everywhere
OMPI_MCA_mca_base_param_files="$T/none.conf" REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs --cpu --quiet \
    -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"
expect_eq mpi_transport_one_host "$(transport) $(cat "$T/out")" "transport: pml ob1 (one host) $("$REPVIEW" pairs -l 40 --count "$T/g5.fa")"
OMPI_MCA_pml=ob1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs --cpu --quiet -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"
expect_eq mpi_transport_user "$(transport) $(cat "$T/out")" "transport: pml as the user set it $("$REPVIEW" pairs -l 40 --count "$T/g5.fa")"
# a parameter file that names a layer is a choice too; one that only leaves out
# others (Debian's "pml = ^ucx") is not; REPVIEW_MPI_PML=keep keeps the library's
printf '# a site file\npml_ucx_verbose = 0\n  pml = ob1\n' >"$T/pml.conf"
printf 'pml_ucx_verbose = 0\npml = ^ucx, cm\n' >"$T/nopml.conf"
for v in "pml.conf:pml as a parameter file sets it" "nopml.conf:pml ob1 (one host)"; do
    OMPI_MCA_mca_base_param_files="$T/${v%%:*}" REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs --cpu --quiet -l 40 \
        --count "$T/g5.fa" >"$T/out" 2>"$T/err"
    expect_eq "mpi_transport_${v%%.*}" "$(transport)" "transport: ${v#*:}"
done
REPVIEW_MPI_PML=keep REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs --cpu --quiet -l 40 --count "$T/g5.fa" >"$T/out" 2>"$T/err"
expect_eq mpi_transport_keep "$(transport) $(cat "$T/out")" \
    "transport: pml as the library chooses (REPVIEW_MPI_PML=keep) $("$REPVIEW" pairs -l 40 --count "$T/g5.fa")"
CNT5=$("$REPVIEW" pairs -l 40 --strands both --count "$T/g5.fa")
expect_eq mpi_placed_both "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 40 --strands both --count "$T/g5.fa" 2>&1)" "$CNT5"
expect_eq mpi_placed_minus_gz "$("${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 40 --strands - --count "$T/g5.fa.gz" 2>&1)" \
    "$("$REPVIEW" pairs -l 40 --strands - --count "$T/g5.fa")"
expect_eq mpi_placed_both_hosts_apart "$(REPVIEW_MPI_HOSTS_APART=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 40 --strands both --count "$T/g5.fa" 2>&1)" "$CNT5"
expect_eq mpi_placed_lr "$("${MPIRUN[@]}" -np 3 "$REPVIEW" lr --bedgraph "$T/g5.fa" 2>&1 | md5sum)" "$("$REPVIEW" lr --bedgraph "$T/g5.fa" | md5sum)"
expect_eq mpi_placed_no_symbols "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 5 --strands both --count "$T/n5.fa" 2>&1)" \
    "$("$REPVIEW" pairs -l 5 --strands both --count "$T/n5.fa" 2>&1)"
expect_eq mpi_no_symbols_small "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 5 --strands both --count "$T/none.fa" 2>&1)" \
    "$("$REPVIEW" pairs -l 5 --strands both --count "$T/none.fa" 2>&1)"
rm -f "$T/mo"
"${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 40 --strands both -o "$T/mo" "$T/p5.fa" >"$T/out" 2>"$T/err"; rc=$?
if [ "$rc" != 1 ] || [ "$(grep -c '^repview: ' "$T/err")" != 1 ] || ! grep -q 'both strands need DNA' "$T/err" || [ -e "$T/mo" ]
then bad mpi_placed_protein_both "exit $rc: $(head -c 300 "$T/err")"; else ok mpi_placed_protein_both; fi
for r in 1 2; do
    REPVIEW_TEST_RECORDS_OOM=$r "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 40 --strands both --count "$T/g5.fa" >"$T/out" 2>"$T/err"; rc=$?
    if [ "$rc" != 1 ] || ! grep -q "^repview: rank $r: mpi: out of memory" "$T/err" || [ "$(grep -c '^repview: ' "$T/err")" != 1 ]
    then bad "mpi_records_oom_rank$r" "exit $rc: $(head -c 300 "$T/err")"
    else ok "mpi_records_oom_rank$r"; fi
done
expect_eq mpi_np3_counter_count "$(REPVIEW_MPI_COUNTER=2 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 12 --strands both --count "$F" 2>&1)" "$CNT2"
# stdout (small output), filters, a mem budget, hand-made inputs with more ranks than jobs
expect_eq mpi_np3_stdout "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 30 "$F" 2>&1)" "$("$REPVIEW" pairs -l 30 "$F")"
# rank 0 writes stdout itself, past mpirun's relay: to a pipe, a file (> and >>,
# and shared with the shell's later writes), and through the relay when asked or
# with mpirun's output options
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 20 "$F" 2>"$T/err" | cat >"$T/m5"
expect_eq mpi_stdout_pipe "$(cat "$T/m5")" "$REF1"
expect_eq mpi_stdout_pipe_direct "$(grep -c "stdout past mpirun's relay, to its pipe" "$T/err")" 1
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 20 "$F" >"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_file "$(cat "$T/m5")" "$REF1"
expect_eq mpi_stdout_file_direct "$(grep -c "stdout past mpirun's relay, to its file" "$T/err")" 1
echo first >"$T/m5"
"${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 20 "$F" >>"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_append "$(cat "$T/m5")" "$(echo first; echo "$REF1")"
REPVIEW_MPI_RELAY=1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 20 "$F" >"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_relay "$(cat "$T/m5")" "$REF1"
expect_eq mpi_stdout_relay_kept "$(grep -c "stdout past" "$T/err")" 0
{ echo start; "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 20 "$F" 2>"$T/err"; echo end; } >"$T/m5"
expect_eq mpi_stdout_file_shared "$(cat "$T/m5")" "$(echo start; echo "$REF1"; echo end)"
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" --tag-output -np 2 "$REPVIEW" pairs -l 20 "$F" >"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_tagged "$(grep -c "stdout past" "$T/err") $(head -c 14 "$T/m5")" "0 [1,0]<stdout>:"
# where the open file itself cannot be had (ptrace rules): a file opened to append
# and a pipe are reopened; a file opened with > keeps the relay
echo first >"$T/m5"
REPVIEW_TEST_NO_PIDFD=1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 20 "$F" >>"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_reopen_append "$(grep -c "stdout past" "$T/err") $(cat "$T/m5")" "1 $(echo first; echo "$REF1")"
REPVIEW_TEST_NO_PIDFD=1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 20 "$F" 2>"$T/err" | cat >"$T/m5"
expect_eq mpi_stdout_reopen_pipe "$(grep -c "stdout past" "$T/err") $(cat "$T/m5")" "1 $REF1"
REPVIEW_TEST_NO_PIDFD=1 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 2 "$REPVIEW" pairs -l 20 "$F" >"$T/m5" 2>"$T/err"
expect_eq mpi_stdout_relay_truncated_file "$(grep -c "stdout past" "$T/err") $(cat "$T/m5")" "0 $REF1"
expect_eq mpi_lr_stdout_file "$("${MPIRUN[@]}" -np 3 "$REPVIEW" lr "$F" >"$T/m5" 2>&1; cat "$T/m5")" "$("$REPVIEW" lr "$F")"
ARGS=(-l 14 --within chrSyn_2:1000-60000 --max-gap 5000 --strands both)
rm -f "$T/m3"
"${MPIRUN[@]}" -np 4 "$REPVIEW" pairs "${ARGS[@]}" --mem-budget 1m -o "$T/m3" "$F" 2>"$T/err"; rc=$?
expect_eq mpi_np4_filters "$(cat "$T/m3" 2>&1)$(rc_note $rc)" "$("$REPVIEW" pairs "${ARGS[@]}" "$F")"
expect_eq mpi_np7_small "$("${MPIRUN[@]}" -np 7 "$REPVIEW" pairs -l 1 --strands both "$T/small.fa" 2>&1)" \
    "$("$REPVIEW" pairs -l 1 --strands both "$T/small.fa")"
# ranks of several threads (a GPU rank's layout): every thread of a rank asks for
# jobs until the rank is told "none" once
rm -f "$T/m4"
"${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -t 3 -l 20 --mem-budget 4m -o "$T/m4" "$F" 2>"$T/err"; rc=$?
expect_eq mpi_np3_threads3 "$(cat "$T/m4" 2>&1)$(rc_note $rc)" "$REF1"
# the same with the jobs asked for T at a time (a GPU rank's way), T = 1..5, with
# more ranks than jobs, and for lr
for b in 2 3 5; do
    rm -f "$T/m4"
    REPVIEW_MPI_JOB_BATCH=$b "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -t 3 -l 20 --mem-budget 4m -o "$T/m4" "$F" 2>"$T/err"; rc=$?
    expect_eq "mpi_np3_batch$b" "$(cat "$T/m4" 2>&1)$(rc_note $rc)" "$REF1"
done
expect_eq mpi_np4_batch3_count "$(REPVIEW_MPI_JOB_BATCH=3 "${MPIRUN[@]}" -np 4 "$REPVIEW" pairs -t 2 -l 12 --strands both --mem-budget 2m --count "$F" 2>&1)" "$CNT2"
expect_eq mpi_np7_batch4_small "$(REPVIEW_MPI_JOB_BATCH=4 "${MPIRUN[@]}" -np 7 "$REPVIEW" pairs -l 1 --strands both "$T/small.fa" 2>&1)" \
    "$("$REPVIEW" pairs -l 1 --strands both "$T/small.fa")"
# the missing input named once (the host's first rank reads it for all its ranks)
"${MPIRUN[@]}" -np 4 "$REPVIEW" pairs -l 20 "$T/nope.fa" >/dev/null 2>"$T/err"
expect_eq mpi_read_error_once "$(grep -c '^repview: ' "$T/err")" 1
expect_eq mpi_np4_same "$("${MPIRUN[@]}" -np 4 "$REPVIEW" pairs -l 3 "$T/same.fa" 2>&1)" "$("$REPVIEW" pairs -l 3 "$T/same.fa")"
expect_eq mpi_np3_none "$("${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 2 "$T/none.fa" 2>&1)" "$("$REPVIEW" pairs -l 2 "$T/none.fa")"

# failures under mpirun: non-zero exit, a 'repview: ' message, no OUT
mpi_fails() { # NAME WANT_CODE args...
    local name=$1 want=$2; shift 2
    rm -f "$T/mo"
    "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs "$@" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "$name" "exit $rc, want $want: $(head -c 200 "$T/err")"
    elif [ "$(grep -c '^repview: ' "$T/err")" != 1 ] || [ "$(grep -c 'repview: ' "$T/err")" != 1 ]; then
        bad "$name" "not one 'repview: ' line: $(head -c 300 "$T/err")"
    elif [ -e "$T/mo" ] || ls "$T" | grep -q 'mo.tmp'; then bad "$name" "output or temporary left"
    else ok "$name"; fi
}
mpi_fails mpi_bad_option 2 -l 20 --bogus -o "$T/mo" "$F"
mpi_fails mpi_bad_l 2 -l 0 -o "$T/mo" "$F"
mpi_fails mpi_buckets 2 -l 20 --buckets 1/2 -o "$T/mo" "$F"
mpi_fails mpi_covering 2 -l 20 --covering chrSyn_1:5 "$F"
mpi_fails mpi_missing_input 1 -l 20 -o "$T/mo" "$T/nope.fa"
mpi_fails mpi_bad_budget 2 -l 20 --mem-budget 0 -o "$T/mo" "$F"
mpi_fails mpi_estimate 2 -l 20 --estimate "$F"

# ---- lr under mpirun: the index's output at every rank count ---------------------
LREF=$("$REPVIEW" lr "$F")
for n in 1 2 3 4 7; do
    rm -f "$T/l1"
    "${MPIRUN[@]}" -np "$n" "$REPVIEW" lr -o "$T/l1" "$F" 2>"$T/err"; rc=$?
    expect_eq "mpi_lr_np${n}" "$(cat "$T/l1" 2>&1)$(rc_note $rc)" "$LREF"
done
expect_eq mpi_lr_np3_copied "$(REPVIEW_MPI_COPY_FILES=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" lr "$F" 2>&1)" "$LREF"
expect_eq mpi_lr_np3_bedgraph_region "$("${MPIRUN[@]}" -np 3 "$REPVIEW" lr --bedgraph --mem-budget 1m "$F" chrSyn_2:1000-60000 2>&1)" \
    "$("$REPVIEW" lr --bedgraph "$F" chrSyn_2:1000-60000)"
expect_eq mpi_lr_np4_leftmost "$("${MPIRUN[@]}" -np 4 "$REPVIEW" lr --leftmost "$F" chrSyn_1 2>&1)" "$("$REPVIEW" lr --leftmost "$F" chrSyn_1)"
expect_eq mpi_lr_np7_small "$("${MPIRUN[@]}" -np 7 "$REPVIEW" lr "$T/small.fa" 2>&1)" "$("$REPVIEW" lr "$T/small.fa")"
expect_eq mpi_lr_np3_batch4 "$(REPVIEW_MPI_JOB_BATCH=4 "${MPIRUN[@]}" -np 3 "$REPVIEW" lr -t 2 --mem-budget 1m "$F" 2>&1)" "$LREF"
expect_eq mpi_lr_np3_same "$("${MPIRUN[@]}" -np 3 "$REPVIEW" lr "$T/same.fa" y:2-10 2>&1)" "$("$REPVIEW" lr "$T/same.fa" y:2-10)"
expect_eq mpi_lr_np2_none "$("${MPIRUN[@]}" -np 2 "$REPVIEW" lr "$T/none.fa" 2>&1)" "$("$REPVIEW" lr "$T/none.fa")"
mpi_one_error() { # NAME WANT_CODE COMMAND args...: one 'repview: ' line, no OUT
    local name=$1 want=$2; shift 2
    rm -f "$T/mo"
    "${MPIRUN[@]}" -np 3 "$REPVIEW" "$@" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "$name" "exit $rc, want $want: $(head -c 200 "$T/err")"
    elif [ "$(grep -c '^repview: ' "$T/err")" != 1 ]; then bad "$name" "not one 'repview: ' line: $(head -c 300 "$T/err")"
    elif [ -e "$T/mo" ] || ls "$T" | grep -q 'mo.tmp'; then bad "$name" "output or temporary left"
    else ok "$name"; fi
}
mpi_one_error mpi_lr_missing_input 1 lr -o "$T/mo" "$T/nope.fa"
mpi_one_error mpi_lr_bad_region 2 lr -o "$T/mo" "$F" chrX
mpi_one_error mpi_lr_bad_out_dir 1 lr -o "$T/no/such/mo" "$F"
# --gpu where no GPU is usable: every rank meets it, rank 0 alone says so
if "$REPVIEW" pairs --gpu -l 20 --count "$F" >/dev/null 2>&1; then echo "note: mpi_gpu_missing not run (a GPU here)" >&2
else mpi_one_error mpi_gpu_missing 1 pairs --gpu -l 20 -o "$T/mo" "$F"; fi

# ---- tandem under mpirun -----------------------------------------------------------
TREF=$("$REPVIEW" tandem --min-len 2 "$F")
for n in 1 2 3 4 7; do
    rm -f "$T/t1"
    "${MPIRUN[@]}" -np "$n" "$REPVIEW" tandem --min-len 2 --mem-budget 1m -o "$T/t1" "$F" 2>"$T/err"; rc=$?
    expect_eq "mpi_tandem_np${n}" "$(cat "$T/t1" 2>&1)$(rc_note $rc)" "$TREF"
done
expect_eq mpi_tandem_np3_copied "$(REPVIEW_MPI_COPY_FILES=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" tandem --min-len 2 --mem-budget 1m "$F" 2>&1)" "$TREF"
expect_eq mpi_tandem_np3_region "$("${MPIRUN[@]}" -np 3 "$REPVIEW" tandem --min-len 3 "$F" chrSyn_2:1000-60000 2>&1)" "$TREG"
LREF=$("$REPVIEW" tandem --min-len 20 "$T/longp.fa")
for n in 2 4; do
    expect_eq "mpi_tandem_np${n}_cut" "$("${MPIRUN[@]}" -np "$n" "$REPVIEW" tandem --min-len 20 --mem-budget 1m "$T/longp.fa" 2>&1)" "$LREF"
done
"${MPIRUN[@]}" -np 3 "$REPVIEW" tandem --min-len 20 --mem-budget 1m "$T/tpa.fa" >"$T/out" 2>"$T/err"
expect_eq mpi_tandem_np3_over_budget "$(cat "$T/out")$(grep -c 'exceeds the memory budget' "$T/err")" "${PAREF}0"
expect_eq mpi_tandem_np7_same "$("${MPIRUN[@]}" -np 7 "$REPVIEW" tandem --min-len 1 "$T/same.fa" 2>&1)" "$("$REPVIEW" tandem --min-len 1 "$T/same.fa")"
expect_eq mpi_tandem_np2_none "$("${MPIRUN[@]}" -np 2 "$REPVIEW" tandem "$T/none.fa" 2>&1)" "$("$REPVIEW" tandem "$T/none.fa")"
mpi_one_error mpi_tandem_missing_input 1 tandem -o "$T/mo" "$T/nope.fa"
mpi_one_error mpi_tandem_bad_region 2 tandem -o "$T/mo" "$F" chrX

# ---- find under mpirun -------------------------------------------------------------
FREF=$("$REPVIEW" find -k 1 -f "$T/pats.fa" "$F" GATTACA)
for n in 1 2 3 4 7; do
    rm -f "$T/f1"
    "${MPIRUN[@]}" -np "$n" "$REPVIEW" find -k 1 -f "$T/pats.fa" -o "$T/f1" "$F" GATTACA 2>"$T/err"; rc=$?
    expect_eq "mpi_find_np${n}" "$(cat "$T/f1" 2>&1)$(rc_note $rc)" "$FREF"
done
expect_eq mpi_find_np4_small "$("${MPIRUN[@]}" -np 4 "$REPVIEW" find "$T/small.fa" AC GT 2>&1)" "$("$REPVIEW" find "$T/small.fa" AC GT)"
mpi_one_error mpi_find_missing_input 1 find -o "$T/mo" "$T/nope.fa" ACGT
mpi_one_error mpi_find_bad_pattern 2 find -o "$T/mo" "$F" 'AC*GT'
mpi_one_error mpi_find_missing_patterns 1 find -f "$T/nope.fa" -o "$T/mo" "$F"

# ---- a rank that dies (REPVIEW_TEST_KILL_RANK: SIGKILL as it first asks for a job): a
# non-zero exit, a message naming the rank, no output file and no temporary, in the
# output's directory or in TMPDIR (the ranks' files have no name: mpirun ends the
# others too); also where the file system cannot make files without a name.  mpirun
# sends SIGTERM and, odls_base_sigkill_timeout seconds later (1 by default), SIGKILL:
# on a loaded 2-core host rank 0 may not run within a second, and its line is lost to
# the SIGKILL, so these runs give it 3.
mpi_rank_dies() { # NAME RANK COMMAND args...
    local name=$1 r=$2; shift 2
    rm -rf "$T"/KO* "$T/tmpd"; mkdir "$T/tmpd"
    OMPI_MCA_odls_base_sigkill_timeout=3 TMPDIR="$T/tmpd" REPVIEW_TEST_KILL_RANK=$r "${MPIRUN[@]}" -np 3 "$REPVIEW" "$@" -o "$T/KO" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -eq 0 ]; then bad "$name" "exit 0 after rank $r died"
    elif ! grep -qi "rank $r" "$T/err"; then bad "$name" "no message about rank $r: $(head -c 300 "$T/err")"
    elif [ "$(grep -c '^repview: ' "$T/err")" != 1 ] || ! grep -q '^repview: mpi: mpirun ended the job before it was done' "$T/err"
    then bad "$name" "not rank 0's one line: $(tr '\n' '|' <"$T/err" | head -c 600)"
    elif ls "$T" | grep -q '^KO'; then bad "$name" "output or temporary left: $(ls "$T" | grep '^KO')"
    elif [ -n "$(ls -A "$T/tmpd")" ]; then bad "$name" "left in TMPDIR: $(ls -A "$T/tmpd" | head -5 | tr '\n' ' ')"
    else ok "$name"; fi
}
mpi_rank_dies mpi_lr_rank_dies 2 lr "$F"
mpi_rank_dies mpi_tandem_rank_dies 2 tandem --mem-budget 1m "$F"
mpi_rank_dies mpi_find_rank_dies 1 find "$F" ACGTAC
mpi_rank_dies mpi_pairs_rank_dies 2 pairs -l 12 --mem-budget 1m "$F"
REPVIEW_TEMP_NAMED=1 mpi_rank_dies mpi_pairs_rank_dies_named_fallback 1 pairs -l 12 --mem-budget 1m "$F"

# ---- a rank that stops answering (REPVIEW_TEST_STOP_RANK: SIGSTOP as it first asks
# for a job, as a hung node or a lost link looks): the watch ends the job after
# REPVIEW_MPI_TIMEOUT seconds with one line naming the rank, exit 1, nothing left
mpi_rank_stops() { # NAME RANK COMMAND args...
    local name=$1 r=$2; shift 2
    rm -rf "$T"/KO* "$T/tmpd"; mkdir "$T/tmpd"
    TMPDIR="$T/tmpd" REPVIEW_MPI_TIMEOUT=2 REPVIEW_TEST_STOP_RANK=$r timeout -k 10 60 mpirun --oversubscribe -np 3 \
        "$REPVIEW" "$@" -o "$T/KO" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -ne 1 ]; then bad "$name" "exit $rc, want 1: $(grep repview "$T/err" | head -c 300)"
    elif [ "$(grep -c '^repview: ' "$T/err")" != 1 ] || ! grep -q "^repview: mpi: rank $r has not answered for [0-9]* s" "$T/err"
    then bad "$name" "not one line naming rank $r: $(grep repview "$T/err" | head -c 300)"
    elif ls "$T" | grep -q '^KO'; then bad "$name" "output or temporary left: $(ls "$T" | grep '^KO')"
    elif [ -n "$(ls -A "$T/tmpd")" ]; then bad "$name" "left in TMPDIR: $(ls -A "$T/tmpd" | head -5 | tr '\n' ' ')"
    else ok "$name"; fi
}
mpi_rank_stops mpi_pairs_rank_stops 2 pairs -l 12 --mem-budget 1m "$F"
# rank 0 stopped: the first worker says so (the others and rank 0 keep quiet)
rm -f "$T"/KO*
REPVIEW_MPI_TIMEOUT=2 REPVIEW_TEST_STOP_RANK=0 timeout -k 10 60 mpirun --oversubscribe -np 4 \
    "$REPVIEW" pairs -l 12 --mem-budget 1m -o "$T/KO" "$F" >"$T/out" 2>"$T/err"; rc=$?
if [ "$rc" -ne 1 ] || [ "$(grep -c '^repview: ' "$T/err")" != 1 ] ||
   ! grep -q '^repview: rank 1: rank 0 has not answered for [0-9]* s' "$T/err" || ls "$T" | grep -q '^KO'
then bad mpi_rank0_stops "exit $rc: $(grep repview "$T/err" | head -c 300)"; else ok mpi_rank0_stops; fi
mpi_rank_stops mpi_lr_rank_stops 1 lr "$F"
mpi_rank_stops mpi_tandem_rank_stops 2 tandem --mem-budget 1m "$F"
mpi_rank_stops mpi_find_rank_stops 1 find "$F" ACGTAC
# watched by default, unwatched with REPVIEW_MPI_TIMEOUT=0 (MPI_THREAD_SERIALIZED
# then): the same output either way
REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 20 -o "$T/m1" "$F" 2>"$T/err"
expect_eq mpi_watched "$(cat "$T/m1"; grep -c 'watch: watched$' "$T/err")" "$REF1"$'\n1'
REPVIEW_MPI_TIMEOUT=0 REPVIEW_MPI_TRACE=1 "${MPIRUN[@]}" -np 3 "$REPVIEW" pairs -l 20 -o "$T/m1" "$F" 2>"$T/err"
expect_eq mpi_unwatched "$(cat "$T/m1"; grep -c 'watch: unwatched (REPVIEW_MPI_TIMEOUT=0)$' "$T/err")" "$REF1"$'\n1'
