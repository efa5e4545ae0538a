#!/usr/bin/env bash
# tests/bench/gpu.sh — the GPU index against the CPU path in the same run: the GPU
# core stages, and the whole commands a user waits for around them.  Three tables end
# the output (per-input details come first; full logs go to BENCH_OUT when set):
#  core   GPU stages of `repview index --gpu --timing`: sa, isa, lcp (with the SA/ISA/LCP
#         downloads), llr; their total, Mbase/s, the CPU path's total, CPU/GPU ratio
#  whole  one row per backend; every time is a whole process, exit included:
#         wall     `repview index --gpu|--cpu --timing FILE` (read, build, runs, save)
#         read runs save  its --timing lines "read", "tandem runs", "save"
#         rss_GB   its peak resident memory; rss/rvx = peak / size of the .rvx written
#                  (target <= 1.3)
#         save/dd  save / (.rvx bytes / the disk's write bandwidth measured by dd
#                  conv=fsync in this run) (target <= 1.25)
#         ready    explorer from no .rvx (`--keys '' --dump --wait-index`, with
#                  REPVIEW_NO_SAVE=1): the seconds of its "index ready" message;
#                  ui_wall the whole session
#         lce      `repview lce FILE REC:1 REC:2` with the saved .rvx (page cache warm):
#                  the first answer; panes the explorer's "index loaded ... in N s" with
#                  the .rvx (target <= 0.2); reopen that whole session (the blocks of
#                  the first screen verified; the rest is left to the background)
#  lr     whole-chromosome `repview lr --bedgraph` from the saved .rvx: --cpu (all threads)
#         against the GPU's all-LR kernel, and whether the outputs are identical
#  GPU cells: median of GPU_REPS runs (a traced warm-up build comes first and gives
#  the device memory and GPU steps); CPU cells: one run.  Without a usable GPU the GPU
#  rows are skipped (a SKIP line) and the CPU rows still print.
# Inputs: dna of BENCH_SIZES (default "10m 50m 250m"), the classic collection of 8
# genomes (BENCH_COLLECTION, 100m), the pan-genome collection (BENCH_HARD, 48m: 16
# genomes at 99.5% identity sharing long segments, `gen_chrom --identity`), and with
# BENCH_BIG=1 a BENCH_BIG_SIZE (3g) dna input of 12 records (GPU only unless
# BENCH_BIG_CPU=1; BIG_REPS runs, default 1, no traced warm-up; generated into
# BENCH_DIR and deleted afterwards; needs 9 bytes of disk per base free, checked
# unless BENCH_BIG_FORCE=1).  An empty variable drops that input: BENCH_SIZES=
# BENCH_COLLECTION= BENCH_HARD= BENCH_BIG=1 runs the big input alone.  BENCH_QUICK=1: 1m 5m, collections of 2m, dd of 256 MB.
# Other environment: REPVIEW (binary), RV_BUILD (gen_chrom, rvtime), GEN_CHROM,
# BENCH_DIR (generated data and the .rvx files, deleted after each input),
# BENCH_DD_MB (default 4096), BENCH_CPU=0 (no CPU rows), BENCH_OUT (log directory).
set -u
here=$(cd "$(dirname "$0")" && pwd)
REPVIEW=${REPVIEW:-./repview}
GEN=${GEN_CHROM:-${RV_BUILD:-build}/gen_chrom}
BENCH_DIR=${BENCH_DIR:-build/benchdata}
REPS=${GPU_REPS:-3}
mkdir -p "$BENCH_DIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rvgpu.XXXXXX")
trap 'rm -rf "$tmp"; rm -f "$BENCH_DIR/dd.tmp"' EXIT
LOG=/dev/null
if [ -n "${BENCH_OUT:-}" ]; then mkdir -p "$BENCH_OUT" && LOG=$BENCH_OUT/gpu-bench.log && : >"$LOG"; fi
if [ "${BENCH_QUICK:-0}" = 1 ]; then
    sizes=${BENCH_SIZES-"1m 5m"} coll=${BENCH_COLLECTION-2m} hard=${BENCH_HARD-2m} dd_mb=${BENCH_DD_MB:-256}
