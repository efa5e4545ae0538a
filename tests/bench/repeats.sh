#!/usr/bin/env bash
# tests/bench/repeats.sh — `repview repeats` and `repview wmers` beside their peers
# on the same generated chromosome (2 and 10 Mbp; BENCH_QUICK=1: 1 Mbp), one run
# each, measured side by side in this run:
#   index      repview index (SA, ISA, LCP; saved .rvx) | mkvtree -suf -lcp -tis -bwt
#              | gt suffixerator -suf -lcp -tis (tallymer's enhanced suffix array)
#   supermax   repview repeats --supermaximal -l 20 | vmatch -supermax -l 20
#   maximal    repview repeats -l 20 (no peer prints occurrence lists)
#   wmers      repview wmers -w 12 --count-only | gt tallymer mkindex -mersize 12 -minocc 2
#   wmers-gpu  with a usable GPU: repview wmers -w 12 --count-only, and with positions
#              (wmers+pos), --gpu next to --cpu; same = the outputs are identical (cmp).
#              BENCH_GPU_SIZE=250m adds that size for these rows alone (-w 16, -t all)
# Columns: wall_s and rss_MB of the step (rvtime), out = what it printed (repeats:
# lines; supermax: pairs of copies, k(k-1)/2 per repeat, to compare with vmatch's
# lines; wmers: w-mers), same = our count equals the peer's.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:=build}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then sizes="1m"; else sizes="2m 10m"; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_repeats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
have_vm=0 have_gt=0
command -v mkvtree >/dev/null && command -v vmatch >/dev/null && have_vm=1
command -v gt >/dev/null && have_gt=1

# step NAME COUNT_AWK CMD...: run CMD (stdout to $tmp/out) under rvtime, print
# "wall_s rss_MB out" where out is COUNT_AWK applied to the output
step() {
    local count=$1; shift
    (cd "$tmp" && "$RV_BUILD/rvtime" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err") ||
        { echo "failed: $* $(head -c 200 "$tmp/err")" >&2; echo "- - -"; return; }
    awk -v n="$(awk "$count" "$tmp/out")" '{ printf "%.3f %.1f %s\n", $1, $2 / 1024, n }' "$tmp/time"
}
# gpu_rows SIZE W [ARGS...]: wmers --gpu and --cpu on chr.fa, side by side (step
# names: wmers-gpu for counts, wmers+pos with positions)
gpu_rows() {
    local size=$1 w=$2 name=wmers+pos; shift 2
    case " $* " in *" --count-only "*) name=wmers-gpu ;; esac
    read -r s r ours <<<"$(step "$lines" "$REPVIEW" wmers --quiet --gpu -w "$w" "$@" chr.fa)"
    mv "$tmp/out" "$tmp/out.gpu"
    read -r cs cr theirs <<<"$(step "$lines" "$REPVIEW" wmers --quiet --cpu -w "$w" "$@" chr.fa)"
    row "$size" "$name" gpu "$s" "$r" "$ours" "$(cmp -s "$tmp/out" "$tmp/out.gpu" && echo yes || echo no)"
    row "$size" "$name" cpu "$cs" "$cr" "$theirs" -
}
have_gpu=0 # --gpu is an error without a usable GPU
printf '>p\nACGTACGT\n' >"$tmp/probe.fa"
"$REPVIEW" wmers --quiet --no-save --gpu -w 2 "$tmp/probe.fa" >/dev/null 2>&1 && have_gpu=1
row() { printf '%-5s %-9s %-8s %8s %8s %12s %5s\n' "$@"; }

echo "# one run each; $(nproc) CPUs; vmatch: $([ $have_vm = 1 ] && echo yes || echo 'not installed'); gt: $([ $have_gt = 1 ] && gt -version 2>&1 | head -1 || echo 'not installed')"
row size step tool wall_s rss_MB out same
for size in $sizes; do
    fa="$BENCH_DIR/chr_$size.fa"
    [ -s "$fa" ] || "$RV_BUILD/gen_chrom" --kind dna "$size" 1 >"$fa" || exit 1
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/chr.fa"
    rm -f "$tmp/chr.fa.rvx"
    lines='!/^#/ { n++ } END { print n + 0 }'
    pairs='!/^#/ { n += $2 * ($2 - 1) / 2 } END { print n + 0 }'
    row "$size" index repview $(step "$lines" "$REPVIEW" index --quiet -o chr.fa.rvx chr.fa) -
    [ $have_vm = 1 ] && row "$size" index mkvtree $(step "$lines" mkvtree -db chr.fa -indexname vm -dna -pl -suf -lcp -tis -bwt) -
    [ $have_gt = 1 ] && row "$size" index gt $(step "$lines" gt suffixerator -db chr.fa -indexname esa -dna -pl -suf -lcp -tis) -
    read -r s r ours <<<"$(step "$pairs" "$REPVIEW" repeats --quiet --supermaximal -l 20 chr.fa)"
    if [ $have_vm = 1 ]; then
        read -r vs vr theirs <<<"$(step "$lines" vmatch -supermax -l 20 vm)"
        row "$size" supermax repview "$s" "$r" "$ours" "$([ "$ours" = "$theirs" ] && echo yes || echo no)"
        row "$size" supermax vmatch "$vs" "$vr" "$theirs" -
    else
        row "$size" supermax repview "$s" "$r" "$ours" -
    fi
    row "$size" maximal repview $(step "$lines" "$REPVIEW" repeats --quiet -l 20 chr.fa) -
    read -r s r ours <<<"$(step "$lines" "$REPVIEW" wmers --quiet -w 12 --count-only chr.fa)"
    if [ $have_gt = 1 ]; then
        read -r gs gr theirs <<<"$(step '$1 ~ /^[a-z]+$/ { n++ } END { print n + 0 }' gt tallymer mkindex -esa esa -mersize 12 -minocc 2)"
        row "$size" wmers repview "$s" "$r" "$ours" "$([ "$ours" = "$theirs" ] && echo yes || echo no)"
        row "$size" wmers tallymer "$gs" "$gr" "$theirs" -
    else
        row "$size" wmers repview "$s" "$r" "$ours" -
    fi
    if [ $have_gpu = 1 ]; then
        gpu_rows "$size" 12 --count-only
        gpu_rows "$size" 12
    fi
    rm -f "$tmp"/vm.* "$tmp"/esa.* "$tmp/chr.fa.rvx"
done
if [ $have_gpu = 1 ] && [ -n "${BENCH_GPU_SIZE:-}" ]; then
    size=$BENCH_GPU_SIZE fa="$BENCH_DIR/chr_$BENCH_GPU_SIZE.fa"
    [ -s "$fa" ] || "$RV_BUILD/gen_chrom" --kind dna "$size" 1 >"$fa" || exit 1
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/chr.fa"
    row "$size" index repview $(step "$lines" "$REPVIEW" index --quiet --gpu -o chr.fa.rvx chr.fa) -
    gpu_rows "$size" 16 --min-count 2 --count-only
    gpu_rows "$size" 16 --min-count 2
    rm -f "$tmp/chr.fa.rvx"
fi
