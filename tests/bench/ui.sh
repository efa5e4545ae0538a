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
#   With annotation tracks read through their tabix index (a GFF3 of 100,000 lines:
#   20,000 genes with an mRNA and 3 exons; a VCF of 5,000,000 records; BENCH_QUICK=1:
#   1/100 of each), drawn under every line:
#   trk_first  first screen with the tracks (FILE.rvx there); trk_fai: without index
#   trk_scroll/trk_page/trk_jump  per-key latency as above, the tracks drawn
#   trk_next   Ctrl-F: the next gene (reads windows through the index)
#   trk_name   :NAME of a gene (the first one reads the names of the whole file)
# Target: p99 <= 16 ms (one frame at 60 Hz) on 250 Mbp; with tracks <= 10 ms.
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

# Tracks: bgzipped and indexed once, kept beside the FASTA.
if [ "${BENCH_QUICK:-0}" != 0 ]; then genes=200 vars=50000; else genes=20000 vars=5000000; fi
gff="$BENCH_DIR/genes_${size}_$genes.gff3.gz" vcf="$BENCH_DIR/vars_${size}_$vars.vcf.gz"
if [ ! -s "$gff.tbi" ]; then
    awk -v n="$genes" -v len="$len" -v chr="$name" 'BEGIN { srand(1); print "##gff-version 3"; step = int(len / n)
        for (g = 0; g < n; g++) { b = g * step + 1 + int(rand() * step / 4); e = b + int(step / 2)
            printf "%s\tbench\tgene\t%d\t%d\t.\t+\t.\tID=g%d;Name=GENE%d\n", chr, b, e, g, g
            printf "%s\tbench\tmRNA\t%d\t%d\t.\t+\t.\tID=t%d;Parent=g%d\n", chr, b, e, g, g
            for (x = 0; x < 3; x++) printf "%s\tbench\texon\t%d\t%d\t.\t+\t.\tParent=t%d\n", chr, b + x * int(step / 6), b + x * int(step / 6) + 99, g } }' |
        bgzip -@2 >"$gff" && tabix -p gff "$gff" || exit 1
fi
if [ ! -s "$vcf.tbi" ]; then
    awk -v n="$vars" -v len="$len" -v chr="$name" 'BEGIN { srand(2); print "##fileformat=VCFv4.2"
        printf "##contig=<ID=%s,length=%d>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n", chr, len
        step = len / n; for (i = 0; i < n; i++) printf "%s\t%d\trs%d\tA\t%s\t50\tPASS\tDP=%d\n", chr, int(i * step) + 1, i, i % 7 ? "G" : "AT", i % 90 }' |
        bgzip -@2 >"$vcf" && tabix -p vcf "$vcf" || exit 1
fi
trk="--track $gff --track $vcf"
read -r k m p x f < <(stats "" "$trk")
printf '%-10s %6s %9s %9s %9s\n' trk_first 1 "$f" "$f" "$f"
mv "$fa.rvx" "$tmp/keep.rvx"
read -r k m p x f < <(stats "x" "$trk") # x: the build that starts is not timed
mv "$tmp/keep.rvx" "$fa.rvx"
printf '%-10s %6s %9s %9s %9s\n' trk_fai 1 "$f" "$f" "$f"
for row in "trk_scroll:$(rep l 300)" "trk_page:$(rep '<PgDn>' 100)" "trk_jump:$jumps" "trk_next:$(rep '<C-f>' 30)" \
           "trk_name::GENE$((genes / 2))<CR>:GENE$((genes / 3))<CR>:GENE7<CR>"; do
    read -r k m p x f < <(stats "<verified>${row#*:}" "--wait-index $trk") || continue
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
