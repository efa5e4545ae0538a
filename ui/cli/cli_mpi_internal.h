/* cli_mpi_internal.h — what cli_mpi.c (MPI's start and end), cli_mpi_host.c (the
 * ranks of one host and what they share) and cli_mpi_jobs.c (the job loop, files
 * to rank 0) share beside cli.h's calls.  Only with MPI built in (RV_HAVE_MPI). */
#ifndef REPVIEW_CLI_MPI_INTERNAL_H
#define REPVIEW_CLI_MPI_INTERNAL_H

#if RV_HAVE_MPI
#include <mpi.h>
#include <time.h>

/* The pieces bytes go in from rank to rank (cli_mpi_jobs.c), and those in which a
 * rank without room for the records takes them all the same (cli_mpi_host.c). */
enum { CHUNK = 4 << 20 };

/* Wait for a non-blocking collective without spinning (see wait_for,
 * cli_mpi_jobs.c): 0, or -1 when MPI failed. */
static inline int wait_quietly(MPI_Request *req)
{
    int done = 0;
    for (unsigned us = 50; ; us = us < 2000 ? us * 2 : 2000) {
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
        if (done) return 0;
        struct timespec ts = {0, (long)us * 1000};
        nanosleep(&ts, NULL);
    }
}

/* cli_mpi_init's (cli_mpi_host.c): the ranks grouped by host (every rank a host of
 * its own with REPVIEW_MPI_HOSTS_APART=1) and the world ranks of this host's
 * gathered.  NULL, or why not (a failure cli_mpi_init ends every rank for). */
const char *cli_mpi_host_group(int rank);
/* cli_mpi_finalize's, past its barrier: the host's windows (counts, job map or
 * lists, text) and its communicator freed. */
void cli_mpi_host_free(void);
/* cli_mpi_finalize's, before its barrier: the thread of cli_mpi_drop_windows
 * joined, where one was started. */
void cli_mpi_drop_join(void);
/* Is world rank r on this host?  (cli_mpi_recv_file opens such a rank's files in
 * place.) */
int cli_mpi_on_this_host(int r);
#endif

#endif
