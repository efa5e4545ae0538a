# ui_golden.sh — golden screens of the explorer in scripted mode (--keys ... --dump).
# Each case plays keys on a small input and compares the final screen with
# tests/golden/NAME.txt.  UPDATE_GOLDEN=1 rewrites the goldens instead (read the
# diff before committing them).
source "$RV_TOP/tests/lib.sh"
G="$RV_TOP/tests/golden"
cp "$RV_TOP/tests/data/multi.fa" "$RV_TOP/samples/lambda.fa.gz" "$T/"
cp "$T/multi.fa" "$T/keep.fa"
printf '>only\nACGTACGTTTGACCA\n' | gzip -c >"$T/plain.fa.gz" # gzip, not bgzip: no random access

# The build's backend and timing differ between machines: keep the words only.
# The tandem and pairs panes of the normal layout (right of column 33 from the
# Matches title down) depend on engines that land separately: cut them off here
# and check them with golden_engine below.
# A kept index (keep.sh) ends the line with "; saved FILE.rvx (SIZE)": the name stays.
# The key hint after those messages moves with their length (to the status bar
# when they fill the line): it is checked below.
normalise() {
    sed -E '/^(index |created )/ s/ {2,}F1 help( .*)?$//; s/F1 help  (index ready|index loaded)$/         \1/' |
    sed -E 's/created .* for fast access; //; s/(index loaded from [^ ]+) in [0-9.]+ s/\1/' |
    sed -E 's/index ready: .*(; saved [^ ]+) \([^)]*\)$/index ready: ...\1 (...)/; t; s/index ready: .*$/index ready: .../' | awk '
        { line[NR] = $0 } /^[-*] Matches/ && !m { m = NR }
        END { for (i = 1; i <= NR; i++) {
                  l = line[i]
                  if (m && i >= m && i < NR - 1 && length(l) > 33) { l = substr(l, 1, 33); sub(/ +$/, "", l) }
                  print l } }'
}

# golden NAME FILE KEYS [SIZE]
golden() {
    local name=$1 file=$2 keys=$3 size=${4:-100x30}
    local out rc
    (cd "$T" && "$REPVIEW" --keys "$keys" --dump --wait-index --size "$size" $file >"$T/screen" 2>"$T/err")
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$T/err" ]; then bad "golden_$name" "exit $rc, stderr: $(head -c 200 "$T/err")"; return; fi
    out=$(normalise <"$T/screen")
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        printf '%s\n' "$out" >"$G/$name.txt"
        ok "golden_$name (updated)"
        return
    fi
    if [ ! -f "$G/$name.txt" ]; then bad "golden_$name" "no $G/$name.txt (run with UPDATE_GOLDEN=1)"; return; fi
    if diff -u "$G/$name.txt" <(printf '%s\n' "$out") >"$T/diff"; then ok "golden_$name"
    else bad "golden_$name" "screen differs: $(head -c 600 "$T/diff" | tr '\n' '|')"; fi
}

