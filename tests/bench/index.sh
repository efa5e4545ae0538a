# index.sh — CPU index build: seconds per stage, peak memory and throughput for 1 and
# 2 threads on generated chromosomes (10 and 50 Mbp; BENCH_QUICK=1: 1 and 2 Mbp, one
# run).  Each cell is the median of the runs; rows of one size are measured side by
# side in this run, so the thread ratio is meaningful even on a busy machine.
#   sa, isa, lcp, llr  stage seconds from `repview index --timing`
#   build              sa + isa + lcp (the core index)    Mbp/s = size / build
#   wall               the whole command (reading, LLR and saving included)
#   rss_MB, B/base     peak resident memory (build/rvtime) and per input base
#   rvx_B/base         size of the index file (what a later run maps) per input base;
#                      the .rvx holds every section, tandem runs included
#   x1t                speed-up of build over the 1-thread row of the same size
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then sizes="1m 2m" runs=1; else sizes="10m 50m" runs=3; fi
threads="1 2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_index.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one_run FILE THREADS: prints "sa isa lcp llr wall rss_kb rvx_bytes"
one_run() {
    local wall rss
    "$RV_BUILD/rvtime" -o "$tmp/time" "$REPVIEW" index --quiet --timing --cpu -t "$2" -o "$tmp/x.rvx" "$1" 2>"$tmp/stages" ||
        { echo "index failed: $(head -c 300 "$tmp/stages")" >&2; return 1; }
    read -r wall rss _ <"$tmp/time"
    awk -F'\t' -v wall="$wall" -v rss="$rss" -v rvx="$(stat -c %s "$tmp/x.rvx")" '
        { s[$1] = $2 } END { printf "%s %s %s %s %s %s %s\n", s["suffix array"], s["inverse SA"], s["LCP"],
                             s["longest repeats"] + 0, wall, rss, rvx }' "$tmp/stages"
    rm -f "$tmp/x.rvx"
}

printf '%s\n' "# median of $runs run(s); CPU backend; $(nproc) CPUs"
printf '%-6s %3s %7s %7s %7s %7s %7s %7s %8s %7s %10s %7s %6s\n' size thr sa isa lcp build llr wall rss_MB B/base rvx_B/base Mbp/s x1t
for size in $sizes; do
    fa="$BENCH_DIR/chr_$size.fa"
    [ -s "$fa" ] || "$RV_BUILD/gen_chrom" "$size" 1 >"$fa" || exit 1
    bases=$(grep -v '^>' "$fa" | tr -d '\n' | wc -c)
    for t in $threads; do
        : >"$tmp/runs"
        for ((k = 0; k < runs; k++)); do one_run "$fa" "$t" >>"$tmp/runs" || exit 1; done
        cols=()
        for c in 1 2 3 4 5 6 7; do cols+=("$(cut -d' ' -f$c "$tmp/runs" | median)"); done
        [ "$t" = 1 ] && base_build=$(awk -v a="${cols[0]}" -v b="${cols[1]}" -v c="${cols[2]}" 'BEGIN { print a + b + c }')
        awk -v size="$size" -v t="$t" -v n="$bases" -v b1="$base_build" -v sa="${cols[0]}" -v isa="${cols[1]}" -v lcp="${cols[2]}" \
            -v llr="${cols[3]}" -v wall="${cols[4]}" -v rss="${cols[5]}" -v rvx="${cols[6]}" 'BEGIN {
            b = sa + isa + lcp
            rate = 0; speedup = 0 # not inside printf: there awk reads ">" as a redirection
            if (b > 0) { rate = n / b / 1e6; speedup = b1 / b }
            printf "%-6s %3d %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %8.1f %7.1f %10.1f %7.1f %6.2f\n", size, t, sa, isa, lcp, b,
                   llr, wall, rss / 1024, rss * 1024 / n, rvx / n, rate, speedup }'
    done
done
