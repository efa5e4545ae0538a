# pairs.sh — maximal pairs (-l 20/50/100) on generated chromosomes (10 and 50 Mbp;
# BENCH_QUICK=1: 1 and 2 Mbp, one run), repview side by side with vmatch on the
# same file in this run.  Each cell is the median of the runs.
#   index_s   repview index (SA, ISA, LCP; saved .rvx) | mkvtree -suf -lcp -tis -bwt
#   pairs_s   repview pairs (ordered BEDPE, stdout to a pipe) | vmatch -l L -d
#   total_s   index_s + pairs_s            pairs/s = pairs / pairs_s
#   rss_MB    peak resident memory of the pairs step (/usr/bin/time -v)
#   vs_vm     vmatch total_s / repview total_s (> 1: repview faster)
#   x1t       repview pairs speed-up over its 1-thread row (same index)
#   same      repview and vmatch report the same number of pairs
# Second table: the explorer's pairs pane query (rv_pairs_covering, page of 50,
# longest first, work bound 2 M rows) at 2000 random cursor positions — p50/p99/
# max milliseconds against a 16 ms p99 target, pairs covering a position (mean,
# max) and queries cut short by the work bound.
# A cell whose pair count (repview pairs --count, a second or so) exceeds
# PAIRS_MAX (default 200 M: ~12 GB of BEDPE) is skipped with a line saying so: the
# number of maximal pairs grows with the square of a repeat family's size, and at
# 50 Mbp -l 20 gives about a billion.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then sizes="1m 2m" runs=1; else sizes="10m 50m" runs=3; fi
lens="20 50 100"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_pairs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cursor_bin="$RV_BUILD/bench/pairs_cursor"
mkdir -p "$RV_BUILD/bench"
if [ ! -x "$cursor_bin" ] || [ "$cursor_bin" -ot "$RV_BUILD/librepview.a" ] ||
   [ "$cursor_bin" -ot "${RV_TOP:-.}/tests/bench/pairs_cursor.c" ]; then
    cc -std=c11 -D_GNU_SOURCE -O2 -I"${RV_TOP:-.}/include" -pthread -o "$cursor_bin" \
        "${RV_TOP:-.}/tests/bench/pairs_cursor.c" "$RV_BUILD/librepview.a" \
        $(pkg-config --libs htslib 2>/dev/null || echo -lhts) -ldivsufsort -ldivsufsort64 -lpthread -lm ||
        cursor_bin=
fi
: >"$tmp/cursor"
have_vm=0
command -v mkvtree >/dev/null && command -v vmatch >/dev/null && have_vm=1

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed OUTFILE cmd...: runs cmd with stdout counted as lines; prints "seconds rss_kb lines"
timed() {
    local out=$1; shift
    local t0 t1 lines
    t0=$(date +%s.%N)
    lines=$(/usr/bin/time -v -o "$tmp/time" "$@" 2>"$tmp/err" | grep -vc '^#')
    t1=$(date +%s.%N)
    if grep -q 'exit status [1-9]' "$tmp/time"; then echo "failed: $* $(head -c 300 "$tmp/err")" >&2; return 1; fi
    echo "$(echo "$t1 - $t0" | bc) $(awk -F': ' '/Maximum resident/ { print $2 }' "$tmp/time") $lines" >"$out"
}

# med FILE COLUMN: median of one column over the runs
med() { cut -d' ' -f"$2" "$1" | median; }

# repeat OUTFILE cmd...: $runs timed runs, one line each
repeat() {
    local out=$1; shift
    : >"$out"
    for ((k = 0; k < runs; k++)); do timed "$tmp/one" "$@" || return 1; cat "$tmp/one" >>"$out"; done
}

echo "# median of $runs run(s); $(nproc) CPUs; vmatch: $([ $have_vm = 1 ] && vmatch -version 2>&1 | head -1 || echo 'not installed')"
printf '%-5s %4s %-8s %3s %8s %8s %8s %10s %11s %7s %6s %5s %4s\n' \
    size l tool thr index_s pairs_s total_s pairs pairs/s rss_MB vs_vm x1t same
