/* cli_mpi_msg.c — what goes from rank to rank under mpirun besides the jobs:
 * bytes in pieces and counts, each on its tag, waited for without spinning; and
 * the end of the job from a rank that explained it.  The lowest layer
 * of the MPI files: it calls only the watch (cli_mpi_watch.c).  Built with MPI when
 * mpicc is found (RV_HAVE_MPI); otherwise every call fails. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "repview/common.h"
#include "cli.h"
#include "cli_mpi_internal.h"

#if RV_HAVE_MPI

int cli_mpi_send_bytes(int to, const void *buf, uint64_t bytes)
{
    const char *p = buf;
    for (uint64_t off = 0; off < bytes;) {
        uint64_t k = bytes - off < CHUNK ? bytes - off : CHUNK;
        if (MPI_Send(p + off, (int)k, MPI_BYTE, to, TAG_BYTES, MPI_COMM_WORLD) != MPI_SUCCESS)
            return rv_error("mpi", "rank %d stopped answering", to);
        off += k;
    }
    return 0;
}

int cli_mpi_recv_bytes(int from, void *buf, uint64_t bytes)
{
    char *p = buf;
    MPI_Status st;
    if (bytes) wait_for(from, TAG_BYTES, &st);
    for (uint64_t off = 0; off < bytes;) {
        uint64_t k = bytes - off < CHUNK ? bytes - off : CHUNK;
        if (MPI_Recv(p + off, (int)k, MPI_BYTE, from, TAG_BYTES, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return rv_error("mpi", "rank %d stopped answering", from);
        off += k;
    }
    return 0;
}

int cli_mpi_send_count(uint64_t v)
{
    return MPI_Send(&v, 1, MPI_UINT64_T, 0, TAG_COUNT, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int cli_mpi_recv_count(int from, uint64_t *v)
{
    MPI_Status st;
    wait_for(from, TAG_COUNT, &st);
    return MPI_Recv(v, 1, MPI_UINT64_T, from, TAG_COUNT, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

void cli_mpi_abort(int code)
{
    cli_mpi_watch_failed(); /* the caller printed why (or rank 0 will) */
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
}

#else /* built without MPI */

int cli_mpi_send_count(uint64_t v) { return -1; }
int cli_mpi_send_bytes(int to, const void *buf, uint64_t bytes) { return -1; }
int cli_mpi_recv_bytes(int from, void *buf, uint64_t bytes) { return -1; }
int cli_mpi_recv_count(int from, uint64_t *v) { return -1; }
void cli_mpi_abort(int code) { exit(code); }

#endif

void cli_mpi_say_and_abort(int rank, int code)
{
    char buf[600];
    if (rank == 0) fprintf(stderr, "repview: %s\n", cli_error_text(buf, sizeof buf));
    else fprintf(stderr, "repview: rank %d: %s\n", rank, cli_error_text(buf, sizeof buf));
    cli_mpi_abort(code);
}

void cli_mpi_await_end(int seconds)
{
    for (int i = 0; i < 10 * seconds; i++) {
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
}