golden start_sample lambda.fa.gz ''
golden start_multi multi.fa ''
golden counts_move multi.fa '20l3<Down>'
golden goto_region multi.fa ':chr2:100<CR>'
golden goto_relative multi.fa ':+250<CR>:-2<CR>'
golden goto_bad multi.fa ':chrX:5<CR>'
golden goto_bad_pos multi.fa ':99999<CR>'
golden region_arg "multi.fa chr1:201-260" ""
golden record_next multi.fa '}'
golden record_prev multi.fa '}}{'
golden record_picker multi.fa 'R'
golden record_pick multi.fa 'R<Down><Down><CR>'
# the record list filters as you type (name or description) and shows descriptions
golden record_filter multi.fa 'Rmito'
golden record_filter_jump multi.fa 'RFIRST<CR>'
golden record_filter_none multi.fa 'Rzzz'
golden record_filter_backspace multi.fa 'Rzzz<BS><BS><BS>chr2<CR>'
golden record_filter_command multi.fa ':records first<CR>'
golden record_list_click multi.fa 'R<click:10,4><CR>'
golden search_fwd multi.fa '/ACGTTGCA<CR>'
golden search_n multi.fa '/GCTAAAGACA<CR>n'
golden search_N multi.fa '/GCTAAAGACA<CR>nN'
golden search_none multi.fa '/GGGGGGGGGGGG<CR>'
golden search_back multi.fa ':chr2:200<CR>?GCTAAAGACA<CR>'
golden search_mismatch multi.fa '/GCTAAAGACT/1<CR><Tab><Tab>z'
golden search_bad_letter multi.fa '/ACGJ<CR>'
golden search_repeat multi.fa '/CACA<CR>/<CR>5n'
golden pane_sa_zoom multi.fa ':chr1:210<CR>z'
golden pane_lr multi.fa ':chr1:210<CR><Tab>z'
golden pane_lr_jump multi.fa ':chr1:210<CR><Tab>j<CR>'
golden pane_lr_visual multi.fa ':chr1:205<CR>v20l<Tab>z'
golden pane_matches multi.fa '/CACA<CR><Tab><Tab>z'
# Keeping the index (tests/run sets REPVIEW_NO_SAVE=1): saved once ready, where and
# how large; loaded on the next open; not saved with --no-save
REPVIEW_NO_SAVE= golden keep_saved keep.fa '' 200x12
REPVIEW_NO_SAVE= golden keep_reopen keep.fa '' 200x12
rm -f "$T/keep.fa.rvx"
REPVIEW_NO_SAVE= golden keep_no_save "--no-save keep.fa" '' 200x12
[ ! -e "$T/keep.fa.rvx" ] && ok golden_keep_no_save_no_file || bad golden_keep_no_save_no_file "keep.fa.rvx written"
# golden_engine NAME ENGINE FILE KEYS: a golden screen once `repview ENGINE` exists,
# "waiting for engine" before
golden_engine() {
    if "$REPVIEW" "$2" --help >/dev/null 2>&1; then golden "$1" "$3" "$4"; return; fi
    local out
    out=$(cd "$T" && "$REPVIEW" --keys "$4" --dump --wait-index $3 2>&1)
    grep -q "waiting for engine ($2.h)" <<<"$out" && ok "golden_$1 (engine $2 not built in)" ||
        bad "golden_$1" "no 'waiting for engine ($2.h)': $(head -c 300 <<<"$out")"
}
golden_engine pane_tandem tandem multi.fa '<Tab><Tab><Tab>z'
golden_engine pane_tandem_here tandem multi.fa ':chr1:520<CR><Tab><Tab><Tab>z'
golden_engine tandem_next tandem multi.fa '<Tab><Tab><Tab>]]'
golden_engine pane_pairs pairs multi.fa '<S-Tab>z'
golden_engine pane_pairs_here pairs multi.fa ':chr1:210<CR><S-Tab>z'
golden_engine pairs_jump pairs multi.fa ':chr1:210<CR><S-Tab><CR>'
golden_engine pairs_set_minpair pairs multi.fa ':chr1:210<CR>:set minpair 30<CR><S-Tab>z'
golden_engine pairs_families repeats multi.fa ':chr1:210<CR>:set pairs families<CR><S-Tab>z'
golden_engine pairs_families_jump repeats multi.fa ':chr1:210<CR>:set pairs families<CR><S-Tab><CR>'
golden_engine tandem_set_filters tandem multi.fa ':set minlen 4<CR>:set maxperiod 2<CR><Tab><Tab><Tab>z'
golden mouse_click_sequence multi.fa '<click:30,4>'
golden mouse_click_pane multi.fa '<click:5,14>'
golden mouse_click_pane_jump multi.fa '<click:5,14><CR>'
golden mouse_wheel multi.fa '<wheeldown><wheeldown><wheelup>'
# the selected pair's copies and the selected run are marked in the sequence view
# (an attribute on a terminal; '#' in dumps with REPVIEW_DUMP_MARKS=1)
REPVIEW_DUMP_MARKS=1 golden_engine marks_pair pairs multi.fa ':chr1:210<CR><S-Tab>'
REPVIEW_DUMP_MARKS=1 golden_engine marks_run tandem multi.fa ':chr1:520<CR><Tab><Tab><Tab>'
# runs under the tandem filters are shown on the LR track ('~' in dumps); :set changes them
REPVIEW_DUMP_MARKS=1 golden_engine track_runs tandem multi.fa ':chr1:520<CR>'
REPVIEW_DUMP_MARKS=1 golden_engine track_runs_filtered tandem multi.fa ':chr1:520<CR>:set minlen 20<CR>'
# Both strands: a 30-bp segment at inv:41-70 and its reverse complement at
# inv:121-150, indexed with both strands; the explorer opens FILE.rvx as it is.
inv_seq=GAACTCGTGTTGTCGAGCGACGGAATTAGATCAGTTAAATCCGTAATGCCTTTCCCTAACAGAGTTTTTCGGCAGAAAACTGGCAGGGCTTTTAGTCGTGGGATGATCAGTGGGTAAAGGGAAAAACTCTGTTAGGGAAAGGCATTACGGTGGCGCGGGGTAACGCGCGCTAAGGCTCAGCTGCAACGCG
printf '>inv\n%s\n' "$inv_seq" >"$T/inv.fa"
cp "$T/inv.fa" "$T/invset.fa"
"$REPVIEW" index --quiet --strands both "$T/inv.fa" || bad strands_index "repview index --strands both failed"
golden strands_start inv.fa ''
golden strands_lr inv.fa ':inv:50<CR><Tab>z'
golden strands_pairs inv.fa ':inv:50<CR><S-Tab>z'
golden strands_pairs_jump_rc inv.fa ':inv:50<CR><S-Tab><CR>'
golden strands_lr_jump_rc inv.fa ':inv:50<CR><Tab>j<CR>'
golden strands_jump_back inv.fa ':inv:50<CR><Tab>j<CR><C-o>'
golden strands_rc_moved_away inv.fa ':inv:50<CR><Tab>j<CR><Tab><Tab><Tab><Tab>40l'
golden strands_track_fwd inv.fa ':inv:50<CR>S'
golden strands_track_both_again inv.fa ':inv:50<CR>SS'
golden strands_track_one_strand multi.fa 'S'
golden strands_search inv.fa '/GAAAAAC<CR><Tab><Tab>z'
REPVIEW_DUMP_MARKS=1 golden strands_marks_pair inv.fa ':inv:50<CR><S-Tab>'
# :set strands both builds both strands in the background and keeps them in FILE.rvx
REPVIEW_NO_SAVE= golden strands_set_both invset.fa ':set strands both<CR>' 200x12
"$REPVIEW" stats "$T/invset.fa" | grep -q '^# strands: both' && ok strands_set_both_kept ||
    bad strands_set_both_kept "$("$REPVIEW" stats "$T/invset.fa" | grep strands)"
