# mpi.sh — scale-out of `repview pairs -l 100` from prefix buckets, side by
# side in one run on a generated chromosome (MPI_BENCH_SIZE, default 250m;
# BENCH_QUICK=1: 4m).  Rows, each a whole command from the FASTA (median of
# MPI_REPS runs, default 1):
#   index+pairs  repview index (GPU when usable) then repview pairs -l 100 (the index path)
#   threads T    repview pairs -l 100 --cpu --mem-budget 8g -t T (buckets, one process)
#   mpi R        mpirun -np R repview pairs --cpu -l 100 -o OUT: R ranks of one thread,
#                all working (rank 0 also schedules and merges); R = 1 is the
#                singleton, the same bucket path in one process (--mem-budget 1g -t 1)
# and where a GPU is usable (GPU ranks: the buckets collected and sorted on the device):
#   gpu 1 proc   repview pairs --gpu -l 100 --mem-budget 8g -t T (one process)
#   mpi G GPU    mpirun -np G+1 repview pairs --gpu ... (G GPU ranks of T/G threads);
#                the 2-GPU row's speed-up is against the 1-GPU row
#   big 1 proc   MPI_BIG=1: pairs --gpu -l 100 --mem-budget 16g -o OUT of
#                MPI_BIG_SIZE (3g) in 12 records, from the FASTA, in one process
#   big mpi      the same under mpirun -np G+1, a GPU rank for each GPU (two at most);
#                its speed-up is against the one process, same = its output's md5 is
#                the one process's (the outputs of the rows above are deleted first,
#                each big one once its md5 is taken: one BEDPE on disk at a time,
#                28.8 GB in TMPDIR for 3g, beside the FASTA, 3.1 GB in BENCH_DIR)
# wall_s, rss_GB = peak RSS of the largest process (rank) in GB of 10^9 bytes (rvtime
# gives KiB), speed-up and efficiency against the one-rank row (strong scaling:
# efficiency = t1 / (R * tR)); same = the output equals the index path's, byte for
# byte.  Then `repview pairs --estimate` (run
# first, MPI_SAMPLE share, default its own) against what was measured: pairs,
# output bytes, wall and peak RSS of each mpi row, with the error in %.
# MPI_BENCH_GEN="ARGS" makes the input with gen_chrom ARGS instead (e.g.
# "--kind collection 20m 1").
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then size=4m workers=${MPI_RANKS:-"1 2"}; else size=${MPI_BENCH_SIZE:-250m} workers=${MPI_RANKS:-"1 2 4 8 16"}; fi
reps=${MPI_REPS:-1} L=${MPI_L:-100}
if ! command -v mpirun >/dev/null || ! "$REPVIEW" --version | grep -q '^mpi: yes'; then
    echo "SKIP mpi rows (no mpirun, or repview built without MPI)"; exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
RVTIME=$RV_BUILD/rvtime
[ -x "$RVTIME" ] || { RVTIME=$tmp/rvtime; cc -O2 -o "$RVTIME" "${RV_TOP:-.}/tests/bench/rvtime.c" || exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0) ? a / b : 0 }'; }
gen=${MPI_BENCH_GEN:-"--kind dna $size 1"}
fa=$BENCH_DIR/mpi_$(printf '%s' "$gen" | tr -c 'A-Za-z0-9.\n' _).fa
[ -s "$fa" ] || "$RV_BUILD/gen_chrom" $gen >"$fa" || exit 1
ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/chr.fa"

# run NAME cmd...: REPS runs; appends "wall rss_kb" lines to $tmp/NAME; the output in $tmp/NAME.out
run() {
    local name=$1; shift
    : >"$tmp/$name"
    for ((k = 0; k < reps; k++)); do
        rm -f "$tmp/out"
        "$RVTIME" -o "$tmp/t" "$@" 2>"$tmp/err" || { echo "failed: $* $(head -c 300 "$tmp/err")" >&2; return 1; }
        cut -d' ' -f1-2 "$tmp/t" >>"$tmp/$name"
    done
    mv "$tmp/out" "$tmp/$name.out" 2>/dev/null
    return 0
}
wall() { cut -d' ' -f1 "$tmp/$1" | median; }
rss_gb() { div "$(cut -d' ' -f2 "$tmp/$1" | median)" 976562.5; } # KiB -> GB (10^9 bytes)
line() { # name label speedup eff same [note]: a row of the table from $tmp/NAME's runs
    printf '%-14s %8.2f %8.2f %8s %6s %5s%s\n' "$2" "$(wall "$1")" "$(rss_gb "$1")" "$3" "$4" "$5" "${6:+   $6}"
}
row() { # name label [speedup eff]: same = the output is the index path's
    local same=no
    cmp -s "$tmp/$1.out" "$tmp/index.out" && same=yes
    line "$1" "$2" "${3:--}" "${4:--}" "$same"
}

echo "# pairs -l $L of gen_chrom $gen; $(nproc) CPUs; $(mpirun --version 2>&1 | head -1); median of $reps"
max_w=1
for w in $workers; do [ "$w" -gt "$max_w" ] && max_w=$w; done
"$RVTIME" -o "$tmp/est.t" "$REPVIEW" pairs --quiet -l "$L" --estimate --workers "$max_w" -t 1 \
    ${MPI_SAMPLE:+--estimate-sample "$MPI_SAMPLE"} "$tmp/chr.fa" >"$tmp/est" 2>"$tmp/err" ||
    { echo "failed: --estimate $(head -c 300 "$tmp/err")" >&2; exit 1; }
