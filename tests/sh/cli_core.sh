# cli_core.sh — the core subcommands (sa, index, stats, lce) and the conventions every
# subcommand shares: help, --version, exit codes 0/1/2, one-line errors (repview(1)).
. "$RV_TOP/tests/lib.sh"

# ---- sa: the teaching table -------------------------------------------------------
"$REPVIEW" sa --string mississippi >"$T/mis.tsv"
expect_eq sa_mississippi_header "$(head -1 "$T/mis.tsv")" "$(printf '#rank\tsa\tlcp\tsuffix')"
expect_eq sa_mississippi_sa "$(awk -F'\t' '!/^#/ { printf "%s ", $2 }' "$T/mis.tsv")" "10 7 4 1 0 9 8 6 3 5 2 "
expect_eq sa_mississippi_lcp "$(awk -F'\t' '!/^#/ { printf "%s ", $3 }' "$T/mis.tsv")" "0 1 1 4 0 0 1 0 2 1 3 "
expect_eq sa_mississippi_rank "$(awk -F'\t' '!/^#/ { printf "%s ", $1 }' "$T/mis.tsv")" "0 1 2 3 4 5 6 7 8 9 10 "
expect_eq sa_mississippi_suffix "$(awk -F'\t' 'NR == 5 { print $4 }' "$T/mis.tsv")" "ississippi"