else
    sizes=${BENCH_SIZES-"10m 50m 250m"} coll=${BENCH_COLLECTION-100m} hard=${BENCH_HARD-48m}
    dd_mb=${BENCH_DD_MB:-4096}
fi

# ---- tools ---------------------------------------------------------------------------
RVTIME=${RV_BUILD:-build}/rvtime
if [ ! -x "$RVTIME" ]; then
    RVTIME=$tmp/rvtime
    cc -O2 -o "$RVTIME" "$here/rvtime.c" 2>/dev/null || RVTIME=""
fi
[ -n "$RVTIME" ] || echo "note: no rvtime (make builds it) and no cc: wall clock from date, no peak RSS"

# timed TAG CMD...: runs CMD (stdout $tmp/TAG.out, stderr $tmp/TAG.err), sets T_WALL
# (s) and T_RSS (kB, - when unknown), copies both outputs to the log; CMD's status.
timed() {
    local tag=$1 rc t0 t1
    shift
    if [ -n "$RVTIME" ]; then
        "$RVTIME" -o "$tmp/$tag.time" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
        rc=$?
        read -r T_WALL T_RSS _ <"$tmp/$tag.time" || { T_WALL=-; T_RSS=-; }
    else
        t0=$(date +%s.%N)
        "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
        rc=$?
        t1=$(date +%s.%N)
        T_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }') T_RSS=-
    fi
    { echo "## $tag: $* (exit $rc, ${T_WALL} s, ${T_RSS} kB)"; tail -40 "$tmp/$tag.err"; tail -3 "$tmp/$tag.out"; } >>"$LOG"
    return $rc
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'; }
# col FILE N: the median of column N of FILE ("-" cells ignored)
col() { awk -v c="$2" '$c != "-" { print $c }' "$1" | median; }
# stage FILE NAME: the seconds of a --timing line, "-" when absent
stage() { awk -F'\t' -v n="$2" '$1 == n { v = $2 } END { print v == "" ? "-" : v }' "$1"; }
bytes() { stat -c %s "$1" 2>/dev/null || wc -c <"$1"; }

# ---- the GPU, the disk ---------------------------------------------------------------
gpu=1
if ! "$REPVIEW" --version 2>/dev/null | grep -q 'cuda: yes'; then
    echo "SKIP gpu rows: $REPVIEW was built without CUDA"; gpu=0
else
    printf '>p\nACGTACGT\n' >"$tmp/p.fa"
    if ! probe=$("$REPVIEW" index --gpu --quiet -o "$tmp/p.rvx" "$tmp/p.fa" 2>&1); then
        echo "SKIP gpu rows: no usable GPU ($probe)"; gpu=0
    fi
fi
[ "${BENCH_CPU:-1}" = 0 ] && [ "$gpu" = 0 ] && { echo "SKIP gpu bench: no GPU and BENCH_CPU=0"; exit 0; }

disk_bw=-
dd_count=$(( (dd_mb + 63) / 64 ))
if timed dd dd if=/dev/zero of="$BENCH_DIR/dd.tmp" bs=64M count="$dd_count" conv=fsync; then
    disk_bw=$(awk -v b="$(bytes "$BENCH_DIR/dd.tmp")" -v t="$T_WALL" 'BEGIN { printf "%.0f", b / t }')
    echo "disk: dd conv=fsync wrote $(( dd_count * 64 )) MiB into $BENCH_DIR in $T_WALL s:" \
        "$(awk -v b="$disk_bw" 'BEGIN { printf "%.0f MB/s", b / 1e6 }')"
else
    echo "disk: dd failed: $(tail -1 "$tmp/dd.err")"
