/* cli_mpi_host.c — the ranks of one host under mpirun: grouped as MPI
 * starts, the input read once per host into a window of memory they share, rank
 * 0's bucket plan (its counts in such a window) and the plan's job map or lists
 * shared the same way, and the windows' pages dropped and freed at the end.
 * Built with MPI when mpicc is found (RV_HAVE_MPI); otherwise a host is this
 * process alone. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "repview/common.h"
#include "cli.h"
#include "cli_mpi_internal.h"

#if RV_HAVE_MPI

/* The ranks of this host: their communicator, this rank's index among them, and
 * their world ranks; the window holding the host's one copy of the text. */
static MPI_Comm node = MPI_COMM_NULL;
static int node_rank, node_size, *node_world;
static MPI_Win text_win = MPI_WIN_NULL, map_win = MPI_WIN_NULL, count_win = MPI_WIN_NULL;

const char *cli_mpi_host_group(int rank)
{
    /* REPVIEW_MPI_HOSTS_APART=1 (tests): every rank a host of its own, as on a cluster */
    const char *apart = getenv("REPVIEW_MPI_HOSTS_APART");
    if ((apart && *apart == '1' ? MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &node)
                                : MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) !=
        MPI_SUCCESS)
        return "cannot group the ranks by host";
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_size);
    if (!(node_world = malloc((size_t)node_size * sizeof *node_world))) return "out of memory";
    MPI_Allgather(&rank, 1, MPI_INT, node_world, 1, MPI_INT, node);
    return NULL;
}

void cli_mpi_host_free(void)
{
    if (count_win != MPI_WIN_NULL) MPI_Win_free(&count_win);
    if (map_win != MPI_WIN_NULL) MPI_Win_free(&map_win);
    if (text_win != MPI_WIN_NULL) MPI_Win_free(&text_win);
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    free(node_world);
    node_world = NULL;
}

void cli_mpi_host_workers(int *worker, int *workers)
{
    int with0 = node_world && node_world[0] == 0; /* the host ranks are in world order */
    *worker = node_rank - with0;
    *workers = node_size - with0;
}

int cli_mpi_host_leader(void) { return node_rank == 0; }

int cli_mpi_on_this_host(int r)
{
    for (int i = 0; node_world && i < node_size; i++)
        if (node_world[i] == r) return 1;
    return 0;
}

/* The pages of the host's windows (text, job lists or map, counts) out of this
 * rank's page tables: madvise(MADV_DONTNEED) on a shared mapping drops the
 * mappings, not the bytes (a later read maps them again).  Unmapping them in
 * MPI_Win_free takes 0.14 s at the end of a 16-rank run, after rank 0's merge; a
 * rank that drops them while it waits for the others pays it then.  The ranges
 * are found on the calling thread (MPI is serialized), the drop may run on a
 * thread of its own. */
static struct {
    uintptr_t lo[3], hi[3];
    pthread_t th;
    int started;
} drop;

static void *drop_main(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        if (drop.hi[i] > drop.lo[i]) (void)madvise((void *)drop.lo[i], drop.hi[i] - drop.lo[i], MADV_DONTNEED);
    return NULL;
}

void cli_mpi_drop_windows(int now)
{
    const char *keep = getenv("REPVIEW_MPI_KEEP_PAGES"); /* benchmarks: the drop left to MPI_Win_free */
    /* a host of one rank has its windows in private memory (Open MPI's osc/sm
     * allocates them with malloc then), where the drop would zero them */
    if ((keep && *keep == '1') || node_size < 2 || drop.started) return;
    const MPI_Win wins[3] = {text_win, map_win, count_win};
    const long ps = sysconf(_SC_PAGESIZE);
    const uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
    for (int i = 0; i < 3; i++) {
        MPI_Aint size = 0;
        int disp;
        uint8_t *base = NULL;
        drop.lo[i] = drop.hi[i] = 0;
        if (wins[i] == MPI_WIN_NULL || MPI_Win_shared_query(wins[i], 0, &size, &disp, &base) != MPI_SUCCESS || !base ||
            size <= 0)
            continue;
        drop.lo[i] = ((uintptr_t)base + page - 1) & ~(page - 1); /* whole pages of the window only */
        drop.hi[i] = ((uintptr_t)base + (uintptr_t)size) & ~(page - 1);
    }
    if (now || pthread_create(&drop.th, NULL, drop_main, NULL) != 0) {
        drop_main(NULL);
        drop.started = -1; /* done: once a run */
    } else {
        drop.started = 1; /* cli_mpi_finalize joins it */
    }
}