# sa_oracle STR: the table from `sort` of all suffixes (no breakers: byte order) and
# LCPs by scanning neighbours.
sa_oracle() {
    local s=$1 n=${#1} i
    for ((i = 0; i < n; i++)); do printf '%s\t%d\n' "${s:i}" "$i"; done | LC_ALL=C sort -t$'\t' -k1,1 |
        awk -F'\t' '{ h = 0; if (NR > 1) while (h < length(p) && substr(p, h + 1, 1) == substr($1, h + 1, 1)) h++
                      printf "%d\t%d\t%d\t%s\n", NR - 1, $2, h, substr($1, 1, 60); p = $1 }'
}
RANDOM=7
fails=0
for k in $(seq 1 25); do
    len=$((1 + RANDOM % 90)) s=""
    alpha=ACGT; [ $((k % 3)) -eq 0 ] && alpha=AC; [ $((k % 5)) -eq 0 ] && alpha=A
    for ((i = 0; i < len; i++)); do s+=${alpha:RANDOM % ${#alpha}:1}; done
    got=$("$REPVIEW" sa --string "$s" | tail -n +2)
    [ "$got" == "$(sa_oracle "$s")" ] || { fails=$((fails + 1)); bad sa_string_oracle "differs for $s"; break; }
done
[ $fails -eq 0 ] && ok sa_string_oracle

# breakers: LCP stops at N, and every N run is one '$' in the table
"$REPVIEW" sa --string ACGTNNNACGT >"$T/brk.tsv"
expect_eq sa_breaker_rows "$(grep -vc '^#' "$T/brk.tsv")" 9
expect_eq sa_breaker_lcp_stops "$(awk -F'\t' '!/^#/ && $3 > m { m = $3 } END { print m }' "$T/brk.tsv")" 4
expect_eq sa_breaker_shown "$(awk -F'\t' '$2 == 0 { print $4 }' "$T/brk.tsv")" 'ACGT$ACGT'

# ---- a small FASTA with records, breakers, soft-masking ---------------------------
printf '>a desc\nACGTNNNNacgt\n>b\n\n>c\nNNNN\n>d\nGGACGTACGTAC\n' >"$T/s.fa"
"$REPVIEW" stats "$T/s.fa" >"$T/stats.txt"
expect_eq stats_rows "$(grep -v '^#' "$T/stats.txt")" "$(printf 'a\t12\t8\t4\t1\t4\nb\t0\t0\t0\t0\t0\nc\t4\t0\t4\t1\t0\nd\t12\t12\t0\t0\t0')"
expect_eq stats_header "$(grep '^#name' "$T/stats.txt")" "$(printf '#name\tlength\tmatching\tbreakers\tbreaker_runs\tsoft_masked')"
grep -q '^# records: 4$' "$T/stats.txt" && ok stats_records || bad stats_records "$(head -4 "$T/stats.txt")"
grep -q "^# index: none" "$T/stats.txt" && ok stats_no_index || bad stats_no_index "$(grep index "$T/stats.txt")"
# counted in pieces of 4 MiB on several threads: breaker runs and records across the
# pieces' edges count as one pass over each record does (awk)
python3 - "$T/edges.fa" <<'PY'
import random, sys
random.seed(3)
p = 4 << 20
with open(sys.argv[1], 'w') as f:
    f.write('>r1\n' + 'ACGT' * ((p - 4) // 4) + 'A' + 'NNNNNNacgtRYN\n')
    f.write('>r2\nNN' + ''.join(random.choices('ACGTNnacgtRY', k=p + 50)) + 'N\n')
    f.write('>r3\nNNNNN\n>r4\n\n>r5\nACGTN\n')
PY
want=$(awk '/^>/ { if (n) print name, len, m, b, r, l; name = substr($1, 2); len = m = b = r = l = prev = 0; n = 1; next }
    { for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); len++; k = index("ACGTacgt", c) == 0
      m += !k; b += k; r += k && !prev; prev = k; l += (c ~ /[a-z]/) } }
    END { print name, len, m, b, r, l }' "$T/edges.fa")
for t in 1 3; do
    expect_eq "stats_pieces_t$t" "$(REPVIEW_NO_SAVE=1 "$REPVIEW" stats -t $t "$T/edges.fa" | grep -v '^#' | tr '\t' ' ')" "$want"
done

# ---- lce --------------------------------------------------------------------------
expect_eq lce_case_insensitive "$("$REPVIEW" lce "$T/s.fa" a:1 a:9)" 4        # ACGT / acgt, stops at N and record end
expect_eq lce_breaker_zero "$("$REPVIEW" lce "$T/s.fa" a:1 a:5)" 0
expect_eq lce_across_records "$("$REPVIEW" lce "$T/s.fa" a:1 d:3)" 4       # ACGT then N vs A
expect_eq lce_overlapping "$("$REPVIEW" lce "$T/s.fa" d:3 d:7)" 6          # ACGTAC(GTAC) period 4
expect_eq lce_same_position "$("$REPVIEW" lce "$T/s.fa" d:3 d:3)" 10
expect_eq lce_commas "$("$REPVIEW" lce "$T/s.fa" d:1,0 d:3)" 0
# lce against a scan on a generated chromosome with its own repeats
"$RV_BUILD/gen_chrom" 30k 4 >"$T/g.fa"
seqline=$(grep -v '^>' "$T/g.fa" | tr -d '\n' | tr acgt ACGT)
fails=0
for k in $(seq 1 30); do
    i=$((RANDOM % 30000 + 1)); j=$((RANDOM % 30000 + 1))
    [ $k -gt 20 ] && j=$(( (i + 171 * (k - 20)) % 30000 + 1 ))  # near the satellite period
    want=$(awk -v s="$seqline" -v i=$i -v j=$j 'BEGIN { h = 0
        while (i + h <= length(s) && j + h <= length(s) && substr(s, i + h, 1) == substr(s, j + h, 1) &&
               substr(s, i + h, 1) ~ /[ACGT]/) h++; print h }')
    got=$("$REPVIEW" lce "$T/g.fa" $i $j)
    [ "$got" == "$want" ] || { fails=1; bad lce_scan_oracle "lce $i $j = $got, want $want"; break; }
done
[ $fails -eq 0 ] && ok lce_scan_oracle

# ---- index ------------------------------------------------------------------------
expect_exit index_writes_default 0 "$REPVIEW" index "$T/s.fa"
[ -s "$T/s.fa.rvx" ] && ok index_file_exists || bad index_file_exists "no $T/s.fa.rvx"
"$REPVIEW" stats "$T/s.fa" | grep -q "^# index: .*up to date" && ok stats_index_up_to_date || bad stats_index_up_to_date "$("$REPVIEW" stats "$T/s.fa" | grep index)"
expect_eq lce_from_rvx "$("$REPVIEW" lce "$T/s.fa" a:1 a:9)" 4
expect_exit index_output_option 0 "$REPVIEW" index --quiet -o "$T/other.rvx" "$T/s.fa"
[ -s "$T/other.rvx" ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ] && ok index_quiet_output || bad index_quiet_output "missing file or output"
"$REPVIEW" index --timing --cpu -t 2 -o "$T/g.rvx" "$T/g.fa" 2>"$T/timing"
for st in read setup "suffix array" "LCP"; do
    grep -qP "^$st\t[0-9.]+$" "$T/timing" && ok "index_timing_${st// /_}" || bad "index_timing_${st// /_}" "$(cat "$T/timing")"
done
"$REPVIEW" sa --rows 5 "$T/g.fa" >"$T/sa_plain"
"$REPVIEW" index --quiet "$T/g.fa"
"$REPVIEW" sa --rows 5 "$T/g.fa" >"$T/sa_rvx"
cmp -s "$T/sa_plain" "$T/sa_rvx" && ok sa_same_with_rvx || bad sa_same_with_rvx "table differs with the index file"
# a truncated index file: one line on stderr, rebuilt, same answer
head -c 200 "$T/g.fa.rvx" >"$T/trunc" && cat "$T/trunc" >"$T/g.fa.rvx"
"$REPVIEW" sa --rows 5 "$T/g.fa" >"$T/sa_trunc" 2>"$T/err"
cmp -s "$T/sa_plain" "$T/sa_trunc" && ok sa_after_truncated_rvx || bad sa_after_truncated_rvx "answer differs"
expect_eq rvx_truncated_one_line "$(wc -l <"$T/err") $(grep -c '^repview: ' "$T/err")" "1 1"
# a changed input makes the index stale
sleep 0.01; printf '>e\nACGT\n' >>"$T/s.fa"
"$REPVIEW" stats "$T/s.fa" | grep -q "up to date" && bad stats_stale_index "still up to date" || ok stats_stale_index

# ---- help, version, exit codes, one-line errors ----------------------------------
"$REPVIEW" --version >"$T/ver"; rc=$?
expect_eq version_exit "$rc" 0
head -1 "$T/ver" | grep -qE '^repview [0-9]+\.[0-9]+\.[0-9]+' && ok version_first_line || bad version_first_line "$(head -1 "$T/ver")"
grep -qE '^cuda: (yes|no)$' "$T/ver" && ok version_cuda_line || bad version_cuda_line "$(cat "$T/ver")"
grep -q '^htslib: ' "$T/ver" && grep -q '^libdivsufsort: ' "$T/ver" && ok version_libs || bad version_libs "$(cat "$T/ver")"
expect_eq version_per_command "$("$REPVIEW" sa --version)" "$(cat "$T/ver")"
"$REPVIEW" --help >"$T/help"; rc=$?
[ $rc -eq 0 ] && grep -q '^  index ' "$T/help" && grep -q '^  lce ' "$T/help" && ok help_lists_commands || bad help_lists_commands "rc $rc"
for cmd in index stats sa lce; do
    "$REPVIEW" $cmd --help >"$T/h" 2>"$T/e"; rc=$?
    [ $rc -eq 0 ] && head -1 "$T/h" | grep -q "^Usage: repview $cmd" && [ ! -s "$T/e" ] && ok help_$cmd || bad help_$cmd "rc $rc: $(head -1 "$T/h")"
done

expect_exit usage_sa_no_args 2 "$REPVIEW" sa
expect_exit usage_sa_both 2 "$REPVIEW" sa --string ACGT "$T/s.fa"
expect_exit usage_sa_bad_rows 2 "$REPVIEW" sa --rows many "$T/s.fa"
expect_exit usage_index_bad_option 2 "$REPVIEW" index --bogus "$T/s.fa"
expect_exit usage_index_two_files 2 "$REPVIEW" index "$T/s.fa" "$T/s.fa"
expect_exit usage_index_stdin_needs_o 2 "$REPVIEW" index -
expect_exit usage_stats_no_file 2 "$REPVIEW" stats
expect_exit usage_lce_missing_pos 2 "$REPVIEW" lce "$T/s.fa" a:1
expect_exit usage_bad_threads 2 "$REPVIEW" stats -t x "$T/s.fa"
# a count starts with a digit (strtoull would skip a blank and wrap a sign)
expect_exit usage_threads_negative 2 "$REPVIEW" stats -t -1 "$T/s.fa"
expect_exit usage_threads_blank 2 "$REPVIEW" stats -t ' 2' "$T/s.fa"
expect_exit usage_threads_plus 2 "$REPVIEW" stats -t +2 "$T/s.fa"
expect_exit usage_bad_alphabet 2 "$REPVIEW" stats --alphabet rna "$T/s.fa"

expect_exit data_missing_file 1 "$REPVIEW" stats "$T/nope.fa"
expect_exit data_directory 1 "$REPVIEW" stats "$T"
printf 'not a fasta\n' >"$T/bad.fa"
expect_exit data_not_fasta 1 "$REPVIEW" stats "$T/bad.fa"
: >"$T/empty.fa"
expect_exit data_empty_file 1 "$REPVIEW" index "$T/empty.fa"
rm -f "$T/s.fa.rvx"  # these check the error line alone, without an index report
expect_exit usage_lce_unknown_record 2 "$REPVIEW" lce "$T/s.fa" zz:1 a:1
expect_exit usage_lce_beyond_end 2 "$REPVIEW" lce "$T/s.fa" a:1 a:99
expect_exit usage_lce_ambiguous_pos 2 "$REPVIEW" lce "$T/s.fa" 1 2
expect_exit data_index_unwritable 1 "$REPVIEW" index -o "$T/nodir/x.rvx" "$T/s.fa"
if grep -q '^cuda: no' "$T/ver"; then
    expect_exit data_gpu_without_cuda 1 "$REPVIEW" sa --gpu --string ACGT
fi
# standard input
expect_eq stdin_stats "$(printf '>x\nACGT\n' | "$REPVIEW" stats - | grep -v '^#')" "$(printf 'x\t4\t4\t0\t0\t0')"
rm -rf "$T"