fi
rm -f "$BENCH_DIR/dd.tmp"

# ---- inputs --------------------------------------------------------------------------
# gen SPEC: sets F to the input's path, generating it when missing; SPEC is dna:SIZE,
# collection:SIZE, hard:SIZE or big:SIZE
gen() {
    local kind=${1%%:*} size=${1#*:} f args t0
    case $kind in
    dna) f="$BENCH_DIR/dna_$size.fa" args="--kind dna $size 1" ;;
    collection) f="$BENCH_DIR/collection_$size.fa" args="--kind collection $size 1" ;;
    hard) f="$BENCH_DIR/hard_$size.fa" args="--kind collection --records 16 --identity 0.995 $size 1" ;;
    big) f="$BENCH_DIR/big_$size.fa" args="--records 12 $size 1" ;;
    esac
    if [ ! -s "$f" ]; then
        t0=$(date +%s.%N)
        "$GEN" $args >"$f.tmp" 2>"$tmp/gen.err" && mv "$f.tmp" "$f" ||
            { echo "cannot generate $f with $GEN $args: $(tail -1 "$tmp/gen.err")"; rm -f "$f.tmp"; return 1; }
        echo "  generated $f ($GEN $args) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
    fi
    F=$f
}

# room_for SIZE: whether BENCH_DIR has 9 bytes per base free (input 1.02 + .rvx about 7;
# BENCH_BIG_FORCE=1 tries anyway)
room_for() {
    local need have
    [ "${BENCH_BIG_FORCE:-0}" = 1 ] && return 0
    need=$(awk -v s="$1" 'BEGIN { m = s ~ /g$/ ? 1e9 : s ~ /m$/ ? 1e6 : s ~ /k$/ ? 1e3 : 1
                                  printf "%.0f", s * m * 9 / 1024 }')
    have=$(df -Pk "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
    [ "$have" -ge "$need" ] || { echo "SKIP big input: $BENCH_DIR has $((have / 1048576)) GiB free, needs $((need / 1048576))"; return 1; }
}

# ---- one input -----------------------------------------------------------------------
# index_row BACKEND FILE ROWS: one whole `repview index`; appends "wall rss sa isa lcp llr
# read runs save rvx_bytes" to ROWS, leaves FILE.rvx (removed first: the disk may not
# hold two of a big input)
index_row() {
    rm -f "$2.rvx"
    timed idx "$REPVIEW" index "--$1" --timing "$2" ||
        { echo "  $1 index failed: $(tail -1 "$tmp/idx.err")"; return 1; }
    grep -q 'instead' "$tmp/idx.err" && echo "  $1: $(grep -m1 instead "$tmp/idx.err")"
    local e=$tmp/idx.err
    echo "$T_WALL $T_RSS $(stage "$e" "suffix array") $(stage "$e" "inverse SA") $(stage "$e" LCP)" \
        "$(stage "$e" "longest repeats") $(stage "$e" read) $(stage "$e" "tandem runs") $(stage "$e" save)" \
        "$(bytes "$2.rvx")" >>"$3"
    awk -F'\t' 'NF == 2 && $2 ~ /^[0-9.]+$/' "$e" >"$tmp/last-$1.timing"
}

# reopen_row FILE REC ROWS: appends "lce_wall ui_wall loaded_s" (FILE.rvx saved)
reopen_row() {
    local l u p
    timed lce "$REPVIEW" lce "$1" "$2:1" "$2:2" && l=$T_WALL || l=-
    timed ui "$REPVIEW" --keys '' --dump --wait-index --size 300x30 "$1" && u=$T_WALL || u=-
    p=$(grep -o 'index loaded from [^ ]* in [0-9.]* s' "$tmp/ui.out" | awk '{ print $(NF - 1) }' | tail -1 | grep . || echo -)
    grep -q 'index ready:' "$tmp/ui.out" && u=- p=- # it built the index: not a reopen
    echo "$l $u $p" >>"$3"
}

# ready_row BACKEND FILE ROWS: explorer from no .rvx; appends "ready_s ui_wall ui_rss"
# (ui_rss is in the log only)
ready_row() {
    rm -f "$2.rvx"
    timed ready env REPVIEW_NO_SAVE=1 "$REPVIEW" "--$1" --keys '' --dump --wait-index --size 300x30 "$2" ||
        { echo "  $1 explorer failed: $(tail -1 "$tmp/ready.err")"; rm -f "$2.rvx"; return 1; }
    rm -f "$2.rvx" # in case the explorer saved it anyway
    echo "$(grep -o 'index ready: [^;]*, [0-9.]* s' "$tmp/ready.out" | awk '{ print $(NF - 1) }' | tail -1 |
            grep . || echo -) $T_WALL $T_RSS" >>"$3"
}

