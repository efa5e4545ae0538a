# ui_export.sh — what the explorer writes (E, :export; P, :screen), read back by
# the project's own commands and by htslib's bgzip and tabix: the longest repeats
# and their copies equal `repview lr` and `repview find` of the repeat, the pairs
# `repview pairs --covering`, the runs and hits those of `repview tandem` and
# `repview find` on the screen; the screen text equals --dump and the SVG is well
# formed, in the theme's colours or without colour.
source "$RV_TOP/tests/lib.sh"
cp "$RV_TOP/tests/data/multi.fa" "$T/"
cd "$T" || exit 1
play() { "$REPVIEW" --keys "$1" --dump --wait-index --size "${2:-100x30}" multi.fa; }
body() { grep -v '^#' "$1"; }
# sequence of record $1, 0-based [$2, $3)
subseq_of() { awk -v r="$2" -v b="$3" -v e="$4" '/^>/ { on = substr($1, 2) == r; next } on { s = s $0 } END { print substr(s, b + 1, e - b) }' "$1"; }
subseq() { subseq_of multi.fa "$@"; }

# Longest repeats: the LRs over chr1:210 and every copy (BED6, name LRk)
play ':chr1:210<CR><Tab>Elr.bed<CR>' >screen.txt
grep -q 'wrote 1 longest repeat and its copies (BED) to lr.bed' screen.txt && ok export_lr_message || bad export_lr_message "$(tail -1 screen.txt)"
expect_eq export_lr_header "$(head -1 lr.bed)" "$(printf '#chrom\tstart\tend\tname\tlen\tstrand')"
lrs=$("$REPVIEW" lr multi.fa chr1:210-210 | awk -F'\t' '!/^#/ { print $1, $3, $4 }')
n_lr=$(wc -l <<<"$lrs")
ok_lr=1
for k in $(seq 1 "$n_lr"); do
    read -r c b e <<<"$(sed -n "${k}p" <<<"$lrs")"
    grep -qP "^$c\t$b\t$e\tLR$k\t$((e - b))\t\+$" lr.bed || { ok_lr=0; bad export_lr_rows "LR $c $b $e missing"; }
    copies=$(body lr.bed | awk -F'\t' -v n="LR$k" '$4 == n { print $1, $2, $3, $6 }')
    hits=$("$REPVIEW" find --strand + multi.fa "$(subseq "$c" "$b" "$e")" | awk -F'\t' '!/^#/ { print $1, $2, $3, $6 }')
    [ "$copies" = "$hits" ] || { ok_lr=0; bad export_lr_copies_are_find_hits "LR$k: [$copies] [$hits]"; }
done
[ "$n_lr" -ge 1 ] && [ $ok_lr = 1 ] && ok export_lr_copies_are_find_hits

# Both strands: a copy read as the reverse complement is a '-' row, as `repview
# find` reports the repeat on both strands (a 30-bp segment at inv:41-70 and its
# reverse complement at inv:121-150)
awk 'BEGIN { srand(9); for (i = 0; i < 200; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
             u = substr(s, 41, 30); r = ""; for (q = 30; q >= 1; q--) r = r substr("TGCA", index("ACGT", substr(u, q, 1)), 1)
             print ">inv"; print substr(s, 1, 120) r substr(s, 151) }' >inv.fa
"$REPVIEW" index --quiet --strands both inv.fa
"$REPVIEW" --keys ':inv:50<CR><Tab>Einv.bed<CR>' --dump --wait-index inv.fa >/dev/null
read -r c b e <<<"$("$REPVIEW" lr --strands both inv.fa inv:50-50 | awk -F'\t' '!/^#/ { print $1, $3, $4; exit }')"
expect_eq export_lr_both_strands "$(body inv.bed | cut -f1-3,6)" \
    "$("$REPVIEW" find inv.fa "$(subseq_of inv.fa "$c" "$b" "$e")" | awk -F'\t' '!/^#/ { print $1 "\t" $2 "\t" $3 "\t" $6 }')"

# Maximal pairs: the BEDPE of `repview pairs --covering`, minimum length of the pane
play ':chr1:210<CR><S-Tab>Epairs.bedpe<CR>' >screen.txt
min=$(grep -oE 'Maximal pairs [0-9]+ of [0-9]+\+' screen.txt | grep -oE '[0-9]+\+' | tr -d +)
expect_eq export_pairs_as_cli "$(cat pairs.bedpe)" "$("$REPVIEW" pairs -l "$min" --covering chr1:210 multi.fa)"

# Nothing to write: the header alone
play '<S-Tab>Enone.bedpe<CR>' | tail -1 | grep -q '^wrote 0 maximal pairs' && [ "$(wc -l <none.bedpe)" = 1 ] &&
    ok export_nothing_header_only || bad export_nothing_header_only "$(cat none.bedpe 2>&1 | head -3)"

# Tandem repeats on the screen: rows of `repview tandem` that overlap it
play ':chr1:520<CR><Tab><Tab><Tab>Etandem.bed<CR>' >screen.txt
first=$(grep -m1 -oE '^[> ] +[0-9,]+ [ACGTNacgtn]' screen.txt | grep -oE '[0-9,]+' | tr -d '>, ')
last=$(grep -oE '^[> ] +[0-9,]+ [ACGTNacgtn]' screen.txt | grep -oE '[0-9,]+' | tail -1 | tr -d '>, ')
want=$("$REPVIEW" tandem multi.fa | awk -F'\t' -v lo="$((first - 1))" -v hi="$((last - 1 + 80))" '$1 == "chr1" && $2 < hi && $3 > lo')
[ -n "$want" ] && expect_eq export_tandem_screen "$(body tandem.bed)" "$want" || bad export_tandem_screen "no run on the screen ($first-$last)"

