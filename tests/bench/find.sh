#!/usr/bin/env bash
# tests/bench/find.sh — `repview find` against `seqkit locate` (same input, same
# patterns, same hits checked), and `repview overlap` throughput.
#   patterns: 10,000 of length 20 and 100 sampled from a 50 Mbp generated
#   chromosome (half reverse-complemented), exact and k=1; reads: 1,000,000 x 100 bp.
#   BENCH_QUICK=1: 1 Mbp, 1,000 patterns, 20,000 reads.
# seqkit runs with -F (its FM-index mode for many patterns) on SEQKIT_N patterns
# (all in quick mode; 1,000 exact / 200 with k=1 otherwise, since it is far
# slower); repview runs on all of them and again on seqkit's subset for the check.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:=build}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
GEN=${GEN:-$RV_BUILD/gen_chrom}
mkdir -p "$BENCH_DIR"
if [ -n "${BENCH_QUICK:-}" ] && [ "$BENCH_QUICK" != 0 ]; then
    LEN=1000000 NPAT=1000 NREADS=20000 SK_EXACT=1000 SK_K1=1000
else
    LEN=50000000 NPAT=10000 NREADS=1000000 SK_EXACT=1000 SK_K1=200
fi
command -v python3 >/dev/null || { echo "python3 is needed to sample patterns; skipped"; exit 0; }
chrom=$BENCH_DIR/chrom_dna_${LEN}_1.fa
[ -s "$chrom" ] || "$GEN" --kind dna "$LEN" 1 >"$chrom"
[ -s "$chrom" ] || { echo "no input: $GEN produced nothing"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_find.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# sample.py CHROM N LEN SEED KIND: FASTA patterns or FASTQ reads drawn from CHROM
cat >"$tmp/sample.py" <<'PY'
import random, sys
path, n, ln, seed, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
seq = "".join(l.strip() for l in open(path) if not l.startswith(">")).upper()
rnd, comp, out, i = random.Random(seed), str.maketrans("ACGT", "TGCA"), [], 0
while i < n:
    p = rnd.randrange(0, len(seq) - ln)
    s = seq[p:p + ln]
    if kind == "pat" and s.strip("ACGT"):
        continue                    # patterns never cross N gaps
    if rnd.random() < 0.5:
        s = s.translate(comp)[::-1]
    if kind == "read":              # ~1% substitutions: prefixes of all lengths
        s = "".join(c if rnd.random() > 0.01 else rnd.choice("ACGT") for c in s)
        out.append("@r%d\n%s\n+\n%s\n" % (i, s, "I" * ln))
    else:
        out.append(">p%d\n%s\n" % (i, s))
    i += 1
sys.stdout.write("".join(out))
PY

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
rate() { echo "scale=0; $1 / $2" | bc 2>/dev/null || echo "-"; }

t0=$(now); $REPVIEW index --quiet "$chrom" >/dev/null; t1=$(now)
echo "input: $chrom ($LEN bp), index built in $(secs "$t0" "$t1") s (reused by every run below)"
t0=$(now); $REPVIEW find "$chrom" ACGTTGCAACGTTGCAACGTTGCA >/dev/null; t1=$(now)
echo "repview start-up + index load, included in every repview figure: $(secs "$t0" "$t1") s"
echo
printf '%-6s %-3s %-8s %14s %16s %8s %s\n' len k patterns repview_pat/s seqkit_pat/s ratio "same hits (seqkit subset)"
for L in 20 100; do
    python3 "$tmp/sample.py" "$chrom" "$NPAT" "$L" "$L" pat >"$tmp/p$L.fa"
    for k in 0 1; do
        t0=$(now); $REPVIEW find -k "$k" -f "$tmp/p$L.fa" "$chrom" >"$tmp/r.tsv"; t1=$(now)
        tr=$(secs "$t0" "$t1")
        ns=$([ "$k" = 0 ] && echo "$SK_EXACT" || echo "$SK_K1")
        [ "$ns" -gt "$NPAT" ] && ns=$NPAT
        head -n $((2 * ns)) "$tmp/p$L.fa" >"$tmp/sub.fa"
        $REPVIEW find -k "$k" -f "$tmp/sub.fa" "$chrom" | awk -F'\t' 'NR > 1 { print $1, $2, $3, $4, $6 }' | sort >"$tmp/a"
        same=no sk_rate=-
        if command -v seqkit >/dev/null; then
            t0=$(now); seqkit locate -F -i -m "$k" -j "$(nproc)" -f "$tmp/sub.fa" "$chrom" >"$tmp/s.tsv" 2>/dev/null; t1=$(now)
            sk_rate=$(rate "$ns" "$(secs "$t0" "$t1")")
            awk -F'\t' 'NR > 1 { print $1, $5 - 1, $6, $2, $4 }' "$tmp/s.tsv" | sort >"$tmp/b"
            cmp -s "$tmp/a" "$tmp/b" && same="yes, $(wc -l <"$tmp/a") hits" ||
                same="NO: $(wc -l <"$tmp/a") vs $(wc -l <"$tmp/b") hits"
        fi
        r_rate=$(rate "$NPAT" "$tr")
        ratio=$([ "$sk_rate" != - ] && echo "scale=1; $r_rate / $sk_rate" | bc || echo -)
        printf '%-6s %-3s %-8s %14s %16s %8s %s\n' "$L" "$k" "$NPAT" "$r_rate" "$sk_rate (n=$ns)" "${ratio}x" "$same"
    done
done

echo
python3 "$tmp/sample.py" "$chrom" "$NREADS" 100 9 read >"$tmp/reads.fq"
t0=$(now)
/usr/bin/time -f '%M' -o "$tmp/rss" $REPVIEW overlap -f "$tmp/reads.fq" "$chrom" >"$tmp/o.tsv"
t1=$(now)
to=$(secs "$t0" "$t1")
printf '%-8s %-10s %10s %12s %12s\n' reads read_len seconds reads/s peak_RSS_MB
printf '%-8s %-10s %10.2f %12s %12s\n' "$NREADS" 100 "$to" "$(rate "$NREADS" "$to")" "$(( $(cat "$tmp/rss") / 1024 ))"
echo "(overlap output: $(($(wc -l <"$tmp/o.tsv") - 1)) lines; index file size $(( $(stat -c %s "$chrom.rvx") >> 20 )) MB)"