# measure BACKEND FILE REC REPS: index, reopen and explorer rows into $tmp/BACKEND.*
measure() {
    local b=$1 f=$2 rec=$3 n=$4 k
    : >"$tmp/$b.idx"; : >"$tmp/$b.reopen"; : >"$tmp/$b.ready"
    for ((k = 0; k < n; k++)); do index_row "$b" "$f" "$tmp/$b.idx" || return 1; done
    for ((k = 0; k < n; k++)); do reopen_row "$f" "$rec" "$tmp/$b.reopen"; done
    for ((k = 0; k < n; k++)); do ready_row "$b" "$f" "$tmp/$b.ready"; done
    rm -f "$f.rvx"
}

# traced GPU build (warm-up): device memory, steps, whether LCP went to the CPU
trace_build() {
    timed trace env REPVIEW_GPU_TRACE=1 "$REPVIEW" index --gpu --timing "$1" || return 1
    rm -f "$1.rvx"
    local t=$tmp/trace.err
    echo "  device memory: $(awk -F'\t' '$2 == "device_bytes" { print $4 }' "$t" | head -1); GPU steps (ms):" \
        $(awk -F'\t' '$1 == "gpu" && $2 != "device_bytes" && $2 !~ /^sa.round[0-9]/ && $3 ~ /ms/ { printf "%s=%s ", $2, $3 + 0 }' "$t")
    echo "  rounds:" $(awk -F'\t' '$1 == "gpu" && $2 ~ /^sa.round[1-9]/ { printf "%s ", $3 }' "$t" | sed 's/h=//g; s/active=/:/g')
    grep -i 'on the CPU\|instead' "$t" | sed 's/^/  FALLBACK: /' | tr '\t' ' ' | head -3
}

# whole_row NAME BACKEND SYMBOLS: the row of the whole-process table from $tmp/BACKEND.*
whole_row() {
    local i=$tmp/$2.idx
    awk -v name="$1" -v b="$2" -v n="$3" -v bw="$disk_bw" -v wall="$(col "$i" 1)" -v rss="$(col "$i" 2)" \
        -v rd="$(col "$i" 7)" -v runs="$(col "$i" 8)" -v save="$(col "$i" 9)" -v rvx="$(col "$i" 10)" \
        -v ready="$(col "$tmp/$2.ready" 1)" -v uw="$(col "$tmp/$2.ready" 2)" \
        -v lce="$(col "$tmp/$2.reopen" 1)" -v reo="$(col "$tmp/$2.reopen" 2)" -v pan="$(col "$tmp/$2.reopen" 3)" '
        function f(x, fmt) { return x == "-" || x == "" ? "-" : sprintf(fmt, x) }
        BEGIN {
            ratio = rss == "-" || rvx == "-" ? "-" : rss * 1024 / rvx
            sd = save == "-" || bw == "-" || rvx == "-" ? "-" : save / (rvx / bw)
            printf "%-16s %-3s %7s %6s %6s %6s %6s %7s %6s %6s %7s %6s %7s %6s %6s %6s\n", name, b, f(wall, "%.2f"),
                f(rd, "%.2f"), f(runs, "%.2f"), f(save, "%.2f"), f(rss == "-" ? "-" : rss / 1048576, "%.2f"),
                f(ratio, "%.2f"), f(rvx == "-" ? "-" : rvx / 1e9, "%.2f"), f(rvx == "-" ? "-" : rvx / n, "%.2f"),
                f(sd, "%.2f"), f(ready, "%.2f"),
                f(uw, "%.2f"), f(lce, "%.2f"), f(pan, "%.2f"), f(reo, "%.2f")
        }' >>"$tmp/whole.tab"
}

