# lib.sh — helpers for shell tests (sourced, not run: it has no PASS lines).
# Each check prints "PASS name" or "FAIL name: why".
: "${REPVIEW:?run through tests/run}"
T=$(mktemp -d "${RV_TMP:-/tmp}/sh.XXXXXX")
ok()   { echo "PASS $1"; }
bad()  { echo "FAIL $1: $2"; }
# expect_eq NAME GOT WANT
expect_eq() { if [ "$2" == "$3" ]; then ok "$1"; else bad "$1" "got [$(head -c 300 <<<"$2")] want [$(head -c 300 <<<"$3")]"; fi; }
# expect_exit NAME WANT_CODE cmd... : also checks stderr is one line starting "repview: " when non-zero
expect_exit() {
    local name=$1 want=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "$name" "exit $rc, want $want; stderr: $(head -c 200 "$T/err")"; return; fi
    if [ "$want" -ne 0 ]; then
        local lines; lines=$(wc -l <"$T/err")
        if [ "$lines" -ne 1 ] || ! grep -q '^repview: ' "$T/err"; then
            bad "$name" "stderr is not one 'repview: ...' line: $(head -c 300 "$T/err")"; return
        fi
    fi
    ok "$name"
}
# lambda_multi LAMBDA.fa: a multi-record variant of the lambda genome on stdout:
# an N run in record a, IUPAC codes in b, c a copy of a's start
lambda_multi() {
    awk 'NR > 1 { s = s $0 } END {
        print ">a"; print substr(s, 1, 15000) "NNNNN" substr(s, 15001, 5000)
        print ">b"; print substr(s, 20001, 14000) "RYK" substr(s, 34001)
        print ">c"; print substr(s, 1, 3000) }' "$1"
}
# skewed_inputs DIR: DIR/skew.fa, 20000 copies of one 11-mer each followed by 12
# random symbols (a bucket of 20000 suffixes that parts within 12 more symbols), and
# DIR/polya.fa, 30000 random symbols then a poly-A run of 30000 (a bucket whose
# suffixes share every prefix up to its length): buckets split by longer prefixes
skewed_inputs() {
    awk 'BEGIN { srand(15); printf ">skew\n"; for (i = 0; i < 20000; i++) { printf "ACGTACGTACG"; for (j = 0; j < 12; j++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1) } printf "\n" }' >"$1/skew.fa"
    awk 'BEGIN { srand(16); printf ">polya\n"; for (i = 0; i < 30000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); for (i = 0; i < 30000; i++) printf "A"; printf "\n" }' >"$1/polya.fa"
}
# family_protein: three protein records on stdout, random residues sharing
# (truncated) copies of six 25-residue families, X breakers here and there
family_protein() {
    awk 'BEGIN { srand(7); aa = "ACDEFGHIKLMNPQRSTVWY"
        for (f = 0; f < 6; f++) { fam[f] = ""; for (i = 0; i < 25; i++) fam[f] = fam[f] substr(aa, int(rand() * 20) + 1, 1) }
        for (r = 0; r < 3; r++) { s = ""
            for (k = 0; k < 30; k++) {
                n = 2 + int(rand() * 20); for (i = 0; i < n; i++) s = s substr(aa, int(rand() * 20) + 1, 1)
                s = s substr(fam[int(rand() * 6)], 1 + int(rand() * 8))
                if (rand() < 0.2) s = s "X" }
            print ">p" r; print s } }'
}
