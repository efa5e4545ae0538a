# estimate.sh — `repview pairs --estimate` (RACE's cost model): with --estimate-sample
# 1 its pair count equals `pairs --count` and its output bytes the size of the real
# BEDPE, with filters and both strands; sampled on generated inputs with repeat
# families (gen_chrom dna and collection) it lands within 25% of the true count and
# within 25% of the real bytes, the same seed twice gives the same numbers; the table
# has a row per worker; usage and data errors.
source "$RV_TOP/tests/lib.sh"
GEN=$RV_BUILD/gen_chrom
$GEN --kind dna --records 3 400k 21 >"$T/dna.fa" && $GEN --kind collection --records 6 600k 22 >"$T/coll.fa" &&
    printf '>r1\nCACGTAGACGTTNNACGTAGACGTTACGTA\n>r2\nNNACGTAGAYYACGTTCACGTA\n>r3\nTACGTCTACGT\n' >"$T/small.fa" ||
    { bad estimate_inputs "gen_chrom failed"; exit 1; }

# val FILE KEY: a quantity of the table
val() { awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$1"; }
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t * b) }'; }

# exact: the count and the bytes of the real output, with options
exact() {
    local name=$1 f=$2; shift 2
    "$REPVIEW" pairs --quiet --estimate --estimate-sample 1 --workers 3 "$@" "$f" >"$T/est" 2>"$T/err" ||
        { bad "$name" "estimate: $(head -c 200 "$T/err")"; return; }
    local want bytes
    want=$("$REPVIEW" pairs --quiet --count "$@" "$f") && bytes=$("$REPVIEW" pairs --quiet "$@" "$f" | wc -c) ||
        { bad "$name" "pairs failed"; return; }
    expect_eq "${name}_pairs" "$(val "$T/est" pairs)" "$want"
    expect_eq "${name}_bytes" "$(val "$T/est" output_bytes)" "$bytes"
    expect_eq "${name}_rows" "$(grep -c '^[0-9]' "$T/est")" 3
}
exact estimate_exact_dna "$T/dna.fa" -l 30
exact estimate_exact_coll "$T/coll.fa" -l 40
exact estimate_exact_small "$T/small.fa" -l 4
exact estimate_exact_gaps "$T/dna.fa" -l 25 --min-gap 100 --max-gap 100000
exact estimate_exact_within "$T/coll.fa" -l 40 --within genome_2
exact estimate_exact_both "$T/dna.fa" -l 30 --strands both
exact estimate_exact_inverted "$T/small.fa" -l 3 --strands -

# sampled: within 25% of the truth; reproducible
sampled() {
    local name=$1 f=$2; shift 2
    "$REPVIEW" pairs --quiet --estimate --estimate-seed 5 "$@" "$f" >"$T/est" 2>"$T/err" &&
        "$REPVIEW" pairs --quiet --estimate --estimate-seed 5 "$@" "$f" >"$T/est2" 2>>"$T/err" ||
        { bad "$name" "estimate: $(head -c 200 "$T/err")"; return; }
    local want bytes p b
    want=$("$REPVIEW" pairs --quiet --count "$@" "$f") && bytes=$("$REPVIEW" pairs --quiet "$@" "$f" | wc -c)
    p=$(val "$T/est" pairs) b=$(val "$T/est" output_bytes)
    if within "$p" "$want" 0.25 && within "$b" "$bytes" 0.25; then ok "$name"
    else bad "$name" "estimated $p pairs, $b bytes; true $want, $bytes"; fi
    expect_eq "${name}_same_seed" "$(val "$T/est2" pairs) $(val "$T/est2" output_bytes)" "$p $b"
    grep -q '^# .*sampled' "$T/est" && ok "${name}_says_sampled" || bad "${name}_says_sampled" "$(head -1 "$T/est")"
}
sampled estimate_sampled_dna "$T/dna.fa" -l 30
sampled estimate_sampled_coll "$T/coll.fa" -l 50

# the table: header lines, rows 1..W, speed-up 1 for one worker
"$REPVIEW" pairs --estimate --workers 4 -l 30 "$T/dna.fa" >"$T/est" 2>"$T/err"
expect_eq estimate_table_header "$(grep -c '^#workers	predicted_wall_s	speedup	efficiency	peak_rss_per_rank_GB$' "$T/est") $(grep -c '^#quantity	value$' "$T/est")" "1 1"
expect_eq estimate_table_rows "$(awk -F'\t' '/^[0-9]/ { printf "%s:%s ", $1, NF }' "$T/est")" "1:5 2:5 3:5 4:5 "
expect_eq estimate_table_one "$(awk -F'\t' '$1 == 1 { print $3, $4 }' "$T/est")" "1.00 1.00"
# one process's time is the sum of its phases (each printed to 0.01 s)
sum=$(awk -F'\t' '$1 ~ /^(read|plan_one|jobs|merge)_s$/ { t += $2 } END { printf "%.2f", t }' "$T/est")
awk -v a="$(val "$T/est" serial_s)" -v b="$sum" 'BEGIN { d = a - b; exit !(d <= 0.03 && d >= -0.03) }' &&
    ok estimate_serial_sum || bad estimate_serial_sum "serial_s $(val "$T/est" serial_s), phases $sum"
