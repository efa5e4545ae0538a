# strands.sh — both strands, side by side in one run.
#
# Table "pairs": an E. coli-sized generated chromosome (4.6 Mbp; BENCH_QUICK=1:
# 1 Mbp, one run), direct + inverted maximal pairs.  Medians of STRANDS_REPS (3).
#   index_s   repview index --strands both --cpu | mkvtree -dna -pl -allout
#   pairs_s   repview pairs -l L --strands both (BEDPE to a pipe) | vmatch -l L -d -p
#   rss_MB    peak resident memory of the pairs step
#   vs_vm     vmatch pairs_s / repview pairs_s (> 1: repview faster after indexing)
#   same      both report the same number of pairs
# Table "gpu" (only with a usable GPU): `repview index --gpu --timing` of a
# generated chromosome (STRANDS_GPU_SIZE, default 250m) for the forward strand and
# for both, whole process wall and peak RSS, and the GPU core (sa + isa + lcp +
# llr stages); both/fwd is the ratio of the two (target <= 2.2 on the core).
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then size=1m reps=1; else size=4600k reps=${STRANDS_REPS:-3}; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_strands.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
RVTIME=$RV_BUILD/rvtime
[ -x "$RVTIME" ] || { RVTIME=$tmp/rvtime; cc -O2 -o "$RVTIME" "${RV_TOP:-.}/tests/bench/rvtime.c" || exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed OUT cmd...: "wall rss_kb lines" (stdout counted as non-header lines) appended to OUT
timed() {
    local out=$1; shift
    local lines
    lines=$("$RVTIME" -o "$tmp/t" "$@" 2>"$tmp/err" | grep -vc '^#')
    if [ "$(cut -d' ' -f3 "$tmp/t")" != 0 ]; then echo "failed: $* $(head -c 300 "$tmp/err")" >&2; return 1; fi
    echo "$(cut -d' ' -f1-2 "$tmp/t") $lines" >>"$out"
}
med() { cut -d' ' -f"$2" "$1" | median; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0) ? a / b : 0 }'; } # no bc on the GPU image

have_vm=0
command -v mkvtree >/dev/null && command -v vmatch >/dev/null && have_vm=1
fa=$BENCH_DIR/strands_$size.fa
[ -s "$fa" ] || "$RV_BUILD/gen_chrom" --kind dna "$size" 7 >"$fa" || exit 1
ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/chr.fa"

echo "# pairs: median of $reps run(s); $(nproc) CPUs; input $size generated (gen_chrom --kind dna $size 7)"
printf '%-4s %-8s %8s %8s %10s %7s %6s %5s\n' l tool index_s pairs_s pairs rss_MB vs_vm same
for ((k = 0; k < reps; k++)); do
    rm -f "$tmp/chr.fa.rvx"
    timed "$tmp/rv_index" "$REPVIEW" index --quiet --cpu --strands both "$tmp/chr.fa" || exit 1
    if [ $have_vm = 1 ]; then
        timed "$tmp/vm_index" mkvtree -db "$tmp/chr.fa" -indexname "$tmp/vm" -dna -pl -allout || exit 1
    fi
done
for l in 50 100; do
    : >"$tmp/rv_$l"; : >"$tmp/vm_$l"
    for ((k = 0; k < reps; k++)); do
        timed "$tmp/rv_$l" "$REPVIEW" pairs --quiet -l "$l" --strands both "$tmp/chr.fa" || exit 1
        [ $have_vm = 1 ] && { timed "$tmp/vm_$l" vmatch -l "$l" -d -p -noevalue -noscore -noidentity "$tmp/vm" || exit 1; }
    done
    rv_p=$(med "$tmp/rv_$l" 1) rv_n=$(med "$tmp/rv_$l" 3)
    printf '%-4s %-8s %8.2f %8.3f %10d %7.0f %6s %5s\n' "$l" repview "$(med "$tmp/rv_index" 1)" "$rv_p" "$rv_n" \
        "$(div "$(med "$tmp/rv_$l" 2)" 1024)" - -
    if [ $have_vm = 1 ]; then
        vm_p=$(med "$tmp/vm_$l" 1) vm_n=$(med "$tmp/vm_$l" 3)
        same=no; [ "$vm_n" = "$rv_n" ] && same=yes
        printf '%-4s %-8s %8.2f %8.3f %10d %7.0f %6.2f %5s\n' "$l" vmatch "$(med "$tmp/vm_index" 1)" "$vm_p" "$vm_n" \
            "$(div "$(med "$tmp/vm_$l" 2)" 1024)" "$(div "$vm_p" "$rv_p")" "$same"
    else
        echo "$l vmatch not installed"
    fi
done

# ---- GPU: both strands against the forward strand ----------------------------
printf '>t\nACGTACGT\n' >"$tmp/tiny.fa"
if ! "$REPVIEW" lce --gpu --quiet --no-save "$tmp/tiny.fa" t:1 t:5 >/dev/null 2>&1; then echo; echo "SKIP gpu rows (no usable GPU)"; exit 0; fi
gsize=${STRANDS_GPU_SIZE:-250m}
gfa=$BENCH_DIR/chr_$gsize.fa
[ -s "$gfa" ] || "$RV_BUILD/gen_chrom" --kind dna "$gsize" 1 >"$gfa" || exit 1
greps=${GPU_REPS:-3}
echo
echo "# gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); input $gsize; median of $greps after one warm-up"
printf '%-6s %8s %8s %8s %8s\n' strands wall_s core_s rss_GB both/fwd
for s in + both; do
    : >"$tmp/g_$s"; : >"$tmp/c_$s"
    "$REPVIEW" index --gpu --quiet --strands "$s" -o "$tmp/g.rvx" "$gfa" || exit 1 # warm-up
    for ((k = 0; k < greps; k++)); do
        rm -f "$tmp/g.rvx"
        "$RVTIME" -o "$tmp/t" "$REPVIEW" index --gpu --quiet --timing --strands "$s" -o "$tmp/g.rvx" "$gfa" 2>"$tmp/timing" || exit 1
        cut -d' ' -f1-2 "$tmp/t" >>"$tmp/g_$s"
        awk -F'\t' '$1 == "suffix array" || $1 == "inverse SA" || $1 == "LCP" || $1 == "longest repeats" { c += $2 } END { print c }' \
            "$tmp/timing" >>"$tmp/c_$s"
    done
    rm -f "$tmp/g.rvx"
done
for s in + both; do
    w=$(med "$tmp/g_$s" 1) c=$(median <"$tmp/c_$s") r=$(med "$tmp/g_$s" 2)
    ratio=-
    [ "$s" = both ] && ratio=$(printf '%.2f (wall %.2f)' "$(div "$c" "$c_fwd")" "$(div "$w" "$w_fwd")")
    [ "$s" = + ] && c_fwd=$c w_fwd=$w
    printf '%-6s %8.2f %8.3f %8.1f %s\n' "$s" "$w" "$c" "$(div "$r" 1048576)" "$ratio"
done
