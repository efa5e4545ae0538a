# index.sh — CPU index build: seconds per stage, peak memory and wall for 1 and 2
# threads on a generated 48 Mbp human-like chromosome (`gen_chrom 48m 1`) and a
# 48 Mbp collection of 20 related genomes (`gen_chrom --kind collection --records 20
# 48m 1`, where long repeats are the rule); BENCH_QUICK=1: 2 Mbp of each, one run.
# Each cell is the median of the runs; the rows of one input are measured side by
# side in this run (runs interleaved), so ratios are meaningful on a busy machine.
# BENCH_VS=PATH adds a row per input and thread count for another repview binary
# (a build of an earlier commit), its runs interleaved with ours.
#   sa, isa, lcp, llr, runs, save   stage seconds from `repview index --timing`
#                      (llr: longest repeats, runs: tandem runs)
#   wall               the whole command (reading and saving included)
#   rss_MB, B/base     peak resident memory (build/rvtime) and per input base
#   rvx_B/base         size of the index file per input base
#   x1t                speed-up of wall over the 1-thread row of the same input and binary
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then size=2m runs=1; else size=48m runs=3; fi
threads="1 2"
bins="$REPVIEW"
[ -n "${BENCH_VS:-}" ] && bins="$REPVIEW $BENCH_VS"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_index.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one_run BIN FILE THREADS: prints "sa isa lcp llr runs save wall rss_kb rvx_bytes"
one_run() {
    local wall rss
    "$RV_BUILD/rvtime" -o "$tmp/time" "$1" index --quiet --timing --cpu -t "$3" -o "$tmp/x.rvx" "$2" 2>"$tmp/stages" ||
        { echo "index failed: $(head -c 300 "$tmp/stages")" >&2; return 1; }
    read -r wall rss _ <"$tmp/time"
    awk -F'\t' -v wall="$wall" -v rss="$rss" -v rvx="$(stat -c %s "$tmp/x.rvx")" '
        { s[$1] = $2 } END { printf "%s %s %s %s %s %s %s %s %s\n", s["suffix array"], s["inverse SA"], s["LCP"],
                             s["longest repeats"] + 0, s["tandem runs"] + 0, s["save"] + 0, wall, rss, rvx }' "$tmp/stages"
    rm -f "$tmp/x.rvx"
}

printf '%s\n' "# median of $runs run(s); CPU backend; $(nproc) CPUs"
[ -n "${BENCH_VS:-}" ] && printf '%s\n' "# bin A: $REPVIEW; bin B: $BENCH_VS"
printf '%-10s %3s %3s %7s %7s %7s %7s %7s %7s %7s %8s %7s %10s %6s\n' input bin thr sa isa lcp llr runs save wall rss_MB \
    B/base rvx_B/base x1t
for input in chr coll; do
    fa="$BENCH_DIR/${input}_$size.fa"
    if [ ! -s "$fa" ]; then
        if [ "$input" = chr ]; then "$RV_BUILD/gen_chrom" "$size" 1 >"$fa" || exit 1
        else "$RV_BUILD/gen_chrom" --kind collection --records 20 "$size" 1 >"$fa" || exit 1; fi
    fi
    bases=$(grep -v '^>' "$fa" | tr -d '\n' | wc -c)
    for t in $threads; do
        k=0
        for b in $bins; do : >"$tmp/runs.$k"; k=$((k + 1)); done
        for ((r = 0; r < runs; r++)); do
            k=0
            for b in $bins; do one_run "$b" "$fa" "$t" >>"$tmp/runs.$k" || exit 1; k=$((k + 1)); done
        done
        k=0
        for b in $bins; do
            cols=()
            for c in 1 2 3 4 5 6 7 8 9; do cols+=("$(cut -d' ' -f$c "$tmp/runs.$k" | median)"); done
            [ "$t" = 1 ] && eval "wall1_$k=${cols[6]}"
            w1=$(eval echo "\$wall1_$k")
            awk -v input="${input}_$size" -v bin="$(printf "\\x$(printf %x $((65 + k)))")" -v t="$t" -v n="$bases" \
                -v w1="$w1" -v sa="${cols[0]}" -v isa="${cols[1]}" -v lcp="${cols[2]}" -v llr="${cols[3]}" \
                -v rr="${cols[4]}" -v save="${cols[5]}" -v wall="${cols[6]}" -v rss="${cols[7]}" -v rvx="${cols[8]}" 'BEGIN {
                speedup = 0 # not inside printf: there awk reads ">" as a redirection
                if (wall > 0) speedup = w1 / wall
                printf "%-10s %3s %3d %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %8.1f %7.1f %10.1f %6.2f\n", input, bin, t,
                       sa, isa, lcp, llr, rr, save, wall, rss / 1024, rss * 1024 / n, rvx / n, speedup }'
            k=$((k + 1))
        done
    done
done
