# sa.sh — the CPU suffix array: libdivsufsort on one thread against the parallel
# construction (engine/index/sa_parallel.c) at 1, 2, 4, ... threads up to the CPUs of
# this machine (SA_THREADS overrides the list), on a generated chromosome and on a
# collection of 20 related genomes of the same size (48 Mbp; BENCH_QUICK=1: 4 Mbp).
# Each cell is a process of its own: seconds, then that process's peak RSS in MiB
# (build/sa_bench prints the row).  x = divsufsort's seconds / the cell's.
set -u
: "${RV_BUILD:?run through tests/bench/run}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
size=48m
[ "${BENCH_QUICK:-0}" != 0 ] && size=4m
if [ -z "${SA_THREADS:-}" ]; then
    SA_THREADS=1
    for t in 2 4 8 16 32 64; do [ "$t" -le "$(nproc)" ] && SA_THREADS="$SA_THREADS,$t"; done
fi
chr="$BENCH_DIR/chr_$size.fa" coll="$BENCH_DIR/coll20_$size.fa"
[ -s "$chr" ] || "$RV_BUILD/gen_chrom" "$size" 1 >"$chr" || exit 1
[ -s "$coll" ] || "$RV_BUILD/gen_chrom" --kind collection --records 20 "$size" 1 >"$coll" || exit 1
for f in "$chr" "$coll"; do
    echo "# $(basename "$f")"
    "$RV_BUILD/sa_bench" --threads "$SA_THREADS" "$f" || echo "(sa_bench failed on $f)"
done
