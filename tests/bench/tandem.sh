#!/usr/bin/env bash
# tests/bench/tandem.sh — `repview tandem` (exact runs, Lyndon roots) beside TRF on
# the same generated chromosome (10 and 50 Mbp; BENCH_QUICK=1: 1 and 2 Mbp), on two
# human regions, on four real bacterial genomes and on the planted benchmark.
# Rows, measured side by side in this run:
#   rvx t=N     FILE.rvx present (index saved beforehand): open + all runs + output
#   mem t=2     no index file: SA/ISA/LCP built in memory first, then the runs
#   trf         trf FILE 2 7 7 80 10 50 500 -h -ngs (its default-like parameters)
#   apx t=2     tandem --approx -t 2 (it reads the text alone).  Loci = lines; then
#               the recall of TRF's loci (period <= 500, score >= 50) and the
#               count ratio
# Columns: runs_s = seconds computing every run (`--timing`), wall = whole command,
# rss_MB = peak memory, loci = lines printed (repview: default filter, >= 10 bp),
# Mruns/s = all runs / runs_s ("stored": the runs come from FILE.rvx, which
# `repview index` writes with them), x_trf = trf wall / this wall.  The last line gives
# the agreement: TRF loci (period <= 6, >= 95% identity) that overlap a run of ours.
set -u
: "${REPVIEW:?run through tests/bench/run}" "${RV_BUILD:=build}"
BENCH_DIR=${BENCH_DIR:-build/benchdata}
mkdir -p "$BENCH_DIR"
if [ "${BENCH_QUICK:-0}" != 0 ]; then sizes="1000000 2000000"; else sizes="10000000 50000000"; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_tandem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
have_trf=0
command -v trf >/dev/null 2>&1 && have_trf=1

# timed [--any-status] OUT CMD...: runs CMD (stdout to OUT, stderr to $tmp/err),
# prints "wall rss_MB".  trf -ngs exits 253 even when it worked: --any-status.
timed() {
    local any=0 out t0 t1 rc
    [ "$1" = --any-status ] && { any=1; shift; }
    out=$1; shift
    t0=$(date +%s.%N)
    /usr/bin/time -v -o "$tmp/time" "$@" >"$out" 2>"$tmp/err"; rc=$?
    [ $rc = 0 ] || [ $any = 1 ] || { echo "failed: $*: $(head -c 200 "$tmp/err")" >&2; return 1; }
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc) $(awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$tmp/time")"
}

# overlap_hits A B: "hits total": intervals of B (start end, 0-based) that overlap one
# of A; both sorted by start, so a prefix maximum of A's ends answers each in O(log)
overlap_hits() {
    awk 'NR == FNR { s[++n] = $1; m = $2 > m ? $2 : m; pm[n] = m; next }
         { t++; lo = 0; hi = n
           while (lo < hi) { mid = int((lo + hi + 1) / 2); if (s[mid] < $2) lo = mid; else hi = mid - 1 }
           if (lo > 0 && pm[lo] > $1) c++ }
         END { print c + 0, t + 0 }' "$1" "$2"
}

