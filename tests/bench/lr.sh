# lr.sh — longest repeats of every position: the shape of Tables 2-4 of Tian & Xu
# (Tian & Xu) on generated DNA, protein-like and English-like texts: walk steps of
# the raw and compact LLR arrays, time of every variant (leftmost / all, raw walk,
# compact binary search + walk, sweep) against an O(n) leftmost baseline as speedups,
# and memory.  The baseline (engine/query/lr_ileri.c, a sliding-window maximum over the
# LLRs) stands in for the optimal algorithm of İleri et al. that the paper timed,
# with the same O(n) bound.  50 MB inputs; BENCH_QUICK=1: 2 MB.
# Environment: RV_BUILD, RV_TOP, BENCH_DIR (set by tests/bench/run), THREADS.
set -u
: "${RV_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}" "${RV_BUILD:=$RV_TOP/build}"
: "${BENCH_DIR:=$RV_TOP/build/benchdata}"
mkdir -p "$BENCH_DIR" "$RV_BUILD/bench"
len=$([ "${BENCH_QUICK:-0}" = 1 ] && echo 2000000 || echo 50000000)
reps=$([ "${BENCH_QUICK:-0}" = 1 ] && echo 3 || echo 1)  # 50 MB raw walks on English take minutes
threads=${THREADS:-$(nproc)}
bin="$RV_BUILD/bench/lr_bench"

cflags="-std=c11 -D_GNU_SOURCE -O2 -I$RV_TOP/include -I$RV_TOP/engine -pthread"
libs="$(pkg-config --libs htslib 2>/dev/null || echo -lhts) -lxxhash -ldivsufsort -ldivsufsort64 -lpthread -lm"
if [ ! -x "$bin" ] || [ "$bin" -ot "$RV_BUILD/librepview.a" ] || [ "$bin" -ot "$RV_TOP/tests/bench/lr_bench.c" ]; then
    cc $cflags -o "$bin" "$RV_TOP/tests/bench/lr_bench.c" "$RV_BUILD/librepview.a" $libs 2>/dev/null ||
    cc $cflags -o "$bin" "$RV_TOP/tests/bench/lr_bench.c" "$RV_BUILD/librepview.a" $libs \
        -L"${CUDA_HOME:-/usr/local/cuda}/lib64" -lcudart_static -ldl -lrt -lstdc++ || exit 1
fi

echo "Longest repeats, n = $len per text, $threads threads, median of $reps run(s) (SA/ISA/LCP not timed)"
for kind in dna protein english; do
    f="$BENCH_DIR/lr_${kind}_$len.fa"
    if [ ! -s "$f" ]; then
        "$RV_BUILD/gen_chrom" --kind "$kind" "$len" 1 >"$f" 2>/dev/null
        [ -s "$f" ] || "$bin" --gen "$kind" "$len" 1 >"$f"  # gen_chrom without --kind yet
    fi
    "$bin" -t "$threads" -r "$reps" "$f" "$kind" || echo "(lr_bench failed on $kind)"
done
