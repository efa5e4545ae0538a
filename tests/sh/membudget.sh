# membudget.sh — `--mem-budget` bounds what the buckets' path holds.  Peak RSS
# (rvtime: the largest process's, in KiB) of `pairs --mem-budget` on an 8 Mbp input
# must stay within a few bytes a base plus the budget plus the program's own start-up,
# one process and each rank under mpirun; the index path (SA, LCP and the rest: about
# 17 bytes a base) must not, so the bound is tight enough to notice a whole-text array
# creeping into the buckets' path.
source "$RV_TOP/tests/lib.sh"

"$RV_BUILD/gen_chrom" --kind dna --records 2 16m 21 >"$T/m.fa" || { bad membudget_input "gen_chrom failed"; exit 1; }
N=$(grep -v '>' "$T/m.fa" | tr -d '\n' | wc -c)
# start-up: the same command on 2 kbp (libraries, a GPU probe where there is one)
"$RV_BUILD/gen_chrom" --kind dna 2k 21 >"$T/tiny.fa"
"$RV_BUILD/rvtime" -o "$T/t" "$REPVIEW" pairs --cpu --no-save -l 30 --count "$T/tiny.fa" >/dev/null
BASE_KB=$(cut -d' ' -f2 "$T/t")
WANT=$("$REPVIEW" pairs --cpu --no-save -l 30 --count "$T/m.fa")
"$RV_BUILD/rvtime" -o "$T/t" "$REPVIEW" pairs --cpu --no-save -l 30 --count "$T/m.fa" >/dev/null
INDEX_KB=$(cut -d' ' -f2 "$T/t")

# A sanitizer build's peak is ASan's shadow and quarantine, not the program's:
# there only the outputs are checked (the CI's `make asan` runs this file too)
SANITIZED=0
grep -aq __asan_init "$REPVIEW" && SANITIZED=1
# within(NAME KB BUDGET_BYTES): KB <= start-up + 5 bytes a base + the budget + 64 MiB
within() {
    local name=$1 kb=$2 budget=$3
    if [ "$SANITIZED" = 1 ]; then echo "note: $name not checked: a sanitizer build's RSS is not the program's" >&2; return; fi
    local limit=$(( BASE_KB + (5 * N + budget) / 1024 + 65536 ))
    if [ "$kb" -le "$limit" ]; then ok "$name"; else bad "$name" "peak $kb KiB above $limit KiB (n=$N, budget $budget)"; fi
}
# the index path breaks the bound: the check can fail
if [ "$SANITIZED" = 1 ]; then :
elif [ "$INDEX_KB" -gt $(( BASE_KB + (5 * N + 8388608) / 1024 + 65536 )) ]; then ok membudget_bound_bites
else bad membudget_bound_bites "the index path ($INDEX_KB KiB) fits the bound too: it checks nothing"; fi

got=$("$RV_BUILD/rvtime" -o "$T/t" "$REPVIEW" pairs --cpu -l 30 --mem-budget 8m --count "$T/m.fa")
expect_eq membudget_one_count "$got" "$WANT"
within membudget_one_8m "$(cut -d' ' -f2 "$T/t")" 8388608
got=$("$RV_BUILD/rvtime" -o "$T/t" "$REPVIEW" pairs --cpu -l 30 --mem-budget 32m --count "$T/m.fa")
expect_eq membudget_one_count_32m "$got" "$WANT"
within membudget_one_32m "$(cut -d' ' -f2 "$T/t")" 33554432

if command -v mpirun >/dev/null 2>&1 && "$REPVIEW" --version 2>&1 | grep -q '^mpi: yes'; then
    [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    got=$("$RV_BUILD/rvtime" -o "$T/t" timeout 120 mpirun --oversubscribe -np 3 "$REPVIEW" pairs --cpu -l 30 \
          --mem-budget 8m --count "$T/m.fa")
    expect_eq membudget_mpi_count "$got" "$WANT"
    within membudget_mpi_8m "$(cut -d' ' -f2 "$T/t")" 8388608
elif [ "${REPVIEW_REQUIRE_MPI:-0}" = 1 ]; then
    bad membudget_mpi "REPVIEW_REQUIRE_MPI=1 but mpirun or the MPI build is missing"
fi
