# ui.sh — explorer responsiveness on a generated chromosome (250 Mbp; BENCH_QUICK=1:
# 2 Mbp): time to the first screen, and key-to-redraw latency (handling + full
# redraw of the screen and every pane, timed inside scripted mode with
# REPVIEW_BENCH=1) while scrolling, paging and jumping with the index loaded.
#   first_rvx     first screen when FILE.rvx exists (the start of the file or a faidx
#                 window; the .rvx is mapped, the blocks of its first screen checked,
#                 the rest in the background)
#   first_fai     first screen without an index (faidx window; build in background)
#   The key rows wait for the index and its verification first (--wait-index,
#   <verified>: not a key, left out of the figures).
#   scroll/line/page/jump/feature  per-key latency: median, p99, max (ms)
#   records   on an assembly of 3,000 contigs: R, a filter typed letter by letter,
#             moves in the list, Enter (the first R reads the descriptions)
# Target: p99 <= 16 ms (one frame at 60 Hz) on 250 Mbp.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:?}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then size=2m; else size=250m; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_ui.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fa="$BENCH_DIR/chr_$size.fa"
[ -s "$fa" ] || "$RV_BUILD/gen_chrom" "$size" 1 >"$fa" || exit 1
[ -s "$fa.rvx" ] || "$REPVIEW" index --quiet "$fa" || exit 1
read -r name len < <("$REPVIEW" stats "$fa" | awk -F'\t' '!/^#/ { print $1, $2; exit }')

# stats KEYS [OPTION]: prints "keys median p99 max first" from REPVIEW_BENCH=1
stats() {
    REPVIEW_BENCH=1 "$REPVIEW" --keys "$1" --dump ${2:-} "$fa" 2>"$tmp/err" >/dev/null ||
        { echo "explorer failed: $(head -c 300 "$tmp/err")" >&2; return 1; }
    awk -F'\t' '{ v[$1] = $2 } END { for (k in v) if (v[k] == "") v[k] = "-"; printf "%s %s %s %s %s\n", v["keys"] ? v["keys"] : "-", v["median_ms"] ? v["median_ms"] : "-", v["p99_ms"] ? v["p99_ms"] : "-", v["max_ms"] ? v["max_ms"] : "-", v["first_screen_ms"] }' "$tmp/err"
}
rep() { local s=$1 n=$2 out=""; for ((i = 0; i < n; i++)); do out+=$s; done; printf '%s' "$out"; }

jumps=""
for ((i = 1; i <= 40; i++)); do jumps+=":$name:$(( (i * 7919 * 104729) % len + 1 ))<CR>"; done

printf '# %s (%s bp); latency per key in ms (handling + full redraw); first screen in ms\n' "$size" "$len"
printf '%-10s %6s %9s %9s %9s\n' what keys median p99 max
read -r k m p x f < <(stats "")
printf '%-10s %6s %9s %9s %9s\n' first_rvx 1 "$f" "$f" "$f"
mv "$fa.rvx" "$tmp/keep.rvx"
read -r k m p x f < <(stats "")
mv "$tmp/keep.rvx" "$fa.rvx"
printf '%-10s %6s %9s %9s %9s\n' first_fai 1 "$f" "$f" "$f"
for row in "scroll:$(rep l 300)" "line:$(rep '<Down>' 200)" "page:$(rep '<PgDn>' 100)" "jump:$jumps" "feature:$(rep ']' 30)"; do
    read -r k m p x f < <(stats "<verified>${row#*:}" --wait-index) || continue
    printf '%-10s %6s %9s %9s %9s\n' "${row%%:*}" "$k" "$m" "$p" "$x"
done

# The record list on a 3,000-contig assembly (names with descriptions)
asm="$BENCH_DIR/asm_3000.fa"
[ -s "$asm" ] || awk 'BEGIN { srand(3); for (r = 1; r <= 3000; r++) {
        printf ">contig_%05d length=%d cov=%.1f\n", r, 1000 + r, 10 + r % 17
        for (i = 0; i < 1000 + r; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" } }' >"$asm"
fa=$asm
read -r k m p x f < <(stats "R$(rep '<Down>' 50)cov=15<BS><BS>contig_0299<Down><CR>R<Esc>" --wait-index) &&
    printf '%-10s %6s %9s %9s %9s\n' records "$k" "$m" "$p" "$x"