# core_row NAME BASES: the GPU core stages against the CPU total
core_row() {
    local g=$tmp/gpu.idx c=$tmp/cpu.idx ctot=-
    [ -s "$c" ] && ctot=$(awk '{ print $3 + $4 + $5 + $6 }' "$c" | median)
    if [ -s "$g" ]; then
        awk -v name="$1" -v n="$2" -v a="$(col "$g" 3)" -v b="$(col "$g" 4)" -v l="$(col "$g" 5)" \
            -v r="$(col "$g" 6)" -v g="$(awk '{ print $3 + $4 + $5 + $6 }' "$g" | median)" -v c="$ctot" '
            BEGIN { printf "%-16s %8.1f %8.3f %8.3f %8.3f %8.3f %9.3f %8.0f %9s %8s\n", name, n / 1e6, a, b, l, r, g,
                    n / 1e6 / g, c == "-" ? "-" : sprintf("%.2f", c), c == "-" ? "-" : sprintf("%.0fx", c / g) }'
    else
        printf '%-16s %8.1f %8s %8s %8s %8s %9s %8s %9s %8s\n' "$1" "$(awk -v n="$2" 'BEGIN { print n / 1e6 }')" \
            - - - - - - "$ctot" -
    fi >>"$tmp/core.tab"
}

# lr_row NAME FILE: whole-chromosome `repview lr --bedgraph` from the saved index, CPU
# (all threads) and GPU (the all-LR kernel), one run each, outputs compared
lr_row() {
    local c g same
    rm -f "$2.rvx"
    "$REPVIEW" index --quiet "$2" || return 0
    timed lrc "$REPVIEW" lr --bedgraph --cpu "$2" && c=$T_WALL || c=-
    local cs; cs=$(md5sum <"$tmp/lrc.out"); rm -f "$tmp/lrc.out"
    timed lrg "$REPVIEW" lr --bedgraph --gpu "$2" && g=$T_WALL || g=-
    same=no; [ "$(md5sum <"$tmp/lrg.out")" = "$cs" ] && same=yes
    rm -f "$tmp/lrg.out" "$2.rvx"
    awk -v n="$1" -v c="$c" -v g="$g" -v s="$same" 'BEGIN {
        r = "-"; if (c != "-" && g != "-" && g > 0) r = sprintf("%.1fx", c / g)
        printf "%-16s %8s %8s %7s %5s\n", n, c, g, r, s }' >>"$tmp/lr.tab"
}