# the contention (REPVIEW_TEST_CONTENTION: as if measured) divides one worker's jobs:
# 2 gives about half the jobs' time of 1 (two runs of each, alternating: the times
# are measured each run); the value printed is the one taken
: >"$T/jobs.1"; : >"$T/jobs.2"
for k in 1 2; do
    for c in 1 2; do
        REPVIEW_TEST_CONTENTION=$c "$REPVIEW" pairs --quiet --estimate -l 30 "$T/dna.fa" >"$T/est.$c" 2>"$T/err" ||
            bad estimate_contention "estimate: $(head -c 200 "$T/err")"
        val "$T/est.$c" jobs_s >>"$T/jobs.$c"
    done
done
jobs1=$(awk '{ t += $1 } END { print t }' "$T/jobs.1") jobs2=$(awk '{ t += $1 } END { print t }' "$T/jobs.2")
if [ "$(val "$T/est.2" contention)" = 2.00 ] && [ "$(val "$T/est.1" contention)" = 1.00 ] &&
    awk -v a="$jobs1" -v b="$jobs2" 'BEGIN { exit !(b > 0 && a / b >= 1.4 && a / b <= 2.8) }'
then ok estimate_contention; else bad estimate_contention "jobs_s $jobs1 (1) against $jobs2 (2), contention $(val "$T/est.2" contention)"; fi

# the sample's blocks read their starts from job lists of their own where the
# lists fit the budget (no pass over the text in a block's time), else they scan
# the text: the same blocks either way, so the same pairs and bytes; with lists
# their fill on one thread is timed (a sixteenth of the text); how much every core
# at once inflates one thread's CPU seconds is measured either way (the lists'
# fill, or the blocks' passes against two alone)
for f in dna coll; do
    "$REPVIEW" pairs --quiet --estimate -l 30 "$T/$f.fa" >"$T/est.l" 2>"$T/err" &&
        "$REPVIEW" pairs --quiet --estimate -l 30 --mem-budget 1m "$T/$f.fa" >"$T/est.s" 2>>"$T/err" ||
        { bad estimate_lists_$f "estimate: $(head -c 200 "$T/err")"; continue; }
    expect_eq estimate_lists_$f "$(val "$T/est.l" sample_lists) $(val "$T/est.s" sample_lists)" "1 0"
    expect_eq estimate_lists_same_$f "$(val "$T/est.s" pairs) $(val "$T/est.s" output_bytes)" \
        "$(val "$T/est.l" pairs) $(val "$T/est.l" output_bytes)"
    if awk -v f="$(val "$T/est.l" lists_fill_s)" -v il="$(val "$T/est.l" cpu_inflation)" \
           -v is="$(val "$T/est.s" cpu_inflation)" 'BEGIN { exit !(f > 0 && il >= 1 && is >= 1) }'
    then ok estimate_lists_timed_$f
    else bad estimate_lists_timed_$f "$(grep -E '^(lists_fill_s|cpu_inflation)' "$T/est.l" "$T/est.s" | tr '\n' ' ')"; fi
done

# usage (2) and data (1) errors: one 'repview: ' line
expect_exit estimate_buckets 2 "$REPVIEW" pairs -l 20 --estimate --buckets 1/2 -o "$T/P" "$T/dna.fa"
expect_exit estimate_output 2 "$REPVIEW" pairs -l 20 --estimate -o "$T/P" "$T/dna.fa"
expect_exit estimate_count 2 "$REPVIEW" pairs -l 20 --estimate --count "$T/dna.fa"
expect_exit estimate_covering 2 "$REPVIEW" pairs -l 20 --estimate --covering chrSyn_1:5 "$T/dna.fa"
expect_exit estimate_sample_zero 2 "$REPVIEW" pairs -l 20 --estimate --estimate-sample 0 "$T/dna.fa"
expect_exit estimate_sample_big 2 "$REPVIEW" pairs -l 20 --estimate --estimate-sample 1.5 "$T/dna.fa"
expect_exit estimate_sample_word 2 "$REPVIEW" pairs -l 20 --estimate --estimate-sample half "$T/dna.fa"
expect_exit estimate_seed_word 2 "$REPVIEW" pairs -l 20 --estimate --estimate-seed x "$T/dna.fa"
expect_exit estimate_workers_zero 2 "$REPVIEW" pairs -l 20 --estimate --workers 0 "$T/dna.fa"
expect_exit estimate_workers_alone 2 "$REPVIEW" pairs -l 20 --workers 4 "$T/dna.fa"
expect_exit estimate_sample_alone 2 "$REPVIEW" pairs -l 20 --estimate-sample 0.5 --count "$T/dna.fa"
expect_exit estimate_no_len 2 "$REPVIEW" pairs --estimate "$T/dna.fa"
expect_exit estimate_missing 1 "$REPVIEW" pairs -l 20 --estimate "$T/nothing.fa"
expect_exit estimate_bad_within 2 "$REPVIEW" pairs -l 20 --estimate --within nosuch "$T/dna.fa"
[ -e "$T/P" ] && bad estimate_no_file "-o file made" || ok estimate_no_file
rm -rf "$T"