golden strands_set_both_reopen invset.fa '' 200x12
golden strands_set_again invset.fa ':set strands both<CR>' 200x12
golden strands_set_bad invset.fa ':set strands sideways<CR>' 200x12
REPVIEW_NO_SAVE= golden strands_set_forward invset.fa ':set strands +<CR>' 200x12
"$REPVIEW" stats "$T/invset.fa" | grep -q '^# strands: forward' && ok strands_set_forward_kept ||
    bad strands_set_forward_kept "$("$REPVIEW" stats "$T/invset.fa" | grep strands)"
# The forward-only track (S) gives the LR lengths of a one-strand index (status bar)
awk 'BEGIN { srand(11); s = ""; for (i = 0; i < 1500; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
             for (k = 0; k < 12; k++) { i = int(rand() * 1400); l = 8 + int(rand() * 40); j = int(rand() * 1400)
                 c = substr(s, i + 1, l); r = ""
                 if (k % 2) for (q = l; q >= 1; q--) r = r substr("TGCA", index("ACGT", substr(c, q, 1)), 1); else r = c
                 s = substr(s, 1, j) r substr(s, j + l + 1) }
             print ">r"; print substr(s, 1, 1500) }' >"$T/rnd.fa"
cp "$T/rnd.fa" "$T/rndfwd.fa"
"$REPVIEW" index --quiet --strands both "$T/rnd.fa"
agree=1
for pos in 1 100 250 377 500 640 800 999 1200 1333 1500; do
    fwd=$(cd "$T" && "$REPVIEW" --keys ":r:$pos<CR>" --dump --wait-index rndfwd.fa | tail -2 | head -1 | grep -oE ' LR [0-9]+')
    both=$(cd "$T" && "$REPVIEW" --keys ":r:$pos<CR>S" --dump --wait-index rnd.fa | tail -2 | head -1 | grep -oE ' LR [0-9]+')
    [ -n "$fwd" ] && [ "$fwd" = "$both" ] || { agree=0; bad strands_track_fwd_matches_one_strand "r:$pos: one strand [$fwd], both with S [$both]"; }
