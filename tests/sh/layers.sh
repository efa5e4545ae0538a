# layers.sh — the code is layered: no circle of files of any length in engine/,
# gpu/ or ui/, engine's rooms used one way, include/repview/ taking nothing from
# engine/, the explorer's panes and the two front ends apart (tests/layers.py says
# how the graph is read).  Two fixtures check the checker: a circle of three files
# must be found, and the same files in a line must not.
. "$RV_TOP/tests/lib.sh"
command -v nm >/dev/null && command -v python3 >/dev/null || { bad layers "needs nm and python3 (.ci/install-deps installs them)"; exit 0; }
python3 "$RV_TOP/tests/layers.py" "$RV_TOP" "$RV_BUILD"
for case in circle line; do
    src="$RV_TOP/tests/fixtures/layers/$case"
    mkdir -p "$T/$case/src"
    for c in "$src"/src/*.c; do
        cc -c -o "$T/$case/src/$(basename "${c%.c}").o" "$c" || bad "layers_fixture_$case" "cc failed on $c"
    done
    out=$(python3 "$RV_TOP/tests/layers.py" --fixture "$src" "$T/$case" src)
    if [ "$case" = circle ]; then
        grep -q '^FAIL layers_no_circle_src: 3 files' <<<"$out" && ok layers_finds_three_file_circle ||
            bad layers_finds_three_file_circle "got: $out"
    else
        expect_eq layers_no_false_circle "$out" "PASS layers_no_circle_src"
    fi
done
