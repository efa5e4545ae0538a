# index.sh — CPU index build: seconds per stage, peak memory and wall for 1, 2, 4,
# ... threads up to the CPUs of this machine on a generated 48 Mbp human-like chromosome (`gen_chrom 48m 1`) and a
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
# Then the saved index against a fresh build, whole commands on all threads (medians
# of the same runs, measured side by side), page cache warm:
#   built_s            explorer from the FASTA alone (`--keys '' --dump --wait-index`,
#                      REPVIEW_NO_SAVE=1): the panes once the index is built
#   reopen_s, rss_MB   the same with FILE.rvx: the panes once the blocks of the first
#                      screen are verified (the rest is verified in the background)
#   first_ms           its first screen from inside (REPVIEW_BENCH=1)
#   lce_s lr_s stats_s `lce FILE REC:1000 REC:2000`, `lr FILE REC:MID-MID+100` (MID: the middle),
#                      `stats FILE`
#   cold_s             reopen_s after dropping the page cache (BENCH_COLD=1, as root;
#                      "-" otherwise)
#   rvx_B/b            the size of that binary's FILE.rvx per input base
# With BENCH_VS each binary reopens the file it wrote itself (bin A, bin B).
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then size=2m runs=1; else size=48m runs=3; fi
threads=1
for t in 2 4 8 16 32 64; do [ "$t" -le "$(nproc)" ] && threads="$threads $t"; done
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
printf '%-10s %3s %8s %8s %7s %7s %8s %7s %7s %7s %7s %7s\n' input bin built_s reopen_s x rss_MB first_ms lce_s lr_s \
    stats_s cold_s rvx_B/b
for input in chr coll; do
    fa="$BENCH_DIR/${input}_$size.fa"
    read -r rec mid < <("$REPVIEW" stats "$fa" | awk -F'\t' '!/^#/ { print $1, int($2 / 2); exit }')
    bases=$(grep -v '^>' "$fa" | tr -d '\n' | wc -c)
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/built.fa" # no .rvx beside it
    k=0
    for b in $bins; do # each binary reopens the file it wrote (formats differ), beside a link to the input
        mkdir -p "$tmp/b$k"
        ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/b$k/in.fa"
        rm -f "$tmp/b$k/in.fa.rvx"
        "$b" index --quiet "$tmp/b$k/in.fa" || exit 1
        : >"$tmp/reopen.$k"
        k=$((k + 1))
    done
    for ((r = 0; r < runs; r++)); do
        k=0
        for b in $bins; do
            f="$tmp/b$k/in.fa"
            rm -f "$tmp/built.fa.fai"
            timed built env REPVIEW_NO_SAVE=1 "$b" "${ui[@]}" "$tmp/built.fa" || exit 1
            bw=$T_WALL
            timed reopen env REPVIEW_BENCH=1 "$b" "${ui[@]}" "$f" || exit 1
            grep -q 'index loaded from' "$tmp/reopen.out" || { echo "reopen built the index: $(tail -1 "$tmp/reopen.out")" >&2; exit 1; }
            rw=$T_WALL rss=$T_RSS first=$(awk -F'\t' '$1 == "first_screen_ms" { print $2 }' "$tmp/reopen.err")
            timed lce "$b" lce "$f" "$rec:1000" "$rec:2000" || exit 1 # a collection has 20 records
            l=$T_WALL
            timed lr "$b" lr "$f" "$rec:$mid-$((mid + 100))" || exit 1
            lr=$T_WALL
            timed stats "$b" stats "$f" || exit 1
            st=$T_WALL cold=-
            if [ "${BENCH_COLD:-0}" != 0 ] && drop_cache 2>/dev/null; then timed cold "$b" "${ui[@]}" "$f" && cold=$T_WALL; fi
            echo "$bw $rw $rss ${first:-0} $l $lr $st $cold $(stat -L -c %s "$f.rvx")" >>"$tmp/reopen.$k"
            k=$((k + 1))
        done
    done
    k=0
    for b in $bins; do
        cols=()
        for c in 1 2 3 4 5 6 7 8 9; do cols+=("$(cut -d' ' -f$c "$tmp/reopen.$k" | median)"); done
        [ "${BENCH_COLD:-0}" != 0 ] || cols[7]=-
        awk -v size="${input}_$size" -v bin="$(printf "\\x$(printf %x $((65 + k)))")" -v b="${cols[0]}" -v r="${cols[1]}" \
            -v rss="${cols[2]}" -v f="${cols[3]}" -v l="${cols[4]}" -v lr="${cols[5]}" -v st="${cols[6]}" \
            -v cold="${cols[7]}" -v rvx="${cols[8]}" -v n="$bases" 'BEGIN {
            x = 0; if (r > 0) x = b / r
            if (cold != "-") cold = sprintf("%.3f", cold)
            printf "%-10s %3s %8.3f %8.3f %7.1f %7.1f %8.1f %7.3f %7.3f %7.3f %7s %7.2f\n", size, bin, b, r, x, rss / 1024, f,
                   l, lr, st, cold, rvx / n }'
        k=$((k + 1))
    done
done