bench_input() { # SPEC
    local spec=$1 kind=${1%%:*} size=${1#*:} f n rec reps=$REPS cpu=${BENCH_CPU:-1} trace=1
    if [ "$kind" = big ]; then
        room_for "$size" || return 0
        reps=${BIG_REPS:-1} cpu=${BENCH_BIG_CPU:-0} trace=0
    fi
    gen "$spec" || return 0
    f=$F # gen_chrom's LENGTH is exact: no need to read gigabytes to count
    n=$(awk -v s="$size" 'BEGIN { m = s ~ /g$/ ? 1e9 : s ~ /m$/ ? 1e6 : s ~ /k$/ ? 1e3 : 1; printf "%.0f", s * m }')
    rec=$(head -1 "$f" | sed 's/^>//; s/[[:space:]].*//')
    echo "${kind}_$size: $f, $n symbols"
    rm -f "$tmp"/gpu.* "$tmp"/cpu.*
    if [ "$gpu" = 1 ]; then
        [ "$trace" = 1 ] && trace_build "$f"
        measure gpu "$f" "$rec" "$reps" && whole_row "${kind}_$size" gpu "$n"
        [ -s "$tmp/last-gpu.timing" ] && echo "  gpu --timing (last run):" $(tr '\t\n' '= ' <"$tmp/last-gpu.timing")
    fi
    if [ "$cpu" = 1 ]; then
        measure cpu "$f" "$rec" 1 && whole_row "${kind}_$size" cpu "$n"
        [ -s "$tmp/last-cpu.timing" ] && echo "  cpu --timing:" $(tr '\t\n' '= ' <"$tmp/last-cpu.timing")
    fi
    rm -f "$tmp"/last-*.timing
    [ "$gpu" = 1 ] && [ "$kind" != big ] && lr_row "${kind}_$size" "$f"
    core_row "${kind}_$size" "$n"
    # the rows so far, in case the run is cut off before the tables (the columns are below)
    grep -h "^${kind}_$size " "$tmp/core.tab" "$tmp/whole.tab" | sed 's/^/  = /'
    if [ "$kind" = big ] && [ "${BENCH_KEEP_BIG:-0}" != 1 ]; then rm -f "$f" "$f.fai" "$f.rvx"; fi
}

: >"$tmp/core.tab"; : >"$tmp/whole.tab"; : >"$tmp/lr.tab"
specs="$(for s in $sizes; do echo "dna:$s"; done)"
[ -n "$coll" ] && specs+=" collection:$coll"
[ -n "$hard" ] && specs+=" hard:$hard"
[ "${BENCH_BIG:-0}" = 1 ] && specs+=" big:${BENCH_BIG_SIZE:-3g}"
for spec in $specs; do bench_input "$spec"; done

echo
echo "core: GPU stages (s, median of $REPS; big: ${BIG_REPS:-1}) against the CPU path (one run)"
printf '%-16s %8s %8s %8s %8s %8s %9s %8s %9s %8s\n' input Mbp gpu_sa gpu_isa gpu_lcp gpu_llr gpu_total \
    Mbase/s cpu_total ratio
cat "$tmp/core.tab"
echo "(gpu_lcp includes the SA/ISA/LCP downloads, gpu_llr LLR+LLRc with theirs; core totals exclude"
echo " reading, tandem runs, saving and CUDA context creation: the whole table has those)"
echo
echo "whole: seconds of whole processes; disk $(awk -v b="$disk_bw" 'BEGIN { print b == "-" ? "?" : sprintf("%.0f MB/s", b / 1e6) }') (dd conv=fsync, this run)"
printf '%-16s %-3s %7s %6s %6s %6s %6s %7s %6s %6s %7s %6s %7s %6s %6s %6s\n' input be wall read runs save rss_GB \
    rss/rvx rvx_GB B/sym save/dd ready ui_wall lce panes reopen
cat "$tmp/whole.tab"
echo "(wall/read/runs/save: repview index --timing; rss/rvx target <= 1.3, save/dd <= 1.25;"
echo " ready: explorer's 'index ready' s from no .rvx, ui_wall its whole session; lce, reopen:"
echo " whole lce / explorer session with the saved .rvx (first screen verified); panes: the"
echo " explorer's 'index loaded ... in N s', when its panes became index-backed)"
if [ -s "$tmp/lr.tab" ]; then
    echo
    echo "lr: whole-chromosome 'repview lr --bedgraph FILE' from its .rvx, whole process (s, one run each)"
    printf '%-16s %8s %8s %7s %5s\n' input cpu gpu cpu/gpu same
    cat "$tmp/lr.tab"
fi
