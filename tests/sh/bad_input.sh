# bad_input.sh — every kind of bad or odd input gets correct handling or one clear
# error (exit 1, one stderr line), never a crash or a hang.
. "$RV_TOP/tests/lib.sh"
R="timeout 30 $REPVIEW"
cd "${T:?}" || exit 1

expect_exit missing_file 1 $R stats missing.fa
mkdir adir; expect_exit directory 1 $R stats adir
: > empty.fa; expect_exit empty_file 1 $R stats empty.fa
grep -q 'empty file' "$T/err" && ok empty_file_message || bad empty_file_message "$(cat "$T/err")"
head -c 4000 /dev/urandom > junk.bin; printf 'xx' | cat - junk.bin > junk2.bin
expect_exit binary_junk 1 $R stats junk2.bin
printf '>a\nAC\001\002GT\n' > ctl.fa; expect_exit binary_in_sequence 1 $R stats ctl.fa
grep -q 'binary data' "$T/err" && ok binary_message || bad binary_message "$(cat "$T/err")"
zcat "$RV_TOP/samples/lambda.fa.gz" | gzip -c > lam.gz
head -c 8000 lam.gz > trunc.gz; expect_exit truncated_gzip 1 $R stats trunc.gz
grep -q 'truncated or corrupt' "$T/err" && ok truncated_gzip_message || bad truncated_gzip_message "$(cat "$T/err")"
head -c 8000 "$RV_TOP/samples/lambda.fa.gz" > trunc.bgz; expect_exit truncated_bgzip 1 $R stats trunc.bgz

# CRLF line ends: same records, lengths and index as LF
printf '>a\r\nACGTNNNN\r\nacgt\r\n>b\r\nGGGG\r\n' > crlf.fa
printf '>a\nACGTNNNN\nacgt\n>b\nGGGG\n' > lf.fa
expect_eq crlf_stats "$($R stats crlf.fa | grep -v '^# \(file\|index:\)')" "$($R stats lf.fa | grep -v '^# \(file\|index:\)')"
expect_eq crlf_sa "$($R sa crlf.fa)" "$($R sa lf.fa)"

# zero-length records are kept and listed, and contribute nothing
printf '>z\n>a\nACGT\n>e\n' > zero.fa
expect_eq zero_length_records "$($R stats zero.fa | grep -v '^#' | cut -f1,2 | tr '\n' ' ')" "z	0 a	4 e	0 "
expect_exit zero_length_sa 0 $R sa zero.fa

# a 1 MB line
awk 'BEGIN{srand(7); printf ">big\n"; for(i=0;i<1000000;i++) printf "%s", substr("ACGT", int(rand()*4)+1, 1); printf "\n"}' > long.fa
expect_eq long_line_length "$($R stats long.fa | grep '^big' | cut -f2)" 1000000
expect_exit long_line_index 0 $R index --quiet long.fa

# duplicate names: a warning, both records kept, regions use the first
printf '>a\nACGT\n>a\nTTTT\n' > dup.fa
$R stats dup.fa >out 2>err
expect_eq duplicate_names_kept "$(grep -vc '^#' out)" 2
grep -q 'duplicate record name' err && ok duplicate_names_warned || bad duplicate_names_warned "$(cat err)"
expect_eq duplicate_names_region "$($R lce dup.fa a:1 a:1 2>/dev/null)" 4

# all-N records: an empty text indexes fine
printf '>n\nNNNNNNNN\n>m\nNNNN\n' > alln.fa
expect_exit all_n_index 0 $R index --quiet alln.fa
expect_eq all_n_sa "$($R sa alln.fa)" "#rank	sa	lcp	suffix"
expect_eq all_n_lce "$($R lce alln.fa n:1 m:1)" 0