for size in $sizes; do
    fa="$BENCH_DIR/chr_$size.fa"
    [ -s "$fa" ] || "$RV_BUILD/gen_chrom" --kind dna "$size" 1 >"$fa" || exit 1
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/chr.fa"
    rm -f "$tmp/chr.fa.rvx"
    repeat "$tmp/rv_index" "$REPVIEW" index --quiet --cpu -t 2 -o "$tmp/chr.fa.rvx" "$tmp/chr.fa" || exit 1
    rv_index=$(med "$tmp/rv_index" 1)
    [ -s "$tmp/chr.fa.rvx" ] || "$REPVIEW" index --quiet --cpu -t 2 -o "$tmp/chr.fa.rvx" "$tmp/chr.fa"
    vm_index=0
    if [ $have_vm = 1 ]; then
        repeat "$tmp/vm_index" mkvtree -db "$tmp/chr.fa" -indexname "$tmp/vm" -dna -pl -suf -lcp -tis -bwt || exit 1
        vm_index=$(med "$tmp/vm_index" 1)
    fi
    for l in $lens; do
        n_est=$("$REPVIEW" pairs --quiet --count -l "$l" "$tmp/chr.fa")
        if [ "$n_est" -gt "${PAIRS_MAX:-200000000}" ]; then
            printf '%-5s %4d skipped: %s pairs > PAIRS_MAX=%s\n' "$size" "$l" "$n_est" "${PAIRS_MAX:-200000000}"
            continue
        fi
        vm_total=0 vm_pairs=-1
        if [ $have_vm = 1 ]; then
            repeat "$tmp/vm" vmatch -l "$l" -d "$tmp/vm" || exit 1
            vm_s=$(med "$tmp/vm" 1) vm_pairs=$(med "$tmp/vm" 3)
            vm_total=$(echo "$vm_index + $vm_s" | bc)
        fi
        for t in 1 2; do
            repeat "$tmp/rv" "$REPVIEW" pairs --quiet -t "$t" -l "$l" "$tmp/chr.fa" || exit 1
            s=$(med "$tmp/rv" 1) rss=$(med "$tmp/rv" 2) np=$(med "$tmp/rv" 3)
            [ "$t" = 1 ] && s1=$s
            awk -v size="$size" -v l="$l" -v t="$t" -v ix="$rv_index" -v s="$s" -v np="$np" -v rss="$rss" \
                -v vt="$vm_total" -v s1="$s1" -v same="$([ "$np" = "$vm_pairs" ] && echo yes || echo no)" 'BEGIN {
                tot = ix + s
                printf "%-5s %4d %-8s %3d %8.3f %8.3f %8.3f %10d %11.0f %7.1f %6.2f %5.2f %4s\n", size, l, "repview", t,
                       ix, s, tot, np, (s > 0 ? np / s : 0), rss / 1024, (vt > 0 ? vt / tot : 0), (s > 0 ? s1 / s : 0), same }'
        done
        if [ $have_vm = 1 ]; then
            awk -v size="$size" -v l="$l" -v ix="$vm_index" -v s="$vm_s" -v np="$vm_pairs" \
                -v rss="$(med "$tmp/vm" 2)" 'BEGIN {
                printf "%-5s %4d %-8s %3d %8.3f %8.3f %8.3f %10d %11.0f %7.1f %6s %5s %4s\n", size, l, "vmatch", 1,
                       ix, s, ix + s, np, (s > 0 ? np / s : 0), rss / 1024, "1.00", "-", "-" }'
        fi
    done
    if [ -n "$cursor_bin" ]; then
        for l in $lens; do printf '%-5s %s\n' "$size" "$("$cursor_bin" "$tmp/chr.fa" "$l")" >>"$tmp/cursor"; done
    fi
    rm -f "$tmp"/vm.* "$tmp/chr.fa.rvx"
done
echo
echo "# pairs pane query (rv_pairs_covering), 2000 random positions"
printf '%-5s %7s %7s %8s %8s %8s %11s %10s %10s\n' size min_len queries p50_ms p99_ms max_ms mean_pairs max_pairs incomplete
cat "$tmp/cursor"