void cli_mpi_drop_join(void)
{
    if (drop.started == 1) pthread_join(drop.th, NULL);
    drop.started = 0;
}

/* The host's first rank reads the input with every core of the host while the
 * others wait without spinning.  All ranks of the host make one shared window
 * (MPI_Win_allocate_shared) whose size the first rank sends them as soon as it
 * knows it: its parallel encoder writes the text straight into the window
 * (rv_seq_load_placed; a text read serially is copied there after), and with
 * both strands the reverse complement follows it in place.  Then it sends the
 * records (rv_seq_pack) and the others build their sequence over the window.  A
 * window size of 0 means the first rank could not read the input, a records size
 * of 0 that it failed after the window was made.  A rank that must not repeat the
 * reader's error gets *quiet set; *shared is set once every rank of the host has
 * the window. */
typedef struct {
    int strands, made, failed;
    uint8_t *base;
} window_t;

/* The first rank's side: the size to the others, then the window with them. */
static int make_window(window_t *w, uint64_t bytes)
{
    w->made = 1;
    for (int r = 1; r < node_size; r++) cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
    if (MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, node, &w->base, &text_win) != MPI_SUCCESS) {
        w->failed = 1;
        return rv_error("mpi", "cannot share the text between the ranks of a host");
    }
    return 0;
}

/* rv_seq_place_fn: the window, with room for both strands where asked. */
static uint8_t *place_text(void *ud, uint64_t n, uint64_t *room)
{
    window_t *w = ud;
    uint64_t bytes = w->strands && n ? 2 * n + 1 : n;
    if (make_window(w, bytes ? bytes : 1) < 0) return NULL;
    *room = bytes;
    return w->base;
}

static rv_seq_t *lead_host(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *shared)
{
    window_t w = {strands, 0, 0, NULL};
    void *pack = NULL;
    uint64_t bytes = 0;
    rv_seq_t *s = rv_seq_load_placed(path, alpha, 0, place_text, &w);
    if (s && strands && rv_seq_add_reverse(s, 0) < 0) rv_seq_free(s), s = NULL;
    if (s && !w.made && make_window(&w, s->n ? s->n : 1) == 0) { /* read serially: copied */
        rv_copy_threads(w.base, s->text, s->n, 0); /* every core of the host: 3 GB take 2 s on one */
        free(s->owned_text);
        s->owned_text = NULL;
        s->text = w.base;
    }
    if (s && w.failed) rv_seq_free(s), s = NULL;
    if (s && rv_seq_pack(s, &pack, &bytes) < 0) rv_seq_free(s), s = NULL;
    if (!w.made) { /* nothing read: no window for anybody */
        for (int r = 1; r < node_size; r++) cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
        return NULL;
    }
    if (!w.failed) {
        *shared = 1; /* every rank of the host has it */
        MPI_Win_lock_all(MPI_MODE_NOCHECK, text_win);
        MPI_Win_sync(text_win); /* the stores are seen by the ranks that get the records */
        MPI_Win_unlock_all(text_win);
    }
    for (int r = 1; r < node_size; r++) {
        cli_mpi_send_bytes(node_world[r], &bytes, sizeof bytes);
        if (bytes) cli_mpi_send_bytes(node_world[r], pack, bytes);
    }
    free(pack);
    if (s && !keep_raw) { /* the bytes as read: only for display */
        free(s->owned_raw);
        s->owned_raw = NULL;
        s->raw = NULL;
    }
    return s;
}

/* The other ranks' side: a size from the host's first rank, 0 when it failed
 * (its message is its own: *quiet).  0, or -1. */
static int recv_size(const char *path, uint64_t *bytes, int *quiet)
{
    if (cli_mpi_recv_bytes(node_world[0], bytes, sizeof *bytes) < 0) return -1;
    if (*bytes) return 0;
    *quiet = 1;
    return rv_error(path, "the host's first rank could not read it");
}

