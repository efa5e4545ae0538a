# identity.awk — how close the second sequence is to the first, for gen.sh.  Input:
# one sequence per line (line 1 empty, as a FASTA turned into lines gives it); the
# first record is line 2, the second line 3.  The second sequence is cut into 1 kb
# windows, each walked against the first greedily (a substitution, or a 1-2 bp indel
# on either side, chosen by the next 12 bases), continuing where the previous window
# ended; a window with more than 30% differences has lost the thread (a rearrangement
# breakpoint) and the next one is anchored again by a 24-mer found with index().
# Prints "identity_per_100000 clean_windows_percent windows_used"; a clean window has
# no difference at all, so the share of clean windows tells long identical stretches
# from differences spread evenly.
function walk(i, j, e,   n, d, k, c, s, best, bi, bj, x, y, step) {
    n = 0; d = 0
    while (i <= e && j <= la) {
        if (substr(b, i, 8) == substr(a, j, 8)) { i += 8; j += 8; n += 8; continue }
        if (substr(b, i, 1) == substr(a, j, 1)) { i++; j++; n++; continue }
        best = -1
        for (k = 0; k < 5; k++) { # substitution, b +1, b +2, a +1, a +2
            x = i + (k == 0) + (k == 1) + 2 * (k == 2)
            y = j + (k == 0) + (k == 3) + 2 * (k == 4)
            s = 0
            for (c = 0; c < 12; c++) s += substr(b, x + c, 1) == substr(a, y + c, 1)
            if (s > best) { best = s; bi = x; bj = y }
        }
        step = bi - i > bj - j ? bi - i : bj - j
        d += step; n += step; i = bi; j = bj
    }
    W_n = n; W_d = d; W_j = j - (i - e - 1) # the 8-base steps may overshoot e
}
NR == 2 { a = $0 }
NR == 3 { b = $0 }
END {
    la = length(a); lb = length(b); sync = 0; tn = 0; td = 0; used = 0; clean = 0; j = 1
    for (w = 1; w + 1000 <= lb; w += 1000) {
        o = 0; p = j
        if (!sync) for (; o < 600; o += 60) { p = index(a, substr(b, w + o, 24)); if (p) break }
        if (!p) continue
        walk(w + o, p, w + 999); j = W_j
        if (!(sync = W_n >= 300 && W_d <= 0.3 * W_n)) continue
        used++; tn += W_n; td += W_d; clean += W_d == 0
    }
    printf "%d %d %d\n", used ? 100000 * (1 - td / tn) : 0, used ? 100 * clean / used : 0, used
}