# Matches on the screen: rows of `repview find`
play '/CACA<CR><Tab><Tab>Ehits.bed<CR>' >screen.txt
first=$(grep -m1 -oE '^[> ] +[0-9,]+ [ACGTNacgtn]' screen.txt | grep -oE '[0-9,]+' | tr -d '>, ')
last=$(grep -oE '^[> ] +[0-9,]+ [ACGTNacgtn]' screen.txt | grep -oE '[0-9,]+' | tail -1 | tr -d '>, ')
want=$("$REPVIEW" find multi.fa CACA | awk -F'\t' -v lo="$((first - 1 - 3))" -v hi="$((last - 1 + 80))" '$1 == "chr1" && $2 >= lo && $2 < hi')
[ -n "$want" ] && expect_eq export_hits_screen "$(body hits.bed)" "$want" || bad export_hits_screen "no hit on the screen"

# htslib reads every file back: bgzip, a tabix index, a region query
if command -v tabix >/dev/null && command -v bgzip >/dev/null; then
    for f in lr.bed tandem.bed hits.bed; do
        bgzip -f -c "$f" >"$f.gz" && tabix -f -p bed "$f.gz" 2>tabix.err &&
            [ "$(tabix "$f.gz" chr1 chr2 chrM | sort)" = "$(body "$f" | sort)" ] &&
            ok "export_tabix_$f" || bad "export_tabix_$f" "$(head -c 200 tabix.err)"
    done
    bgzip -f -c pairs.bedpe >pairs.bedpe.gz && tabix -f -0 -s 1 -b 2 -e 3 pairs.bedpe.gz 2>tabix.err &&
        [ "$(tabix pairs.bedpe.gz chr1:201-250)" = "$(body pairs.bedpe | awk -F'\t' '$1 == "chr1" && $2 < 250 && $3 > 200')" ] &&
        ok export_tabix_bedpe || bad export_tabix_bedpe "$(head -c 200 tabix.err)"
else
    ok "export_tabix_skipped (no tabix)"
fi

# Errors are one line on the screen, and the explorer goes on
play '<Tab>E/nonexistent/x.bed<CR>' | tail -1 | grep -q '^export: /nonexistent/x.bed: No such file or directory' &&
    ok export_unwritable || bad export_unwritable "$(play '<Tab>E/nonexistent/x.bed<CR>' | tail -1)"
play 'Enope.bed<CR>' | tail -1 | grep -q 'Suffix array pane has no features' && [ ! -e nope.bed ] &&
    ok export_sa_pane_nothing || bad export_sa_pane_nothing "$(play 'Enope.bed<CR>' | tail -1)"
play '<Tab><Tab>Enope.bed<CR>' | tail -1 | grep -q 'no search results' && [ ! -e nope.bed ] &&
    ok export_matches_without_search || bad export_matches_without_search "written or no message"

# The screen as text and SVG: the text is the screen before P; colour as on a
# colour terminal (TERM set, NO_COLOR unset), or without it
export TERM=xterm-256color
unset NO_COLOR
play ':chr1:210<CR>Pshot<CR>' >/dev/null
expect_eq screen_text_is_dump "$(head -28 shot.txt)" "$(play ':chr1:210<CR>' | head -28)"
svg_ok() { python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); assert d.documentElement.tagName == "svg"' "$1" 2>&1; }
# the SVG's text, put back on the grid of 9x18-pixel cells, is the screen's text
svg_text() {
    python3 -c '
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1]); svg = d.documentElement
rows = [[" "] * (int(svg.getAttribute("width")) // 9) for _ in range(int(svg.getAttribute("height")) // 18)]
for t in d.getElementsByTagName("text"):
    x, y = int(t.getAttribute("x")) // 9, (int(t.getAttribute("y")) + 5) // 18 - 1
    for k, c in enumerate(t.firstChild.data): rows[y][x + k] = c
print("\n".join("".join(r).rstrip() for r in rows))' "$1"
}
if command -v python3 >/dev/null; then
    expect_eq screen_svg_well_formed "$(svg_ok shot.svg)" ""
    expect_eq screen_svg_text_is_screen "$(svg_text shot.svg)" "$(cat shot.txt)"
fi
grep -q 'fill="#00cd00"' shot.svg && grep -q '<rect width="100%" height="100%" fill="#000000"/>' shot.svg &&
    ok screen_svg_colours || bad screen_svg_colours "no base colour or dark background"
"$REPVIEW" --keys ':chr1:210<CR>Plight.svg<CR>' --dump --wait-index --theme light multi.fa >/dev/null
grep -q '<rect width="100%" height="100%" fill="#ffffff"/>' light.svg && ok screen_svg_light_theme || bad screen_svg_light_theme "no light background"
NO_COLOR=1 "$REPVIEW" --keys ':chr1:210<CR>Pmono<CR>' --dump --wait-index multi.fa >/dev/null
! grep -q 'fill="#00cd00"' mono.svg && grep -q 'font-weight="bold"' mono.svg && ok screen_svg_no_color ||
    bad screen_svg_no_color "colour under NO_COLOR, or no attributes"
expect_eq screen_text_name_from_svg "$(ls light.txt light.svg mono.txt mono.svg 2>&1 | tr '\n' ' ')" "light.svg light.txt mono.svg mono.txt "
