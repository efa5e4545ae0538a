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
# Then the saved index against a fresh build, whole commands on all threads (medians
# of the same runs, measured side by side), page cache warm:
#   built_s            explorer from the FASTA alone (`--keys '' --dump --wait-index`,
#                      REPVIEW_NO_SAVE=1): the panes once the index is built
#   reopen_s, rss_MB   the same with FILE.rvx: the panes once the blocks of the first
#                      screen are verified (the rest is verified in the background)
#   first_ms           its first screen from inside (REPVIEW_BENCH=1)
#   lce_s lr_s stats_s `lce FILE 1000 2000`, `lr FILE REC:MID-MID+100` (MID: the middle),
#                      `stats FILE`
#   cold_s             reopen_s after dropping the page cache (BENCH_COLD=1, as root;
#                      "-" otherwise)
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

# ---- reopening the saved index ------------------------------------------------------

# timed NAME CMD...: the wall seconds and peak KB of one run into T_WALL, T_RSS
timed() {
    local name=$1; shift
    "$RV_BUILD/rvtime" -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        { echo "$name failed: $(head -c 300 "$tmp/$name.err")" >&2; return 1; }
    read -r T_WALL T_RSS _ <"$tmp/time"
}
drop_cache() { sync && echo 3 >/proc/sys/vm/drop_caches; }
ui=(--keys '' --dump --wait-index --size 100x30)

printf '\n%s\n' "# reopen: FILE.rvx against a fresh build; medians of $runs run(s), all threads, default backend"
printf '%-6s %8s %8s %7s %7s %8s %7s %7s %7s %7s\n' size built_s reopen_s x rss_MB first_ms lce_s lr_s stats_s cold_s
for size in $sizes; do
    fa="$BENCH_DIR/chr_$size.fa"
    "$REPVIEW" stats "$fa" 2>/dev/null | grep -q '^# index: .* up to date' || "$REPVIEW" index --quiet "$fa" || exit 1
    read -r rec mid < <("$REPVIEW" stats "$fa" | awk -F'\t' '!/^#/ { print $1, int($2 / 2); exit }')
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/built.fa" # no .rvx beside it
    : >"$tmp/reopen"
    for ((k = 0; k < runs; k++)); do
        rm -f "$tmp/built.fa.fai"
        timed built env REPVIEW_NO_SAVE=1 "$REPVIEW" "${ui[@]}" "$tmp/built.fa" || exit 1
        b=$T_WALL
        timed reopen env REPVIEW_BENCH=1 "$REPVIEW" "${ui[@]}" "$fa" || exit 1
        grep -q 'index loaded from' "$tmp/reopen.out" || { echo "reopen built the index: $(tail -1 "$tmp/reopen.out")" >&2; exit 1; }
        r=$T_WALL rss=$T_RSS first=$(awk -F'\t' '$1 == "first_screen_ms" { print $2 }' "$tmp/reopen.err")
        timed lce "$REPVIEW" lce "$fa" 1000 2000 || exit 1
        l=$T_WALL
        timed lr "$REPVIEW" lr "$fa" "$rec:$mid-$((mid + 100))" || exit 1
        lr=$T_WALL
        timed stats "$REPVIEW" stats "$fa" || exit 1
        st=$T_WALL cold=-
        if [ "${BENCH_COLD:-0}" != 0 ] && drop_cache 2>/dev/null; then timed cold "$REPVIEW" "${ui[@]}" "$fa" && cold=$T_WALL; fi
        echo "$b $r $rss $first $l $lr $st $cold" >>"$tmp/reopen"
    done
    cols=()
    for c in 1 2 3 4 5 6 7 8; do cols+=("$(cut -d' ' -f$c "$tmp/reopen" | median)"); done
    [ "${BENCH_COLD:-0}" != 0 ] || cols[7]=-
    awk -v size="$size" -v b="${cols[0]}" -v r="${cols[1]}" -v rss="${cols[2]}" -v f="${cols[3]}" -v l="${cols[4]}" \
        -v lr="${cols[5]}" -v st="${cols[6]}" -v cold="${cols[7]}" 'BEGIN {
        x = 0; if (r > 0) x = b / r
        if (cold != "-") cold = sprintf("%.3f", cold)
        printf "%-6s %8.3f %8.3f %7.1f %7.1f %8.1f %7.3f %7.3f %7.3f %7s\n", size, b, r, x, rss / 1024, f, l, lr, st, cold }'
done