done
[ $agree = 1 ] && ok strands_track_fwd_matches_one_strand
golden set_bad multi.fa ':set minpair x<CR>'
golden set_show multi.fa ':set<CR>'
golden feature_next multi.fa ']'
golden jump_back multi.fa ']<C-o>'
golden help multi.fa '<F1>'
golden help_question multi.fa '?<CR>'
golden help_scrolled multi.fa ':help<CR>20j'
golden resize multi.fa ':chr1:300<CR><resize:60x20>'
golden small_screen multi.fa '' 60x20
golden gzip_input plain.fa.gz ''
golden unknown_key multi.fa 'Q'
# a record by any unique '|' token of its name, as typed after : and as REGION
awk 'BEGIN { srand(5); for (r = 1; r <= 2; r++) {
                 printf ">gi|22701463%d|gb|CP00123%d.1| Vibrio cholerae O395 chromosome %d\n", 7 + r, 5 + r, r
                 for (i = 0; i < 300 - 100 * r; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" } }' >"$T/ncbi.fa"
golden goto_token ncbi.fa ':CP001236.1:100<CR>'
golden goto_token_ambiguous ncbi.fa ':gb:5<CR>'
golden region_arg_token "ncbi.fa CP001237.1:20-30" ""
golden record_list_descriptions ncbi.fa 'R'
# an assembly of 3,000 contigs: the list filters to one and goes there; a token of
# an NCBI-style name reaches the last one
awk 'BEGIN { srand(8); for (r = 1; r <= 3000; r++) { printf ">ref|ctg%05d| sample S%d\n", r, r % 7
             for (i = 0; i < 40; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" } }' >"$T/asm.fa"
out=$(cd "$T" && "$REPVIEW" --keys 'Rctg02999' --dump --size 100x12 asm.fa | head -3)
[[ "$out" == " 1 of 3000 records"*"ref|ctg02999|"*"sample S3"* ]] && ok record_list_3000_filter || bad record_list_3000_filter "$out"
out=$(cd "$T" && "$REPVIEW" --keys 'Rctg02999<CR>' --dump --size 100x12 asm.fa | tail -2 | head -1)
[[ "$out" == " ref|ctg02999|:1 "* ]] && ok record_list_3000_jump || bad record_list_3000_jump "$out"
out=$(cd "$T" && "$REPVIEW" --keys '' --dump --size 100x12 asm.fa ctg03000:20 | tail -2 | head -1)
[[ "$out" == " ref|ctg03000|:20 "* ]] && ok region_token_3000 || bad region_token_3000 "$out"
# a : line that is no command says so (and no record either)
golden unknown_command multi.fa ':w<CR>'
golden unknown_command_args multi.fa ':mark a<CR>'
# marks: set, return (a jump: Ctrl-O comes back), list; history back and forward
golden mark_set multi.fa ':chr1:300<CR>ma'
golden mark_go multi.fa ":chr1:300<CR>ma}'a"
golden mark_go_back multi.fa ":chr1:300<CR>ma}'a<C-o>"
golden mark_unset multi.fa "'q"
golden mark_not_letter multi.fa 'm1'
golden marks_list multi.fa ":chr1:300<CR>ma}mb:chrM:20<CR>mcM"
golden marks_list_jump multi.fa ":chr1:300<CR>ma}mbMj<CR>"
golden jump_forward multi.fa ']]<C-o><C-o><C-n>'
golden jump_forward_none multi.fa ']<C-n>'
golden jump_forward_cleared multi.fa ']]<C-o>}<C-n>'
# the matches pane: a row per strand of a palindromic site, before the cursor too,
# and j/k load more hits past either end
golden matches_palindrome lambda.fa.gz '/GATC<CR>nnn<Tab><Tab>z'
golden matches_scroll_down lambda.fa.gz '/GATC<CR><Tab><Tab>z300j'
golden matches_scroll_up lambda.fa.gz ':NC_001416.1:40000<CR>/GATC<CR><Tab><Tab>z300k'
# export and screen pictures: the message (the files are checked in ui_export.sh)
golden export_sa_pane multi.fa 'Ex.bed<CR>'
golden export_prompt multi.fa '<Tab>E'
# 80x24: cut rows end in a mark; a teaching title is cut before the step counter
golden small_80x24 multi.fa ':chr1:210<CR>' 80x24
golden teach_title_80x24 multi.fa 'T' 80x24

# The first screen's message (index ready, saved FILE.rvx) leaves the key hint on
# screen: after it at 80 columns (the short one when only it fits), in the status
# bar when the message fills the line
cp "$T/multi.fa" "$T/hint.fa"
last=$(cd "$T" && REPVIEW_NO_SAVE= "$REPVIEW" --keys '' --dump --wait-index --size 80x24 hint.fa | tail -2 | tr '\n' '|')
[[ "$last" == *"F1 help"* && "$last" == *"|"*"index ready: "* ]] && ok first_screen_keeps_hint || bad first_screen_keeps_hint "[$last]"
last=$(cd "$T" && "$REPVIEW" --keys '' --dump --wait-index --size 80x24 hint.fa | tail -1)
[[ "$last" == "index loaded from hint.fa.rvx"*"  F1 help"* ]] && ok second_screen_keeps_hint || bad second_screen_keeps_hint "[$last]"
last=$(cd "$T" && "$REPVIEW" --keys '' --dump --wait-index --size 40x24 multi.fa | tail -2 | tr '\n' '|')
[[ "$last" == *"F1 help  index ready|index ready: "* ]] && ok narrow_screen_hint_in_status || bad narrow_screen_hint_in_status "[$last]"

# Without --wait-index the sequence is on the first screen (faidx), index or not.
out=$(cd "$T" && "$REPVIEW" --keys '' --dump lambda.fa.gz)
grep -q '^> *1 GGGCGGCGAC' <<<"$out" && ok first_screen_without_index || bad first_screen_without_index "$(head -c 300 <<<"$out")"

# Standard input is read in the background, like gzip.
out=$(cd "$T" && "$REPVIEW" --keys '' --dump --wait-index - <multi.fa)
grep -q 'chr1 (1/3)' <<<"$out" && ok stdin_input || bad stdin_input "$(head -c 300 <<<"$out")"

# The bundled sample opens when no FILE is given.
out=$("$REPVIEW" --keys '' --dump)
grep -q 'NC_001416.1 (1/1)' <<<"$out" && ok bundled_sample || bad bundled_sample "$(head -c 300 <<<"$out")"

# Scripted mode quits cleanly on q; errors are one line with the right status.
expect_exit quit_key 0 "$REPVIEW" --keys 'q' --dump "$T/multi.fa"
expect_exit missing_file 1 "$REPVIEW" --keys '' --dump "$T/nope.fa"
expect_exit bad_option 2 "$REPVIEW" --frobnicate
expect_exit bad_key_name 2 "$REPVIEW" --keys '<Nope>' --dump "$T/multi.fa"
expect_exit keys_without_dump 2 "$REPVIEW" --keys 'j' "$T/multi.fa"
expect_exit bad_size 2 "$REPVIEW" --keys '' --dump --size 5x5 "$T/multi.fa"
expect_exit no_terminal 1 env TERM=xterm "$REPVIEW" "$T/multi.fa"
# TERM=dumb has no cursor addressing: the first screen is printed as text
out=$(cd "$T" && TERM=dumb COLUMNS=70 LINES=12 "$REPVIEW" multi.fa)
expect_eq dumb_terminal_prints_screen "$(sed -n 3p <<<"$out" | cut -c1-16)|$(wc -l <<<"$out")" ">   1 CTTAAGGGTT|12"

# The matches pane and `repview find` list the same hits
screen=$(cd "$T" && "$REPVIEW" --keys '/CACA<CR><Tab><Tab>z' --dump --wait-index --size 100x80 multi.fa |
    sed -nE 's/^[ >]([^ :]+):([0-9,]+) +([+-]) +([0-9]+)$/\1 \2 \3 \4/p' | tr -d , | awk '{ print $1, $2 - 1, $3, $4 }')
cli=$("$REPVIEW" find "$T/multi.fa" CACA | awk -F'\t' '!/^#/ { print $1, $2, $6, $5 }')
if [ -z "$screen" ]; then bad matches_pane_matches_cli "no hits read from the screen"; else expect_eq matches_pane_matches_cli "$screen" "$cli"; fi

# Paged with j past its first page, the matches pane holds every hit of a
# palindrome (both strands of each site), as `repview find` lists them
screen=$(cd "$T" && "$REPVIEW" --keys '/GATC<CR><Tab><Tab>z300j' --dump --wait-index --size 100x600 lambda.fa.gz |
    sed -nE 's/^[ >]([^ :]+):([0-9,]+) +([+-]) +([0-9]+)$/\1 \2 \3 \4/p' | tr -d , | awk '{ print $1, $2 - 1, $3, $4 }')
cli=$("$REPVIEW" find "$T/lambda.fa.gz" GATC | awk -F'\t' '!/^#/ { print $1, $2, $6, $5 }')
[ "$(wc -l <<<"$cli")" -gt 200 ] && expect_eq matches_pane_pages_every_hit "$screen" "$cli" ||
    bad matches_pane_pages_every_hit "too few hits for a second page"

# Every run in the tandem pane is one that `repview tandem` lists
if "$REPVIEW" tandem --help >/dev/null 2>&1; then
    screen=$(cd "$T" && "$REPVIEW" --keys ':chr1:520<CR><Tab><Tab><Tab>z' --dump --wait-index --size 100x60 multi.fa |
        sed -nE 's/^[ >][ *]([^ :]+):([0-9,]+) +([0-9]+) +([0-9]+) +([0-9.]+) ([A-Z]+)$/\1 \2 \3 \4 \5 \6/p' | tr -d , |
        awk '{ print $1, $2 - 1, $2 - 1 + $3, $4, $5, $6 }' | sort -u)
    cli=$("$REPVIEW" tandem "$T/multi.fa" | awk -F'\t' '!/^#/ { print $1, $2, $3, $4, $5, $6 }' | sort -u)
    extra=$(comm -23 <(printf '%s\n' "$screen") <(printf '%s\n' "$cli"))
    if [ -z "$screen" ]; then bad tandem_pane_matches_cli "no runs read from the screen"
    else expect_eq tandem_pane_matches_cli "$extra" ""; fi
fi

# The pairs pane and `repview pairs --covering` give the same pairs
if "$REPVIEW" pairs --help >/dev/null 2>&1; then
    agree=1
    for pos in chr1:210 chr1:230 chr2:100 chr1:520; do
        n_screen=$(cd "$T" && "$REPVIEW" --keys ":$pos<CR><S-Tab>z" --dump --wait-index --size 100x60 multi.fa |
            grep -cE '^[ >] +[0-9]+  (->|<-) ')
        min=$(cd "$T" && "$REPVIEW" --keys ":$pos<CR><S-Tab>z" --dump --wait-index multi.fa | grep -oE 'of [0-9]+\+ bp' | grep -oE '[0-9]+')
        n_cli=$("$REPVIEW" pairs -l "$min" --covering "$pos" "$T/multi.fa" | grep -vc '^#')
        [ "$n_screen" = "$n_cli" ] || { agree=0; bad pairs_pane_matches_cli "$pos: pane $n_screen pairs, cli $n_cli (-l $min)"; }
    done
    [ $agree = 1 ] && ok pairs_pane_matches_cli
fi

# The LR pane and `repview lr` give the same LRs (one producer, two consumers).
agree=1
for pos in chr1:1 chr1:63 chr1:210 chr1:259 chr1:300 chr1:400 chr1:520 chr2:5 chr2:100 chrM:35; do
    screen=$(cd "$T" && "$REPVIEW" --keys ":$pos<CR><Tab>z" --dump --wait-index --size 100x60 multi.fa |
        sed -nE 's/^[ >]LR [0-9]+: ([^:]+):([0-9,]+)-([0-9,]+) .*/\1 \2 \3/p' | tr -d , |
        awk '{ print $1, $2 - 1, $3 }')
    cli=$("$REPVIEW" lr "$T/multi.fa" "$pos-${pos##*:}" | awk -F'\t' '!/^#/ { print $1, $3, $4 }')
    if [ "$screen" != "$cli" ]; then agree=0; bad lr_pane_matches_cli "$pos: pane [$screen] cli [$cli]"; fi
done
[ $agree = 1 ] && ok lr_pane_matches_cli

# FILE.rvx is used when it matches, and reported (then rebuilt in memory) when stale.
cp "$T/multi.fa" "$T/withidx.fa"
"$REPVIEW" index --quiet "$T/withidx.fa"
out=$(cd "$T" && "$REPVIEW" --keys '' --dump --wait-index withidx.fa)
grep -q 'index loaded from withidx.fa.rvx' <<<"$out" && ok rvx_used || bad rvx_used "$(tail -2 <<<"$out")"
grep -q 'LR 4' <<<"$out" && ok rvx_panes || bad rvx_panes "$(tail -2 <<<"$out")"
printf '>extra\nACGT\n' >>"$T/withidx.fa"
out=$(cd "$T" && "$REPVIEW" --keys '' --dump --wait-index withidx.fa)
grep -q 'building the index in memory' <<<"$out" && grep -q 'index ready' <<<"$out" && ok rvx_stale_rebuilt ||
    bad rvx_stale_rebuilt "$(tail -2 <<<"$out")"

# A motif wider than the tandem pane is cut to fit and ends in "..." (a Unicode
# terminal gets "…"); rows never run past the pane.
awk 'BEGIN { srand(7); s = ""; for (i = 0; i < 300; i++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
             u = ""; for (i = 0; i < 70; i++) u = u substr("ACGT", int(rand() * 4) + 1, 1)
             print ">long"; print s u u u s }' >"$T/longmotif.fa"
out=$(cd "$T" && "$REPVIEW" --keys ':long:330<CR>' --dump --wait-index --size 160x30 longmotif.fa 2>&1)
row=$(grep -oE ' 70 +3\.00 [ACGT.]+ ' <<<"$out" | head -1)
[[ "$row" =~ 3\.00\ [ACGT]+\.\.\.\ $ ]] && [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' <<<"$out")" -le 160 ] &&
    ok tandem_motif_ellipsis || bad tandem_motif_ellipsis "row: '$row'"