run index sh -c "'$REPVIEW' index --quiet -o '$tmp/chr.fa.rvx' '$tmp/chr.fa' && '$REPVIEW' pairs --quiet -l $L -o '$tmp/out' '$tmp/chr.fa'" || exit 1
rm -f "$tmp/chr.fa.rvx"
printf '%-14s %8s %8s %8s %6s %5s\n' command wall_s rss_GB speedup eff same
row index index+pairs
run threads "$REPVIEW" pairs --cpu --quiet -l "$L" --mem-budget 8g -t "$(nproc)" -o "$tmp/out" "$tmp/chr.fa" || exit 1
row threads "threads $(nproc)"
t1=
for w in $workers; do
    run "mpi$w" mpirun --oversubscribe -np "$w" "$REPVIEW" pairs --cpu --quiet -l "$L" --mem-budget 1g -t 1 -o "$tmp/out" "$tmp/chr.fa" || exit 1
    t=$(cut -d' ' -f1 "$tmp/mpi$w" | median)
    [ -z "$t1" ] && t1=$t
    row "mpi$w" "mpi $w ranks" "$(printf '%.2f' "$(div "$t1" "$t")")" "$(printf '%.0f%%' "$(awk -v a="$t1" -v b="$t" -v w="$w" 'BEGIN { print 100 * a / (w * b) }')")"
done

# the estimate against the runs: value of a quantity, of a worker row's column
est() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$tmp/est"; }
est_row() { awk -F'\t' -v w="$1" -v c="$2" '$1 == w { print $c; exit }' "$tmp/est"; }
err() { awk -v p="$1" -v m="$2" 'BEGIN { if (m > 0) printf "%+.1f%%", 100 * (p - m) / m; else print "-" }'; }
cmp_row() { printf '%-22s %14s %14s %8s\n' "$1" "$2" "$3" "$(err "$2" "$3")"; }
echo
echo "# --estimate ($(cut -d' ' -f1 "$tmp/est.t") s, $(head -1 "$tmp/est" | sed 's/.*: //')) against the runs;"
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (the prediction is for a core per rank)"
grep -E '^(serial|read|plan|jobs|merge|text_pass|map_pass)_s' "$tmp/est" | tr '\t' ' ' | tr '\n' ';' | sed 's/^/# its model: /; s/;$/\n/'
printf '%-22s %14s %14s %8s\n' quantity predicted measured error
mpairs=$(($(wc -l <"$tmp/index.out") - 1)) mbytes=$(wc -c <"$tmp/index.out")
cmp_row pairs "$(est pairs)" "$mpairs"
cmp_row output_bytes "$(est output_bytes)" "$mbytes"
for w in $workers; do
    cmp_row "wall_s mpi $w" "$(est_row "$w" 2)" "$(wall "mpi$w")"
    cmp_row "rss_GB mpi $w" "$(est_row "$w" 5)" "$(rss_gb "mpi$w")"
done

gpus=0
if "$REPVIEW" --version | grep -q '^cuda: yes' && command -v nvidia-smi >/dev/null; then
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
fi
if [ "$gpus" -eq 0 ]; then
    echo "SKIP gpu rows (no usable GPU)"
    exit 0
fi
run gpu1p "$REPVIEW" pairs --gpu --quiet -l "$L" --mem-budget 8g -t "$(nproc)" -o "$tmp/out" "$tmp/chr.fa" || exit 1
row gpu1p "gpu 1 proc"
g1=
for g in 1 2; do
    [ "$g" -le "$gpus" ] || { echo "SKIP mpi $g GPU row ($gpus GPU)"; continue; }
    run "gpu$g" mpirun --oversubscribe -np $((g + 1)) "$REPVIEW" pairs --gpu --quiet -l "$L" -o "$tmp/out" "$tmp/chr.fa" || exit 1
    t=$(cut -d' ' -f1 "$tmp/gpu$g" | median)
    [ -z "$g1" ] && g1=$t
    row "gpu$g" "mpi $g GPU" "$(printf '%.2f' "$(div "$g1" "$t")")" "-"
done
if [ "${MPI_BIG:-0}" != 0 ]; then
    rm -f "$tmp"/*.out # room for the big outputs
    big=${MPI_BIG_SIZE:-3g}
    bfa=$BENCH_DIR/big_$big.fa
    [ -s "$bfa" ] || "$RV_BUILD/gen_chrom" --kind dna --records 12 "$big" 1 >"$bfa" || exit 1
    ln -sf "$(cd "$(dirname "$bfa")" && pwd)/$(basename "$bfa")" "$tmp/big.fa"
    ng=$((gpus < 2 ? gpus : 2))
    run big1p "$REPVIEW" pairs --gpu --quiet -l "$L" --mem-budget 16g -o "$tmp/out" "$tmp/big.fa" || exit 1
    bpairs=$(($(wc -l <"$tmp/big1p.out") - 1)) # less the header line
    md5_1p=$(md5sum <"$tmp/big1p.out" | cut -d' ' -f1)
    rm -f "$tmp/big1p.out"
    run big mpirun --oversubscribe -np $((ng + 1)) "$REPVIEW" pairs --gpu --quiet -l "$L" -o "$tmp/out" "$tmp/big.fa" || exit 1
    same=no
    [ "$(md5sum <"$tmp/big.out" | cut -d' ' -f1)" = "$md5_1p" ] && same=yes
    rm -f "$tmp/big.out"
    line big1p "big $big 1 proc" - - - "(--mem-budget 16g, $bpairs pairs, md5 ${md5_1p:0:8})"
    line big "big $big mpi" "$(printf '%.2f' "$(div "$(wall big1p)" "$(wall big)")")" - "$same" "(GPU ranks: $ng)"
fi
