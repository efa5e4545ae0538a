#!/usr/bin/env bash
# tests/bench/gpu.sh — the GPU index against the CPU path in the same run: per-stage
# seconds, Mbases/s, device memory per base, GPU/CPU ratio, on generated chromosomes
# (10, 50, 250 Mbp) and a multi-genome collection.  BENCH_QUICK=1: 1 and 5 Mbp.
# Environment: REPVIEW (binary), RV_BUILD (for gen_chrom), BENCH_DIR (generated data),
# GEN_CHROM (generator to use instead of $RV_BUILD/gen_chrom), GPU_REPS (default 3),
# BENCH_SIZES (override, e.g. "10m 250m"), BENCH_COLLECTION (size, default 100m).
set -u
REPVIEW=${REPVIEW:-./repview}
GEN=${GEN_CHROM:-${RV_BUILD:-build}/gen_chrom}
BENCH_DIR=${BENCH_DIR:-build/benchdata}
REPS=${GPU_REPS:-3}
mkdir -p "$BENCH_DIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rvgpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! "$REPVIEW" --version 2>/dev/null | grep -q 'cuda: yes'; then
    echo "SKIP gpu bench: $REPVIEW was built without CUDA"; exit 0
fi
printf '>p\nACGTACGT\n' >"$tmp/p.fa"
if ! probe=$("$REPVIEW" index --gpu --quiet -o "$tmp/p.rvx" "$tmp/p.fa" 2>&1); then
    echo "SKIP gpu bench: no usable GPU ($probe)"; exit 0
fi

if [ "${BENCH_QUICK:-0}" = 1 ]; then
    sizes=${BENCH_SIZES:-"1m 5m"}; coll=${BENCH_COLLECTION:-2m}
else
    sizes=${BENCH_SIZES:-"10m 50m 250m"}; coll=${BENCH_COLLECTION:-100m}
fi

gen() { # kind size -> path
    local f="$BENCH_DIR/$1_$2.fa"
    if [ ! -s "$f" ]; then
        "$GEN" --kind "$1" "$2" 1 >"$f.tmp" && [ -s "$f.tmp" ] && mv "$f.tmp" "$f" ||
            { echo "cannot generate $f with $GEN" >&2; rm -f "$f.tmp"; return 1; }
    fi
    echo "$f"
}

# one build: prints "sa isa lcp llr build_total" seconds (file reading excluded)
run_index() { # backend file log
    "$REPVIEW" index "--$1" --timing -o "$tmp/x.rvx" "$2" 2>"$3" >/dev/null || return 1
    rm -f "$tmp/x.rvx"
    grep -q 'built on the CPU instead' "$3" && { echo "GPU fell back: $(grep instead "$3")" >&2; return 1; }
    awk -F'\t' '$1=="suffix array"{sa=$2} $1=="inverse SA"{isa=$2} $1=="LCP"{lcp=$2}
                $1=="longest repeats"{llr=$2}
                END{printf "%s %s %s %s %.3f\n", sa, isa, lcp, llr, sa+isa+lcp+llr}' "$3"
}

median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

printf '%-16s %10s %8s %8s %8s %8s %9s %8s %9s %8s\n' input Mbp gpu_sa gpu_isa gpu_lcp gpu_llr gpu_total \
    Mbase/s cpu_total ratio
for spec in $(for s in $sizes; do echo "dna:$s"; done) "collection:$coll"; do
    kind=${spec%%:*} size=${spec#*:}
    f=$(gen "$kind" "$size") || continue
    : >"$tmp/g.all"
    for k in $(seq "$REPS"); do
        REPVIEW_GPU_TRACE=1 run_index gpu "$f" "$tmp/g$k.log" >>"$tmp/g.all" || break
    done
    [ -s "$tmp/g.all" ] || { echo "$kind $size: GPU build failed"; continue; }
    best=$(awk '{print $5, NR}' "$tmp/g.all" | sort -n | awk -v m=$(( (REPS + 1) / 2 )) 'NR==m{print $2}')
    read -r gsa gisa glcp gllr gtot < <(sed -n "${best}p" "$tmp/g.all")
    dev=$(awk -F'\t' '$2=="device_bytes"{print $4}' "$tmp/g1.log" | head -1)
    c=$(run_index cpu "$f" "$tmp/c.log") || { echo "$kind $size: CPU build failed"; continue; }
    ctot=$(echo "$c" | awk '{print $5}')
    n=$(awk '!/^>/{n+=length($0)} END{print n}' "$f")
    awk -v name="${kind}_$size" -v n="$n" -v a="$gsa" -v b="$gisa" -v l="$glcp" -v r="$gllr" \
        -v g="$gtot" -v c="$ctot" 'BEGIN{printf "%-16s %10.1f %8.3f %8.3f %8.3f %8.3f %9.3f %8.0f %9.2f %7.0fx\n",
        name, n / 1e6, a, b, l, r, g, n / 1e6 / g, c, c / g}' 
    echo "  device memory: ${dev:-?}; GPU steps (ms):" \
        $(awk -F'\t' '$1=="gpu" && $2!="device_bytes" && $2 !~ /^sa.round[0-9]/{printf "%s=%s ", $2, $3+0}' "$tmp/g$best.log")
    echo "  rounds:" $(awk -F'\t' '$1=="gpu" && $2 ~ /^sa.round[1-9]/{printf "%s ", $3}' "$tmp/g$best.log" | sed 's/h=//g; s/active=/:/g')
done
echo "(gpu_lcp includes the SA/ISA/LCP downloads, gpu_llr LLR+LLRc with theirs; ISA comes free"
echo " from the last ranking; totals exclude file reading, saving and CUDA context creation;"
echo " gpu_total is the median of $REPS runs, cpu_total one run, ratio = cpu_total / gpu_total)"