printf '%-9s %-8s %7s %7s %7s %9s %8s %6s\n' size row runs_s wall rss_MB loci Mruns/s x_trf
for len in $sizes; do
    fa="$BENCH_DIR/chrom_dna_${len}_1.fa"
    [ -s "$fa" ] || "$RV_BUILD/gen_chrom" --kind dna "$len" 1 >"$fa" || exit 1
    [ -s "$fa" ] || { echo "no input: gen_chrom produced nothing"; exit 1; }
    ln -sf "$(cd "$(dirname "$fa")" && pwd)/$(basename "$fa")" "$tmp/c.fa"
    rm -f "$tmp/c.fa.rvx"
    trf_wall=
    if [ $have_trf = 1 ]; then
        read -r trf_wall trf_rss < <(cd "$tmp" && timed --any-status "$tmp/trf.txt" trf c.fa 2 7 7 80 10 50 500 -h -ngs)
    fi
    declare -A W=() R=() S=() L=() N=()
    read -r W[mem] R[mem] < <(timed "$tmp/ours.txt" "$REPVIEW" tandem --timing --cpu -t 2 "$tmp/c.fa")
    S[mem]=$(awk '$1 == "runs" { print $2 }' "$tmp/err"); N[mem]=$(awk '$1 == "count" { print $2 }' "$tmp/err")
    L[mem]=$(($(wc -l <"$tmp/ours.txt") - 1))
    "$REPVIEW" index --quiet --cpu "$tmp/c.fa" || exit 1
    for t in 1 2; do
        read -r W[t$t] R[t$t] < <(timed "$tmp/ours.txt" "$REPVIEW" tandem --timing -t $t "$tmp/c.fa")
        S[t$t]=$(awk '$1 == "runs" { print $2 }' "$tmp/err"); N[t$t]=$(awk '$1 == "count" { print $2 }' "$tmp/err")
        L[t$t]=$(($(wc -l <"$tmp/ours.txt") - 1))
    done
    for row in t1 t2 mem; do
        name=$([ $row = mem ] && echo "mem t=2" || echo "rvx t=${row#t}")
        x=$([ -n "$trf_wall" ] && echo "scale=1; $trf_wall / ${W[$row]}" | bc || echo -)
        # rvx rows read the runs that `repview index` stored: nothing to compute
        rate=$(awk -v n="${N[$row]}" -v s="${S[$row]}" 'BEGIN { if (s > 0) printf "%.1f", n / s / 1e6; else print "stored" }')
        printf '%-9s %-8s %7.2f %7.2f %7s %9s %8s %6s\n' "$len" "$name" "${S[$row]}" "${W[$row]}" \
            "${R[$row]}" "${L[$row]}" "$rate" "$x"
    done
    if [ $have_trf = 1 ]; then
        printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' "$len" trf - "$trf_wall" "$trf_rss" \
            "$(grep -c '^[0-9]' "$tmp/trf.txt")" - 1.0
        awk 'NR > 1 { print $2, $3 }' "$tmp/ours.txt" >"$tmp/all.txt" # default filter, >= 10 bp
        awk '/^[0-9]/ && $3 <= 6 && $6 >= 95 { print $1 - 1, $2 }' "$tmp/trf.txt" | sort -n -k1,1 >"$tmp/trf_sel.txt"
        read -r hit tot < <(overlap_hits "$tmp/all.txt" "$tmp/trf_sel.txt")
        echo "# $len: $hit of $tot TRF loci (period <= 6, >= 95% identity) overlap an exact run (>= 10 bp)"
        # approximate repeats: `tandem --approx` beside TRF, from the FASTA (it
        # reads no index); TRF loci of period <= 500, score >= 50; found = one
        # locus of ours overlaps at least half of it
        read -r aw ar < <(timed "$tmp/apx.txt" "$REPVIEW" tandem --approx --no-save --cpu -t 2 "$tmp/c.fa")
        awk '/^[0-9]/ && $3 <= 500 && $8 >= 50 { print $1 - 1, $2 }' "$tmp/trf.txt" >"$tmp/trf50.txt"
        read -r hit tot < <(awk 'NR == FNR { if (FNR > 1) { s[++n] = $2; e[n] = $3 } next }
            { t++; lo = 1; hi = n  # the last locus of ours starting before the TRF locus ends
              while (lo < hi) { m = int((lo + hi + 1) / 2); if (s[m] < $2) lo = m; else hi = m - 1 }
              for (i = lo; i >= 1 && i > lo - 64; i--) { a = s[i] > $1 ? s[i] : $1; b = e[i] < $2 ? e[i] : $2
                  if (2 * (b - a) >= $2 - $1) { c++; break } } }
            END { print c + 0, t + 0 }' "$tmp/apx.txt" "$tmp/trf50.txt")
        na=$(($(wc -l <"$tmp/apx.txt") - 1))
        printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' "$len" "apx t=2" - "$aw" "$ar" "$na" - \
            "$(echo "scale=1; $trf_wall / $aw" | bc)"
        echo "# $len: --approx finds $hit of $tot TRF loci (period <= 500, score >= 50; $(awk -v h="$hit" -v t="$tot" \
            'BEGIN { printf "%.1f%%", t ? 100 * h / t : 0 }')) with $na loci ($(awk -v n="$na" -v t="$tot" \
            'BEGIN { printf "%.2f", t ? n / t : 0 }')x TRF's)"
    else
        echo "# trf not installed: no comparison"
    fi
    unset W R S L N
done

# real DNA (two regions of the human reference, tests/data/README.md): TRF and
# `tandem --approx` on each, side by side; found as above, over both
if [ $have_trf = 1 ]; then
    hits=0 tots=0 ns=0 tw=0 aw=0
    for f in human_chr17_63k human_chr1_100k; do
        zcat "${RV_TOP:-.}/tests/data/$f.fa.gz" >"$tmp/$f.fa"
        read -r w _ < <(cd "$tmp" && timed --any-status "$tmp/$f.trf" trf "$f.fa" 2 7 7 80 10 50 500 -h -ngs)
        tw=$(echo "$tw + $w" | bc)
        read -r w _ < <(timed "$tmp/$f.apx" "$REPVIEW" tandem --approx --no-save --cpu -t 2 "$tmp/$f.fa")
        aw=$(echo "$aw + $w" | bc)
        awk '/^[0-9]/ && $3 <= 500 && $8 >= 50 { print $1 - 1, $2 }' "$tmp/$f.trf" >"$tmp/$f.trf50"
        read -r hit tot < <(awk 'NR == FNR { if (FNR > 1) { s[++n] = $2; e[n] = $3 } next }
            { t++; for (i = 1; i <= n; i++) { a = s[i] > $1 ? s[i] : $1; b = e[i] < $2 ? e[i] : $2
                  if (2 * (b - a) >= $2 - $1) { c++; break } } }
            END { print c + 0, t + 0 }' "$tmp/$f.apx" "$tmp/$f.trf50")
        hits=$((hits + hit)) tots=$((tots + tot)) ns=$((ns + $(wc -l <"$tmp/$f.apx") - 1))
    done
    printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' human trf - "$tw" - "$tots" - 1.0
    printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' human "apx t=2" - "$aw" - "$ns" - "$(echo "scale=1; $tw / $aw" | bc)"
    echo "# human (163 kbp, 2 regions): --approx finds $hits of $tots TRF loci (period <= 500, score >= 50) with $ns loci"
fi

# real bacterial genomes no test uses, from Debian's ragout-examples (.ci/install-deps
# --bench installs it; where the docs are not installed, apt-get download unpacks it
# into BENCH_DIR): TRF and `tandem --approx -t 2` side by side on each whole genome,
# scored by tests/score_tandem.py (TRF loci of period <= 500 and score >= 50 found
# at a compatible period; loci = our lines, ratio = loci / TRF's); BENCH_QUICK=1:
# E. coli alone
bacteria() {
    local d=/usr/share/doc/ragout/examples
    if [ ! -d "$d" ]; then
        d=$BENCH_DIR/ragout/usr/share/doc/ragout/examples
        [ -d "$d" ] || (cd "$tmp" && apt-get download ragout-examples >/dev/null 2>&1 &&
            dpkg -x ragout-examples_*.deb "$BENCH_DIR/ragout") || return 1
    fi
    echo "$d"
}
if [ $have_trf = 1 ] && ex=$(bacteria); then
    genomes="E.Coli/references/MG1655-K12 V.Cholerae/references/O1_Inaba H.Pylori/references/ELS37
             S.Aureus/references/COL"
    [ "${BENCH_QUICK:-0}" != 0 ] && genomes=E.Coli/references/MG1655-K12
    for g in $genomes; do
        name=$(basename "$g")
        zcat "$ex/$g.fasta.gz" >"$tmp/b.fa" || continue
        read -r tw tr < <(cd "$tmp" && timed --any-status "$tmp/b.trf" trf b.fa 2 7 7 80 10 50 500 -h -ngs)
        read -r w r < <(timed "$tmp/b.apx" "$REPVIEW" tandem --approx --no-save --cpu -t 2 "$tmp/b.fa")
        printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s
' "${name:0:9}" trf - "$tw" "$tr" \
            "$(grep -c '^[0-9]' "$tmp/b.trf")" - 1.0
        printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s
' "${name:0:9}" "apx t=2" - "$w" "$r" \
            "$(($(wc -l <"$tmp/b.apx") - 1))" - "$(echo "scale=1; $tw / $w" | bc)"
        echo "# $name ($(grep -v '^>' "$tmp/b.fa" | tr -d '\n' | wc -c) bp): $(python3 "${RV_TOP:-.}/tests/score_tandem.py" \
            --ours "$tmp/b.apx" --trf "$tmp/b.trf" | tr '\t\n' '= ')"
    done
elif [ $have_trf = 1 ]; then
    echo "# real bacteria skipped: ragout-examples is not installed and apt-get download failed"
fi

# the planted benchmark (tests/plant_tandem.py, seeds 1 to 3: 200 arrays of
# periods 2 to 2000, 1.8-20 copies, 70-100% identity with indels, in random DNA;
# BENCH_QUICK=1: seed 1, 60 arrays): TRF (maximum period 2000) and `tandem
# --approx --max-period 2000` side by side (seed 1 also at 1 thread), scored by
# tests/score_tandem.py: arrays of planted score >= 50 found whole, TRF's loci
# found at a compatible period, loci
if [ $have_trf = 1 ]; then
    n_arr=200 seeds="1 2 3"
    [ "${BENCH_QUICK:-0}" != 0 ] && n_arr=60 seeds=1
    for seed in $seeds; do
        python3 "${RV_TOP:-.}/tests/plant_tandem.py" --seed $seed --arrays $n_arr "$tmp/p.fa" "$tmp/p.truth"
        read -r tw tr < <(cd "$tmp" && timed --any-status "$tmp/p.trf" trf p.fa 2 7 7 80 10 50 2000 -h -ngs)
        printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' "planted$seed" trf - "$tw" "$tr" \
            "$(grep -c '^[0-9]' "$tmp/p.trf")" - 1.0
        for t in $([ $seed = 1 ] && echo 1) 2; do
            read -r w r < <(timed "$tmp/p.ours" "$REPVIEW" tandem --approx --max-period 2000 --no-save --cpu -t $t \
                "$tmp/p.fa")
            printf '%-9s %-8s %7s %7.2f %7s %9s %8s %6s\n' "planted$seed" "apx t=$t" - "$w" "$r" \
                "$(($(wc -l <"$tmp/p.ours") - 1))" - "$(echo "scale=2; $tw / $w" | bc)"
        done
        echo "# planted seed $seed ($n_arr arrays): $(python3 "${RV_TOP:-.}/tests/score_tandem.py" --ours "$tmp/p.ours" \
            --trf "$tmp/p.trf" --truth "$tmp/p.truth" --trf-max-period 2000 | tr '\t\n' '= ')"
    done
fi
