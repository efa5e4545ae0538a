#!/usr/bin/env python3
"""plant_tandem.py — a planted benchmark of approximate tandem repeats.

Usage: plant_tandem.py [options] FASTA TRUTH

Writes FASTA, records of uniform random DNA with arrays planted in them, and TRUTH,
one line per array (BED coordinates, a header line first):

    chrom start end period copies identity score motif

Each array repeats a random primitive motif of `period` symbols (log-uniform in
[--min-period, --max-period]) over copies * period symbols (copies uniform in
[--min-copies, --max-copies]); every motif symbol it copies is mutated with
probability 1 - q (q uniform in [--min-identity, --max-identity] percent): a
substitution, or with probability --indel-share an insertion of a random symbol
before it or its deletion.  identity and score are those of the planted alignment
of the array against motif^inf: score = 2 matches - 7 mismatches - 7 gap symbols,
the weights of `trf 2 7 7` (the best alignment scores at least as much).  The
same seed writes the same files on every Python 3.
"""
import argparse
import math
import random

BASES = "ACGT"


def rand_base(rng):
    return BASES[rng.getrandbits(2)]


def primitive_motif(rng, p):
    """A random motif of length p that is not a power of a shorter string."""
    while True:
        m = "".join(rand_base(rng) for _ in range(p))
        if not any(p % q == 0 and m == m[:q] * (p // q) for q in range(1, p)):
            return m


def plant(rng, motif, length, q, indel_share):
    """The array and its planted alignment's (matches, mismatches, gaps)."""
    out, m, x, g, c = [], 0, 0, 0, 0
    p = len(motif)
    while c < length:
        a = motif[c % p]
        c += 1
        if rng.random() >= 1 - q:
            out.append(a)
            m += 1
            continue
        if rng.random() < indel_share:
            if rng.random() < 0.5:  # an insertion before a, then a
                out.append(rand_base(rng))
                out.append(a)
                m += 1
            g += 1  # or a deleted
            continue
        out.append(BASES[(BASES.index(a) + 1 + rng.randrange(3)) % 4])
        x += 1
    return "".join(out), m, x, g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fasta")
    ap.add_argument("truth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arrays", type=int, default=200, help="arrays in all")
    ap.add_argument("--records", type=int, default=2)
    ap.add_argument("--min-period", type=int, default=2)
    ap.add_argument("--max-period", type=int, default=2000)
    ap.add_argument("--min-copies", type=float, default=1.8)
    ap.add_argument("--max-copies", type=float, default=20)
    ap.add_argument("--min-identity", type=float, default=70)
    ap.add_argument("--max-identity", type=float, default=100)
    ap.add_argument("--indel-share", type=float, default=0.2, help="share of mutations that are indels")
    ap.add_argument("--gap", type=int, default=1500, help="least background between arrays")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    lo, hi = math.log(a.min_period), math.log(a.max_period)
    with open(a.fasta, "w") as fa, open(a.truth, "w") as tr:
        tr.write("#chrom\tstart\tend\tperiod\tcopies\tidentity\tscore\tmotif\n")
        for r in range(a.records):
            name = "planted%d" % (r + 1)
            n = a.arrays // a.records + (r < a.arrays % a.records)
            seq = []
            pos = 0
            for _ in range(n):
                gap = a.gap + rng.randrange(a.gap)
                seq.append("".join(rand_base(rng) for _ in range(gap)))
                pos += gap
                p = int(round(math.exp(lo + (hi - lo) * rng.random())))
                copies = a.min_copies + (a.max_copies - a.min_copies) * rng.random()
                q = (a.min_identity + (a.max_identity - a.min_identity) * rng.random()) / 100
                motif = primitive_motif(rng, p)
                arr, m, x, g = plant(rng, motif, int(round(copies * p)), q, a.indel_share)
                seq.append(arr)
                tr.write("%s\t%d\t%d\t%d\t%.2f\t%.1f\t%d\t%s\n" % (name, pos, pos + len(arr), p, len(arr) / p,
                                                                  100.0 * m / max(1, m + x + g), 2 * m - 7 * x - 7 * g,
                                                                  motif))
                pos += len(arr)
            seq.append("".join(rand_base(rng) for _ in range(a.gap)))
            s = "".join(seq)
            fa.write(">%s\n" % name)
            for i in range(0, len(s), 80):
                fa.write(s[i:i + 80] + "\n")


if __name__ == "__main__":
    main()