static rv_seq_t *load_on_host(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet, int *shared)
{
    *quiet = 0;
    if (node_rank == 0) return lead_host(path, alpha, strands, keep_raw, shared);
    uint64_t bytes = 0;
    if (recv_size(path, &bytes, quiet) < 0) return NULL;
    uint8_t *base = NULL;
    if (MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, node, &base, &text_win) != MPI_SUCCESS) {
        rv_error("mpi", "cannot share the text between the ranks of a host");
        return NULL;
    }
    *shared = 1;
    if (recv_size(path, &bytes, quiet) < 0) return NULL;
    /* test hook: REPVIEW_TEST_RECORDS_OOM=R, rank R has no room for the records */
    const char *oom = getenv("REPVIEW_TEST_RECORDS_OOM");
    int world = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    void *pack = oom && *oom && atoi(oom) == world ? NULL : malloc(bytes);
    int ok = pack != NULL;
    if (!ok) { /* the records are taken all the same, piece by piece: the first
                * rank's send must end for the job to reach the failure */
        static char sink[CHUNK];
        rv_error("mpi", "out of memory");
        for (uint64_t off = 0; off < bytes; off += CHUNK)
            if (cli_mpi_recv_bytes(node_world[0], sink, bytes - off < CHUNK ? bytes - off : CHUNK) < 0) break;
    }
    if (ok && cli_mpi_recv_bytes(node_world[0], pack, bytes) < 0) ok = 0;
    rv_seq_t *s = NULL;
    if (ok) {
        MPI_Aint wsize = 0;
        int disp;
        uint8_t *text = NULL;
        MPI_Win_shared_query(text_win, 0, &wsize, &disp, &text);
        MPI_Win_lock_all(MPI_MODE_NOCHECK, text_win);
        MPI_Win_sync(text_win);
        MPI_Win_unlock_all(text_win);
        s = rv_seq_unpack(pack, bytes, text, (uint64_t)wsize);
    }
    free(pack);
    return s;
}

/* Each host's first rank read the input itself: every host's text must be rank
 * 0's (a file that differs between the hosts' file systems would give wrong
 * pairs).  Compared only with more than one host; every rank past load_on_host
 * calls it (s NULL where the rank failed).  0, or -1 with a message. */
