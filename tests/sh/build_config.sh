# build_config.sh — the build knows its configuration: the compiler's flags, CUDA,
# MPI and the sanitizers are written to stamps in the build folder that every object
# depends on, so a build under another configuration recompiles instead of linking
# objects of the old one.  A dry run (make -n) lists what would be rebuilt and
# leaves the stamps as they are.
source "$RV_TOP/tests/lib.sh"
command -v make >/dev/null || { ok build_config_skipped; echo "build_config: make not installed, skipped" >&2; exit 0; }
stamp="$RV_BUILD/config-cc.stamp"
obj="$RV_BUILD/engine/base/error.o"
if [ ! -f "$stamp" ] || [ ! -f "$obj" ]; then bad build_config_stamp "no $stamp or $obj"; exit 0; fi
grep -q -- '-DRV_HAVE_MPI=' "$stamp" && grep -q -- '-DRV_HAVE_CUDA=' "$stamp" && ok build_config_stamp_holds_features ||
    bad build_config_stamp_holds_features "$(head -c 200 "$stamp")"
cp "$stamp" "$T/before"
# another flag: the object is rebuilt
out=$(make -s -n -C "$RV_TOP" BUILD="$RV_BUILD" CFLAGS="-O2 -g -DRV_CONFIG_PROBE" "$obj" 2>&1)
grep -q -- '-DRV_CONFIG_PROBE.*engine/base/error.c' <<<"$out" && ok build_config_flag_rebuilds ||
    bad build_config_flag_rebuilds "make -n did not recompile: $(head -c 300 <<<"$out")"
# MPI switched: every object that sees RV_HAVE_MPI is rebuilt
if grep -q -- '-DRV_HAVE_MPI=1' "$stamp"; then flip="NO_MPI=1" want="-DRV_HAVE_MPI=0"; else flip="" want=""; fi
if [ -n "$flip" ]; then
    out=$(make -s -n -C "$RV_TOP" BUILD="$RV_BUILD" $flip "$obj" 2>&1)
    grep -q -- "$want.*engine/base/error.c" <<<"$out" && ok build_config_mpi_rebuilds ||
        bad build_config_mpi_rebuilds "make -n $flip did not recompile: $(head -c 300 <<<"$out")"
fi
cmp -s "$stamp" "$T/before" && ok build_config_dry_run_keeps_stamp || bad build_config_dry_run_keeps_stamp "the stamp changed"