# lower case only: matched case-insensitively, shown as read
printf '>l\nacgtacgt\n' > lower.fa; printf '>l\nACGTACGT\n' > upper.fa
expect_eq lower_case_lce "$($R lce lower.fa 1 5)" 4
expect_eq lower_case_shown "$($R sa lower.fa | awk '$2==0' | cut -f4)" acgtacgt
expect_eq lower_upper_same_sa "$($R sa lower.fa | cut -f1-3)" "$($R sa upper.fa | cut -f1-3)"

# protein input is detected; X and * break
printf '>p\nMKVLAAGXMKVLAAG*\n' > prot.fa
expect_eq protein_detected "$($R stats prot.fa | grep '^# alphabet' )" "# alphabet: protein (25 symbols)"
expect_eq protein_breaker_lce "$($R lce prot.fa 1 9)" 7

# FASTQ, stdin, forced alphabet, bad alphabet
printf '@r1\nACGT\n+\n@III\n@r2\nGG\n+\nII\n' > reads.fq
expect_eq fastq_records "$($R stats reads.fq | grep -v '^#' | cut -f1,2 | tr '\n' ' ')" "r1	4 r2	2 "
printf '@r1\nACGT\n+\nII\n' > badq.fq; expect_exit fastq_short_quality 1 $R stats badq.fq
expect_eq stdin_input "$(cat lf.fa | $R stats - | grep -v '^# \(file\|index\)')" "$($R stats lf.fa | grep -v '^# \(file\|index\)')"
expect_eq forced_text_alphabet "$($R stats --alphabet text lf.fa | grep '^# alphabet' | cut -d' ' -f3)" text
expect_exit bad_alphabet 2 $R stats --alphabet rna lf.fa
expect_exit no_header 1 $R stats <(printf 'ACGT\n')

# a full disk is an error, not a success
printf '>a\nACGTACGT\n' > w.fa
if [ -w /dev/full ]; then
    for c in "find w.fa ACG" "sa w.fa" "stats w.fa"; do
        $R $c >/dev/full 2>"$T/err"; rc=$?
        n="write_error_${c%% *}"
        [ $rc -eq 1 ] && grep -q '^repview: .*write error' "$T/err" && ok "$n" || bad "$n" "exit $rc: $(cat "$T/err")"
    done
else echo "SKIP write_error: no /dev/full"; fi

# positions are 1-based: 0 and negative starts are errors, not position 1
printf '>chr1\nACGTACGTAC\n>chr2\nACGTAC\n' > pos.fa
expect_exit position_zero 2 $R lce pos.fa chr1:0 chr1:1
expect_exit position_negative 2 $R lce pos.fa chr1:-3 chr1:1
expect_exit region_zero 2 $R lr pos.fa chr1:0
expect_eq position_one "$($R lce pos.fa chr1:1 chr2:1)" 6
# a region or position that does not fit the input is a usage error (exit 2), one line
printf '>chr1\nACGTNNACGT\n' > brk.fa
for c in "sa --around chr1:5 brk.fa" "tandem brk.fa chr9" "pairs -l 2 --within chr1:8-2 brk.fa" "lr brk.fa chr1:99"; do
    $R $c >/dev/null 2>"$T/err"; rc=$?
    n="arg_error_$(echo "${c%% *}" | tr -c 'a-z\n' _)"
    [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^repview: ' "$T/err" && ok "$n" || bad "$n" "exit $rc: $(cat "$T/err")"
done

# the sa column never repeats: a record-end row has no position of its own
expect_eq sa_column_unique "$($R sa --rows 0 pos.fa | cut -f2 | grep -v '^sa$' | sort | uniq -d)" ""
expect_eq sa_record_end_dot "$($R sa --rows 0 pos.fa | awk -F'\t' '$4 ~ /^\$/ {print $2}')" "."

# a record without a name cannot be named in a region or written as BED
printf '>\nACGT\n' > noname.fa
expect_exit record_without_name 1 $R stats noname.fa

# --gpu without a usable GPU is an error for the explorer too
if ! $REPVIEW index --gpu --quiet -o gpu.rvx w.fa 2>/dev/null; then
    expect_exit explorer_gpu_missing 1 $R --gpu --keys q --dump w.fa
fi
