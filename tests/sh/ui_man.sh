# ui_man.sh — the KEYS section of man/repview-explorer.1 is the key table of the
# explorer (`repview --man-keys`, generated from ui/explorer/keys.h).  UPDATE_MAN=1 rewrites
# the section from the binary.
source "$RV_TOP/tests/lib.sh"
page="$RV_TOP/man/repview-explorer.1"
want=$("$REPVIEW" --man-keys)
b=$(grep -n 'BEGIN KEYS' "$page" | cut -d: -f1) e=$(grep -n 'END KEYS' "$page" | cut -d: -f1)
if [ -z "$b" ] || [ -z "$e" ]; then bad man_keys_markers "no BEGIN/END KEYS lines in $page"; exit 0; fi
if [ "${UPDATE_MAN:-0}" = 1 ]; then
    { head -n "$b" "$page"; printf '%s\n' "$want"; tail -n "+$e" "$page"; } >"$T/page" && cp "$T/page" "$page"
    e=$(grep -n 'END KEYS' "$page" | cut -d: -f1)
fi
got=$(sed -n "$((b + 1)),$((e - 1))p" "$page")
expect_eq man_keys_match_key_table "$got" "$want"
# every key of the table is in the help overlay, too
help=$("$REPVIEW" --keys '<F1>' --dump --size 120x80 "$RV_TOP/tests/data/multi.fa")
missing=""
while IFS= read -r label; do
    grep -qF -- "$label" <<<"$help" || missing+="[$label] "
done < <(grep -o '^\.IP "\\fB.*\\fR"$' <<<"$want" | sed 's/^\.IP "\\fB//; s/\\fR"$//; s/^\\&//; s/\\-/-/g' | grep -v '^$')
expect_eq help_lists_every_key "$missing" ""
# the page renders without troff warnings
if command -v man >/dev/null; then
    warn=$(man -l "$page" 2>&1 >/dev/null | head -3)
    expect_eq man_page_renders "$warn" ""
fi
