#!/usr/bin/env python3
"""score_tandem.py — recall and precision of approximate tandem repeats.

Usage: score_tandem.py [--ours OURS] [--trf TRF.dat] [--truth TRUTH]
                       [--trf-max-period P] [--min-score S]

OURS is `repview tandem --approx` output (chrom start end period ..., BED
coordinates, a header line); TRF.dat is the output of `trf FILE 2 7 7 80 10 50 P -h
-ngs` (`@name` lines, then `start end period copies ... score ...`, 1-based);
TRUTH is plant_tandem.py's list of planted arrays.  Prints `name value` lines:

  trf_loci        TRF loci of score >= S and period <= --trf-max-period (500)
  trf_found       those overlapped by a locus of OURS of a compatible period:
                  within 10% of TRF's period or consensus size, of a multiple
                  or of a divisor of either
  ours_loci       lines of OURS;  loci_ratio = ours_loci / trf_loci
  planted         planted arrays of planted score >= S
  planted_found   those found whole by OURS: one locus covering at least half of
                  the array, its period within 10% of the planted one
  planted_found_trf  the same with TRF's loci (every TRF locus counts)
  ours_on_planted  loci of OURS that overlap a planted array (precision there)
"""
import argparse
import bisect
import sys


def read_ours(path):
    loci = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            loci.append((c[0], int(c[1]), int(c[2]), int(c[3])))
    return loci


def read_trf(path):
    """(chrom, start0, end, period, score, consensus size) of every locus of a TRF
    -ngs output.  TRF gives a locus two sizes, the period it detected and the length
    of the consensus it aligned the copies to (they differ where the copies hold
    indels); either may describe the array."""
    loci, name = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("@"):
                name = line[1:].split()[0]
                continue
            c = line.split()
            if len(c) < 14 or not c[0].isdigit():
                continue
            loci.append((name, int(c[0]) - 1, int(c[1]), int(c[2]), int(c[7]), int(c[4])))
    return loci


def read_truth(path):
    arr = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            c = line.split("\t")
            arr.append((c[0], int(c[1]), int(c[2]), int(c[3]), int(c[6])))
    return arr


def near(p, x):
    return abs(p - x) * 10 <= x


def compatible(p, t):
    """p within 10% of t, of a multiple of t or of a divisor of t."""
    for m in range(1, max(p, t) // min(p, t) + 2):
        if near(p, m * t) or near(p, t / m):
            return True
    return False


class Index:
    """Loci of one file by chrom, sorted by start, for overlap queries."""

    def __init__(self, loci):
        self.by = {}
        for l in loci:
            self.by.setdefault(l[0], []).append(l)
        self.starts, self.longest = {}, {}
        for k, v in self.by.items():
            v.sort(key=lambda l: l[1])
            self.starts[k] = [l[1] for l in v]
            self.longest[k] = max(l[2] - l[1] for l in v)

    def overlapping(self, chrom, s, e):
        v = self.by.get(chrom)
        if not v:
            return
        i = bisect.bisect_left(self.starts[chrom], e)
        while i > 0:
            i -= 1
            l = v[i]
            if l[1] + self.longest[chrom] <= s:
                break
            if l[2] > s:
                yield l


def found_whole(idx, a):
    """a locus of idx covers half of array a, its period (either size of a TRF
    locus) within 10% of a's"""
    chrom, s, e, p = a[0], a[1], a[2], a[3]
    for l in idx.overlapping(chrom, s, e):
        sizes = l[3:4] + l[5:6]
        if 2 * (min(e, l[2]) - max(s, l[1])) >= e - s and any(near(x, p) for x in sizes):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours")
    ap.add_argument("--trf")
    ap.add_argument("--truth")
    ap.add_argument("--trf-max-period", type=int, default=500)
    ap.add_argument("--min-score", type=int, default=50)
    ap.add_argument("--missed", action="store_true", help="list the TRF loci and arrays not found on stderr")
    a = ap.parse_args()
    ours = read_ours(a.ours) if a.ours else []
    oi = Index(ours)
    trf = read_trf(a.trf) if a.trf else []
    out = []
    if a.trf:
        sel = [t for t in trf if t[4] >= a.min_score and t[3] <= a.trf_max_period]
        hit = 0
        for t in sel:
            if any(compatible(l[3], t[3]) or compatible(l[3], t[5]) for l in oi.overlapping(t[0], t[1], t[2])):
                hit += 1
            elif a.missed:
                print("trf_missed\t%s\t%d\t%d\t%d\t%d" % t[:5], file=sys.stderr)
        out += [("trf_loci", len(sel)), ("trf_found", hit)]
    if a.ours:
        out.append(("ours_loci", len(ours)))
    if a.ours and a.trf:
        out.append(("loci_ratio", "%.3f" % (len(ours) / max(1, dict(out)["trf_loci"]))))
    if a.truth:
        every = read_truth(a.truth)
        truth = [t for t in every if t[4] >= a.min_score]
        ti = Index(every) if every else None
        hit = 0
        for t in truth:
            if found_whole(oi, t):
                hit += 1
            elif a.missed:
                print("planted_missed\t%s\t%d\t%d\t%d\t%d" % t, file=sys.stderr)
        out += [("planted", len(truth)), ("planted_found", hit)]
        if a.trf:
            tr = Index(trf)
            out.append(("planted_found_trf", sum(found_whole(tr, t) for t in truth)))
        if ti:
            out.append(("ours_on_planted", sum(1 for l in ours if any(True for _ in ti.overlapping(l[0], l[1], l[2])))))
    for k, v in out:
        print("%s\t%s" % (k, v))


if __name__ == "__main__":
    main()