static int same_text_everywhere(const rv_seq_t *s, const char *path)
{
    int lead = node_rank == 0 && s, hosts = 0, world, bad, worst = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    if (MPI_Allreduce(&lead, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    if (hosts < 2) return 0;
    uint64_t mine[2] = {0, 0}, ref[2];
    if (lead) mine[0] = s->n, mine[1] = rv_seq_text_digest(s, 0);
    memcpy(ref, mine, sizeof ref);
    if (MPI_Bcast(ref, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    bad = lead && (mine[0] != ref[0] || mine[1] != ref[1]) ? world : -1;
    if (MPI_Allreduce(&bad, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rv_error("mpi", "a rank stopped answering");
    if (worst >= 0)
        return rv_error(path, "the host of rank %d read another text than rank 0's (the file differs between the hosts)",
                        worst);
    return 0;
}

/* Every rank votes on its read: a host that could not read the input must not
 * leave the others in collectives it skips (a rank of a host whose file was
 * missing made the next Allreduce fail with MPI_ERR_TRUNCATE, or lr spin).  When
 * a rank failed, the lowest that has a message of its own (rank 0 first; the
 * other ranks of a failed host only know that their first rank failed) prints it
 * and ends the job; the others wait to be ended.  Returns when every rank read. */
static void read_or_end(const rv_seq_t *s, int quiet)
{
    int world, size, key, first = INT_MAX;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    key = s ? INT_MAX : quiet ? size + world : world;
    if (MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "repview: rank %d: mpi: a rank stopped answering\n", world);
        cli_mpi_abort(RV_EXIT_DATA);
    }
    if (first == INT_MAX) return;
    if (first == key) cli_mpi_say_and_abort(world, RV_EXIT_DATA);
    cli_mpi_await_end(60); /* ended by that rank's MPI_Abort */
    cli_mpi_abort(RV_EXIT_DATA);
}

rv_seq_t *cli_mpi_load_seq(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet)
{
    int shared = 0;
    rv_seq_t *s = load_on_host(path, alpha, strands, keep_raw, quiet, &shared);
    read_or_end(s, *quiet);
    if (same_text_everywhere(s, path) < 0) { /* every rank knows: rank 0 says it */
        int world;
        MPI_Comm_rank(MPI_COMM_WORLD, &world);
        *quiet = world != 0;
        rv_seq_free(s);
        return NULL;
    }
    return s;
}

/* Broadcast `bytes` from the first rank of comm in pieces (into a sink where dst
 * is NULL: a rank out of memory joins all the same).  0, or -1 with a message. */
static int bcast_pieces(MPI_Comm comm, void *dst, uint64_t bytes)
{
    static uint8_t sink[1 << 20];
    for (uint64_t off = 0; off < bytes;) {
        int len = bytes - off < sizeof sink ? (int)(bytes - off) : (int)sizeof sink;
        if (MPI_Bcast(dst ? (uint8_t *)dst + off : sink, len, MPI_BYTE, 0, comm) != MPI_SUCCESS)
            return rv_error("mpi", "a rank stopped answering");
        off += (uint64_t)len;
    }
    return 0;
}

/* The counts (8 bytes a code: 32 MB for DNA's 4^11 codes) from rank 0 to every
 * rank, without a copy for each: one window on each host (a broadcast among the
 * hosts' first ranks fills the other hosts'), read by the ranks of the host until
 * cli_mpi_finalize (a broadcast to 15 ranks of one host takes 0.4 s).  Returns
 * the window's copy (rank 0 copies `mine` in), or NULL with a message. */
static uint64_t *share_counts(uint64_t *mine, uint64_t bytes)
{
    uint8_t *base = NULL;
    MPI_Aint wsize = 0;
    int disp, rc = 0, world;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    if (MPI_Win_allocate_shared(node_rank == 0 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL, node, &base, &count_win) !=
        MPI_SUCCESS) {
        rv_error("mpi", "cannot share the bucket counts");
        return NULL;
    }
    MPI_Win_shared_query(count_win, 0, &wsize, &disp, &base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, count_win);
    if (world == 0) memcpy(base, mine, bytes);
    MPI_Comm leaders = MPI_COMM_NULL;
    if (MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, 0, &leaders) != MPI_SUCCESS) rc = -1;
    if (leaders != MPI_COMM_NULL) {
        int nl = 0;
        MPI_Comm_size(leaders, &nl);
        if (nl > 1) rc = bcast_pieces(leaders, base, bytes); /* world rank 0 leads (key: world order) */
        MPI_Comm_free(&leaders);
    }
    MPI_Win_sync(count_win); /* the leader's stores are seen past the barrier */
    MPI_Request req;
    if (MPI_Ibarrier(node, &req) != MPI_SUCCESS || wait_quietly(&req) < 0) rc = -1;
    MPI_Win_sync(count_win);
    MPI_Win_unlock_all(count_win);
    if (rc < 0 || (uint64_t)wsize != bytes) {
        rv_error("mpi", "a rank stopped answering");
        return NULL;
    }
    return (uint64_t *)base;
}

int cli_mpi_share_plan(rv_bucket_plan_t *plan, int rank, int size, int ok)
{
    (void)size;
    rv_bucket_plan_t head = {0};
    if (rank == 0 && ok) head = *plan;
    /* the first while rank 0 still counts on every core: waited for without spinning */
    MPI_Request req;
    if (MPI_Ibcast(&head, sizeof head, MPI_BYTE, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_quietly(&req) < 0)
        return rv_error("mpi", "a rank stopped answering");
    if (rank == 0) {
        if (!ok) return -1;
    } else {
        *plan = head;
        plan->count = plan->own_count = NULL, plan->jobs = NULL; /* rank 0's pointers */
        plan->map = NULL, plan->own_map = NULL, plan->map_width = 0;
        plan->lists = NULL, plan->own_lists = NULL;
        /* the groups of split buckets are for cutting the plan again (rank 0's):
         * a job names its own part */
        plan->split = NULL, plan->units = NULL, plan->n_split = plan->n_units = 0;
        if (!plan->n_codes) return rv_error("mpi", "rank 0 could not plan the buckets");
        plan->jobs = malloc((plan->n_jobs ? plan->n_jobs : 1) * sizeof *plan->jobs);
        if (!plan->jobs) rv_error("mpi", "out of memory"); /* joins the sharing all the same */
    }
    /* every rank joins every step (a rank out of memory receives into a sink) */
    int bad = rank > 0 && !plan->jobs;
    uint64_t *shared = share_counts(plan->count, plan->n_codes * sizeof *plan->count);
    int rc = bcast_pieces(MPI_COMM_WORLD, bad ? NULL : plan->jobs, plan->n_jobs * sizeof *plan->jobs);
    if (shared) { /* one copy on the host: rank 0 drops its own */
        free(plan->own_count);
        plan->count = shared, plan->own_count = NULL;
    }
    return !shared || rc < 0 || bad ? -1 : 0;
}

/* The plan's job lists, else its job map (buckets.h), in a window shared by the
 * ranks of a host, when some rank reads them (`want`: this one) and they fit
 * `bytes`: each rank of the host fills a share of the positions in proportion to
 * its threads (whole blocks for the lists), then all wait for all.  Without either
 * (or when a rank failed to fill its share) the jobs scan the text: the answer is
 * the same.  Every rank calls it. */
void cli_mpi_share_map(const rv_seq_t *s, rv_bucket_plan_t *plan, uint64_t bytes, int want, int threads)
{
    int any = 0, width = rv_bucket_map_width(plan);
    MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const int find = rv_bucket_finder(plan, s->n, bytes);
    if (!any || find == RV_BUCKET_FIND_SCAN) return;
    if (find == RV_BUCKET_FIND_LISTS) width = 0; /* the lists, not the map */
    const uint64_t lists = rv_bucket_lists_bytes(plan, s->n);
    int *weight = malloc((size_t)node_size * sizeof *weight);
    if (!weight) { /* the others wait in the gather: end the job rather than hang it */
        fprintf(stderr, "repview: mpi: out of memory\n");
        cli_mpi_abort(RV_EXIT_DATA);
    }
    MPI_Allgather(&threads, 1, MPI_INT, weight, 1, MPI_INT, node);
    uint64_t total = 0, before = 0;
    for (int r = 0; r < node_size; r++) {
        total += (uint64_t)(weight[r] > 0 ? weight[r] : 1);
        if (r < node_rank) before += (uint64_t)(weight[r] > 0 ? weight[r] : 1);
    }
    uint64_t mine = (uint64_t)(threads > 0 ? threads : 1), n = s->n;
    free(weight);
    /* the shares in positions (the map) or in blocks (the lists) */
    const uint64_t unit = width ? 1 : RV_BUCKET_BLOCK, units = (n + unit - 1) / unit;
    uint64_t lo = (uint64_t)((unsigned __int128)units * before / total) * unit;
    uint64_t hi = (uint64_t)((unsigned __int128)units * (before + mine) / total) * unit;
    const uint64_t want_size = width ? n * (uint64_t)width : lists;
    uint8_t *base = NULL;
    MPI_Aint size = node_rank == 0 ? (MPI_Aint)want_size : 0;
    if (MPI_Win_allocate_shared(size, 1, MPI_INFO_NULL, node, &base, &map_win) != MPI_SUCCESS) return;
    MPI_Aint wsize = 0;
    int disp, ok, all = 0;
    MPI_Win_shared_query(map_win, 0, &wsize, &disp, &base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, map_win);
    ok = (uint64_t)wsize == want_size && (width ? rv_bucket_map_fill(s, plan, base, lo, hi, threads)
                                                : rv_bucket_lists_fill(s, plan, base, lo, hi, threads)) == 0;
    MPI_Win_sync(map_win); /* the stores are seen by the ranks past the reduction */
    /* the ranks done with their share wait asleep for rank 0, which fills its
     * larger share on every core */
    MPI_Request req;
    if (MPI_Iallreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node, &req) != MPI_SUCCESS || wait_quietly(&req) < 0) all = 0;
    MPI_Win_sync(map_win);
    MPI_Win_unlock_all(map_win);
    if (all && width) rv_bucket_plan_use_map(plan, base);
    else if (all) rv_bucket_plan_use_lists(plan, base);
}

#else /* built without MPI */

void cli_mpi_drop_windows(int now) { (void)now; }
void cli_mpi_host_workers(int *worker, int *workers) { *worker = -1, *workers = 0; }
int cli_mpi_host_leader(void) { return 1; }
rv_seq_t *cli_mpi_load_seq(const char *path, rv_alpha_t alpha, int strands, int keep_raw, int *quiet)
{
    (void)path; (void)alpha; (void)strands; (void)keep_raw;
    *quiet = 0;
    rv_error("mpirun", "this repview was built without MPI");
    return NULL;
}
int cli_mpi_share_plan(rv_bucket_plan_t *plan, int rank, int size, int ok) { return -1; }
void cli_mpi_share_map(const rv_seq_t *s, rv_bucket_plan_t *plan, uint64_t bytes, int want, int threads) {}

#endif
