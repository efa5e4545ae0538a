#!/usr/bin/env bash
# tests/bench/fm.sh — many reads counted and located: `repview find
# --count -k K -f READS.fq` on a generated chromosome, the GPU FM-index path against
# the CPU paths (FM-index in threads; the suffix-array search) in the same run, the
# same counts checked.  Whole-command wall clock and peak RSS (rvtime), the search
# stage from REPVIEW_FIND_TRACE (fm: FM-index batches; sa: patterns left to the SA
# search; read: the FASTQ reading thread, overlapped).  The index is built first.
#   default: 250 Mbp, 10,000,000 reads of 100 bp (sim_reads: both strands, 0-3
#   substitutions, 2% random); BENCH_QUICK=1: 2 Mbp, 100,000 reads.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:=build}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ -n "${BENCH_QUICK:-}" ] && [ "$BENCH_QUICK" != 0 ]; then LEN=2m NREADS=100000; else LEN=250m NREADS=10000000; fi
chrom=$BENCH_DIR/chrom_dna_${LEN}_1.fa reads=$BENCH_DIR/reads_${LEN}_${NREADS}.fq
[ -s "$chrom" ] || "$RV_BUILD/gen_chrom" --kind dna "$LEN" 1 >"$chrom"
[ -s "$reads" ] || "$RV_BUILD/sim_reads" "$chrom" "$NREADS" 100 1 >"$reads"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_fm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
T=$(nproc)
gpu=0
$REPVIEW --version | grep -q 'cuda: yes' && $REPVIEW index --gpu --quiet "$chrom" 2>/dev/null && gpu=1
[ $gpu = 1 ] || $REPVIEW index --quiet "$chrom"
echo "input: $chrom, $NREADS reads of 100 bp ($reads); index built first"
printf '%-26s %-3s %9s %10s %9s %9s %9s %s\n' path k wall_s peak_MB fm_s sa_s read_s same_counts
# row LABEL K ARGS...: one timed run; its counts are kept as $tmp/LABEL.K
row() {
    local label=$1 k=$2; shift 2
    REPVIEW_FIND_TRACE=1 "$RV_BUILD/rvtime" -o "$tmp/t" $REPVIEW find --count -k "$k" "$@" -f "$reads" "$chrom" \
        >"$tmp/$label.$k" 2>"$tmp/e"
    local tr; tr=$(grep "^find"$'\t'"patterns" "$tmp/e" | tail -1) # the line with the stages
    local fm sa rd same=-
    fm=$(sed -E 's/.*\) ([0-9.]+) s\tsa.*/\1/' <<<"$tr"); sa=$(sed -E 's/.*\tsa [0-9]+ ([0-9.]+) s.*/\1/' <<<"$tr")
    rd=$(sed -E 's/.*\tread ([0-9.]+) s.*/\1/' <<<"$tr")
    [ -s "$tmp/ref.$k" ] && { cmp -s "$tmp/ref.$k" "$tmp/$label.$k" && same=yes || same=NO; }
    [ -s "$tmp/ref.$k" ] || cp "$tmp/$label.$k" "$tmp/ref.$k"
    printf '%-26s %-3s %9.2f %10d %9s %9s %9s %s\n' "$label" "$k" "$(cut -d' ' -f1 "$tmp/t")" \
        $(( $(cut -d' ' -f2 "$tmp/t") / 1024 )) "$fm" "$sa" "$rd" "$same"
}
# FM_KS: the k of the rows (default "2 0"); FM_GPU_REPS: GPU runs each (default 1);
# FM_SA=0 leaves out the SA rows (the slowest)
for k in ${FM_KS:-2 0}; do
    for ((g = 0; gpu == 1 && g < ${FM_GPU_REPS:-1}; g++)); do row "GPU FM" "$k" --gpu; done
    row "CPU FM, $T threads" "$k" --cpu --search fm -t "$T"
    [ "${FM_SA:-1}" = 0 ] || row "CPU SA, $T threads" "$k" --cpu --search sa -t "$T"
done
[ $gpu = 1 ] || echo "(no GPU: the GPU rows are missing)"
