/* sim_reads.c — reads for the find benchmarks and tests: N reads of length L drawn
 * from a FASTA file (all records joined), each from a random position and strand
 * with 0-3 random substitutions; 2% are random bases (they match nowhere).  Reads
 * keep the lower case and the odd N of the source; windows with more than 2 bytes
 * other than ACGT (N gaps) are drawn again, as read simulators skip them (a read of
 * N matches everywhere).  Deterministic in SEED.  FASTQ on stdout.
 *
 *   sim_reads GENOME.fa N L SEED > reads.fq
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return rng * 2685821657736338717ull;
}

/* Every sequence line of the file, joined. */
static char *read_genome(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0;
    char *g = malloc(cap), line[1 << 16];
    while (g && fgets(line, sizeof line, f)) {
        if (line[0] == '>') continue;
        size_t l = strcspn(line, "\r\n");
        if (n + l > cap) {
            while (n + l > cap) cap *= 2;
            char *t = realloc(g, cap);
            if (!t) { free(g); g = NULL; break; }
            g = t;
        }
        memcpy(g + n, line, l);
        n += l;
    }
    fclose(f);
    *len = n;
    return g;
}

static char complement(char c)
{
    switch (c) {
    case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; case 'T': return 'A';
    case 'a': return 't'; case 'c': return 'g'; case 'g': return 'c'; case 't': return 'a';
    default: return c;
    }
}

static size_t other_bytes(const char *s, size_t L)
{
    size_t k = 0;
    for (size_t j = 0; j < L; j++) k += !strchr("ACGTacgt", s[j]);
    return k;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sim_reads GENOME.fa N L SEED > reads.fq\n");
        return 2;
    }
    const unsigned long long n = strtoull(argv[2], NULL, 10);
    const size_t L = strtoul(argv[3], NULL, 10);
    rng ^= strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ull;
    size_t len;
    char *g = read_genome(argv[1], &len);
    if (!g || len < L || L == 0) {
        fprintf(stderr, "sim_reads: %s: cannot read a genome of at least %zu bases\n", argv[1], L);
        return 1;
    }
    char *r = malloc(L + 1), *q = malloc(L + 1);
    memset(q, 'I', L);
    q[L] = r[L] = 0;
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    for (unsigned long long i = 0; i < n; i++) {
        if (next() % 50 == 0) {
            for (size_t j = 0; j < L; j++) r[j] = "ACGT"[next() % 4];
        } else {
            size_t p = next() % (len - L + 1);
            for (int tries = 0; tries < 100 && other_bytes(g + p, L) > 2; tries++) p = next() % (len - L + 1);
            const int minus = next() & 1;
            for (size_t j = 0; j < L; j++) r[j] = minus ? complement(g[p + L - 1 - j]) : g[p + j];
            for (int e = (int)(next() % 4); e > 0; e--) r[next() % L] = "ACGT"[next() % 4];
        }
        printf("@r%llu\n%s\n+\n%s\n", i + 1, r, q);
    }
    free(r), free(q), free(g);
    return fflush(stdout) == 0 ? 0 : 1;
}
