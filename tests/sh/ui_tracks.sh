# ui_tracks.sh — annotation tracks in the explorer (--track, :track): each format drawn
# under the sequence (golden screens in tests/golden/tracks/, UPDATE_GOLDEN=1 rewrites
# them), the same screens from bgzipped copies read through their tabix/CSI index, the
# status line and the Tracks pane, Ctrl-F/Ctrl-B, a feature by name (REGION, :NAME, F,
# Tab completion), a click on a feature, malformed lines and unknown record names, bad
# --track arguments, a track far larger than the explorer's memory read through its
# index, and on a real (tmux) terminal the colours under --theme light and NO_COLOR.
source "$RV_TOP/tests/lib.sh"
G="$RV_TOP/tests/golden/tracks"
D="$RV_TOP/tests/data/tracks"
cp "$RV_TOP/tests/data/multi.fa" "$D"/* "$T/"
if command -v gt >/dev/null; then # the GFF3 drawn here is valid GFF3
    gt gff3validator "$T/genes.gff3" >/dev/null 2>&1 && ok tracks_gff3_valid || bad tracks_gff3_valid "gt gff3validator rejects genes.gff3"
fi

# Indexed copies (tabix and bgzip come with htslib): the screens must not change.
indexed=0
if command -v bgzip >/dev/null && command -v tabix >/dev/null; then
    mkdir -p "$T/gz"
    grep -v '^track' "$T/rmsk.bed" | sort -k1,1 -k2,2n | bgzip >"$T/gz/rmsk.bed.gz" && tabix -p bed "$T/gz/rmsk.bed.gz"
    (grep '^#' "$T/genes.gff3"; grep -v '^#' "$T/genes.gff3" | sort -k1,1 -k4,4n) | bgzip >"$T/gz/genes.gff3.gz" && tabix -p gff "$T/gz/genes.gff3.gz"
    bgzip -c "$T/vars.vcf" >"$T/gz/vars.vcf.gz" && tabix -p vcf "$T/gz/vars.vcf.gz"
    grep -v '^track' "$T/cov.bedgraph" | bgzip >"$T/gz/cov.bedgraph.gz" && tabix -p bed "$T/gz/cov.bedgraph.gz"
    tabix -C -p vcf -f "$T/gz/vars.vcf.gz" && rm -f "$T/gz/vars.vcf.gz.tbi" # CSI as well as tabix
    indexed=1
fi

# The screen down to the panes, and the status and message lines: the panes of the
# repeat engines have golden screens of their own (ui_golden.sh).
top_and_status() {
    awk '{ line[NR] = $0 } /^[-*] Suffix array/ && !p { p = NR }
         END { for (i = 1; i <= NR; i++) if (!p || i < p || i >= NR - 1) print line[i] }'
}

# dump NAME KEYS ARGS...: the final screen in $T/NAME.out (exit status checked, stderr empty)
dump() {
    local name=$1 keys=$2
    shift 2
    (cd "$T" && "$REPVIEW" --keys "$keys" --dump --wait-index --size 100x30 "$@" >"$T/$name.out" 2>"$T/err")
    local rc=$?
    if [ $rc -ne 0 ] || [ -s "$T/err" ]; then bad "tracks_$name" "exit $rc, stderr: $(head -c 200 "$T/err")"; return 1; fi
}

# golden NAME KEYS ARGS...
golden() {
    local name=$1
    dump "$@" || return
    top_and_status <"$T/$name.out" >"$T/$name.txt"
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then mkdir -p "$G" && cp "$T/$name.txt" "$G/$name.txt"; ok "tracks_$name (updated)"; return; fi
    if diff -u "$G/$name.txt" "$T/$name.txt" >"$T/diff" 2>&1; then ok "tracks_$name"
    else bad "tracks_$name" "screen differs: $(head -c 600 "$T/diff" | tr '\n' '|')"; fi
}

golden gff_vcf_bedgraph '' --track genes.gff3 --track vars.vcf --track cov.bedgraph multi.fa
golden bed12_gtf_bed6 '' --track tx.bed --track genes.gtf --track rmsk.bed multi.fa chr2
golden region_feature '' --track genes.gff3 multi.fa BETA
golden next_prev '<C-f><C-f><C-f><C-b>' --track genes.gff3 --track rmsk.bed multi.fa
golden next_other_track '<C-t><C-f>' --track genes.gff3 --track rmsk.bed multi.fa
golden count_next '2<C-f>' --track vars.vcf multi.fa
golden pane '<S-Tab>z' --track genes.gff3 --track vars.vcf multi.fa
golden goto_name ':ALPHA-201<CR>' --track genes.gff3 multi.fa
golden find_key 'FBE<CR>' --track genes.gff3 multi.fa
golden complete ':ALP<Tab><CR>' --track genes.gff3 multi.fa
golden ambiguous ':AL<Tab><CR>' --track genes.gff3 multi.fa
golden command ':track rmsk.bed<CR>:chr1:455<CR>' multi.fa
golden command_bad ':track nowhere.bed<CR>' multi.fa
golden bad_position ':chr1:99999<CR>' --track genes.gff3 multi.fa
golden no_name ':NOPE<CR>' --track genes.gff3 --track vars.vcf multi.fa
golden malformed '' --track bad.bed multi.fa
# overlapping features side by side, on as many rows as they need (at most 3)
golden overlap '' --track overlap.bed --track rmsk.bed multi.fa
golden overlap_click '<click:22,6>' --track overlap.bed multi.fa
# a click on the first track row under the first line, 30 bases in (column 6 + 33)
golden click '<click:39,4>' --track genes.gff3 multi.fa
golden click_variant '<click:32,5>' --track genes.gff3 --track vars.vcf multi.fa

# The status line describes the feature under the cursor: type, name, ID, place, attributes
dump status ':chr1:605<CR>' --track genes.gff3 multi.fa &&
    expect_eq tracks_status_line "$(tail -2 "$T/status.out" | head -1 | grep -o 'genes: repeat_region ALUY ID=rep1 chr1:601-650  ID=rep1;Name=ALUY')" \
        "genes: repeat_region ALUY ID=rep1 chr1:601-650  ID=rep1;Name=ALUY"

# Read through the index, the screens are the same (the message line names the files)
if [ $indexed = 1 ]; then
    for c in "gff_vcf_bedgraph||--track gz/genes.gff3.gz --track gz/vars.vcf.gz --track gz/cov.bedgraph.gz multi.fa" \
             "next_prev|<C-f><C-f><C-f><C-b>|--track gz/genes.gff3.gz --track gz/rmsk.bed.gz multi.fa" \
             "goto_name|:ALPHA-201<CR>|--track gz/genes.gff3.gz multi.fa" \
             "complete|:ALP<Tab><CR>|--track gz/genes.gff3.gz multi.fa" \
             "count_next|2<C-f>|--track gz/vars.vcf.gz multi.fa" \
             "region_feature||--track gz/genes.gff3.gz multi.fa BETA" \
             "no_name|:NOPE<CR>|--track gz/genes.gff3.gz --track gz/vars.vcf.gz multi.fa"; do
        IFS='|' read -r name keys args <<<"$c"
        # shellcheck disable=SC2086
        dump "gz_$name" "$keys" $args || continue
        expect_eq "tracks_indexed_$name" "$(top_and_status <"$T/gz_$name.out" | head -n -1)" "$(head -n -1 "$G/$name.txt")"
    done
    dump gz_message '' --track gz/genes.gff3.gz --track gz/vars.vcf.gz multi.fa &&
        expect_eq tracks_indexed_message "$(tail -1 "$T/gz_message.out" | sed -E 's/ {2,}F1 help.*$//')" "tracks genes (GFF3, by region), vars (VCF, by region)"
fi

# Bad arguments: one line, exit 1 for a file that cannot be read, 2 for a name of no format
expect_exit tracks_missing_file 1 "$REPVIEW" --keys '' --dump --track "$T/nowhere.bed" "$T/multi.fa"
expect_exit tracks_unknown_format 2 "$REPVIEW" --keys '' --dump --track "$T/multi.fa" "$T/multi.fa"

# A track far larger than the explorer's memory, read through its index: 1,000,000
# features over a 1 Mbp record: the explorer's peak memory stays below the size of the
# uncompressed file (x cancels the index build, which is not needed here).
if [ $indexed = 1 ]; then
    awk 'BEGIN { srand(3); print ">big"; for (i = 0; i < 1000000; i += 100) { s = ""; for (j = 0; j < 100; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1); print s } }' >"$T/big.fa"
    awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "big\t%d\t%d\tf%d\t0\t%s\n", i, i + 8, i, i % 2 ? "+" : "-" }' >"$T/big.bed"
    bgzip -@2 -c "$T/big.bed" >"$T/big.bed.gz" && tabix -p bed "$T/big.bed.gz"
    plain=$(stat -c %s "$T/big.bed")
    rm -f "$T/big.bed"
    rss=$(cd "$T" && python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open("big.out", "w"), stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 if r.returncode == 0 else -1)' \
        "$REPVIEW" --keys 'x:big:500,001<CR><C-f><C-f><C-b>:big:999,989<CR><C-f>' --dump --size 100x30 --track big.bed.gz big.fa)
    tail -2 "$T/big.out" | grep -q 'big: f999989 big:999,990' && grep -q '^big  *##########' "$T/big.out" && ok tracks_big_indexed_drawn ||
        bad tracks_big_indexed_drawn "no f999989 on the screen: $(tail -2 "$T/big.out" | tr '\n' '|')"
    # a name: the whole file read once for the names (on demand, not at the start)
    (cd "$T" && "$REPVIEW" --keys 'x:f999990<CR>' --dump --size 100x30 --track big.bed.gz big.fa >big_name.out 2>&1)
    grep -q 'f999990 big:999,991-999,998' "$T/big_name.out" && ok tracks_big_indexed_name ||
        bad tracks_big_indexed_name "no f999990 on the screen: $(tail -2 "$T/big_name.out" | tr '\n' '|')"
    if grep -qa __asan_init "$REPVIEW"; then ok "tracks_big_indexed_memory (a sanitizer build: not measured)"
    elif [ "$rss" -gt 0 ] && [ "$rss" -lt "$plain" ]; then ok tracks_big_indexed_memory
    else bad tracks_big_indexed_memory "peak memory $rss bytes for a track of $plain bytes"; fi
fi

# A real terminal: the track row in colour, in the light theme's colours, without colour
# under NO_COLOR (the characters still there)
if command -v tmux >/dev/null; then
    sock="$T/tmux.sock"
    tm() { tmux -S "$sock" "$@"; }
    trap 'tm kill-server 2>/dev/null' EXIT
    tm new-session -d -s keep 'sleep 300'
    # row NAME ENV THEME: the track row of the first line, with its escape sequences
    row() {
        local name=$1 env=$2 theme=$3 i
        tm new-session -d -x 100 -y 30 -s "$name" \
            "cd '$T' && $env TERM=xterm-256color LANG=C '$REPVIEW' --no-save $theme --track rmsk.bed --track genes.gff3 multi.fa chr1:455; sleep 30"
        for ((i = 0; i < 100; i++)); do tm capture-pane -p -t "$name" | grep -q '^rmsk' && break; sleep 0.05; done
        tm capture-pane -p -e -t "$name" | grep -a '(CA)n' | head -1
        tm kill-session -t "$name"
    }
    dark=$(row dark '' '') light=$(row light '' '--theme light') plain=$(row plain NO_COLOR=1 '')
    # Ctrl-F and F from the terminal's keyboard
    tm new-session -d -x 100 -y 30 -s keys "cd '$T' && TERM=xterm-256color '$REPVIEW' --no-save --track genes.gff3 multi.fa; sleep 30"
    for ((i = 0; i < 200; i++)); do tm capture-pane -p -t keys | grep -q 'index ready' && break; sleep 0.05; done
    tm send-keys -t keys C-f
    for ((i = 0; i < 200; i++)); do tm capture-pane -p -t keys | grep -q '^genes: gene ALPHA' && break; sleep 0.05; done
    tm capture-pane -p -t keys | grep -q '^genes: gene ALPHA' && ok tracks_tmux_ctrl_f || bad tracks_tmux_ctrl_f "no ALPHA after Ctrl-F"
    tm send-keys -t keys F BET Enter
    for ((i = 0; i < 200; i++)); do tm capture-pane -p -t keys | grep -q '^genes: gene BETA' && break; sleep 0.05; done
    tm capture-pane -p -t keys | grep -q '^genes: gene BETA' && ok tracks_tmux_find || bad tracks_tmux_find "no BETA after F BET Enter"
    tm kill-session -t keys
    grep -q '(CA)n' <<<"$plain" && grep -q '##########' <<<"$plain" && ok tracks_tmux_drawn ||
        bad tracks_tmux_drawn "no (CA)n feature in the row: $(tr -d '\033' <<<"$plain" | head -c 200)"
    [ "$dark" != "$light" ] && ok tracks_tmux_light_theme || bad tracks_tmux_light_theme "the same escapes in both themes"
    grep -q $'\e\\[[0-9;]*3[0-7]m\\|\e\\[[0-9;]*38;5' <<<"$dark" && ok tracks_tmux_colour || bad tracks_tmux_colour "no colour in the track row"
    grep -q $'\e\\[[0-9;]*3[0-7]m\\|\e\\[[0-9;]*38;5' <<<"$plain" && bad tracks_tmux_no_color "colour under NO_COLOR" || ok tracks_tmux_no_color
fi
