/* rvx_format.h — the on-disk layout of a .rvx file, shared by its writer
 * (rvx_write.c) and its reader (rvx.c).  See the top of rvx.c for the design. */
#ifndef REPVIEW_ENGINE_RVX_FORMAT_H
#define REPVIEW_ENGINE_RVX_FORMAT_H

#include <stdint.h>
#include <xxhash.h>

#define RVX_MAGIC "RVXINDEX"
#define RVX_VERSION 6u          /* 3: block hashes, table written last; 4: ctime and inode;
                                 * 5: no ISA and LLRc, compact text, sequence and runs;
                                 * 6: the SA of a wide index in 5 bytes a rank (SA40) */
#define RVX_VERSION_PLAIN 5u    /* what a file without SA40 is written as */
#define RVX_VERSION_OLDEST 4u   /* the oldest format still read */
#define RVX_TABLE_CAP 96u       /* entries reserved after the header */
#define RVX_SEC_ALIGN 4096u     /* sections start on page boundaries */
#define RVX_BLOCK_DEFAULT (8u << 20)

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint32_t wide, alpha, sigma, n_sections;
    uint64_t n, glen, n_rec, n_seg;
    uint64_t src_size;
    int64_t src_mtime_ns, src_ctime_ns; /* the input's fingerprint (seq.h) */
    uint64_t src_ino;
    uint64_t block_bytes;  /* sections are hashed in blocks of this many bytes */
    uint64_t hash_offset;  /* the block hashes (uint64_t each), after the sections */
    uint64_t n_hashes;
    uint64_t hashes_hash;  /* hash of the block hashes */
    uint64_t table_hash;   /* hash of the n_sections used table entries */
    uint64_t header_hash;  /* hash of this header with header_hash = 0 */
} rvx_header_t;

typedef struct {
    uint32_t id, reserved;
    uint64_t offset, bytes;
    uint64_t first_hash; /* index of the section's first block hash */
} rvx_entry_t;

#define RVX_DATA_START \
    (((uint64_t)sizeof(rvx_header_t) + RVX_TABLE_CAP * sizeof(rvx_entry_t) + RVX_SEC_ALIGN - 1) / \
     RVX_SEC_ALIGN * RVX_SEC_ALIGN)

static inline uint64_t rvx_blocks(uint64_t bytes, uint64_t block) { return (bytes + block - 1) / block; }

/* The hash of block b of section id: the seed ties it to its place, so a block
 * copied elsewhere in the file does not pass. */
static inline uint64_t rvx_block_seed(uint32_t id, uint64_t b) { return ((uint64_t)id << 48) ^ b ^ 0x5256583362ull; }
static inline uint64_t rvx_block_hash(const void *p, uint64_t len, uint32_t id, uint64_t b)
{
    return XXH3_64bits_withSeed(p, (size_t)len, rvx_block_seed(id, b));
}

#endif
