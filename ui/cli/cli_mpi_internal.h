/* cli_mpi_internal.h — what cli_mpi_main.c (MPI's start and end), cli_mpi_host.c (the
 * ranks of one host and what they share), cli_mpi_jobs.c (the job loop, files to
 * rank 0) and cli_mpi_msg.c (bytes and counts between ranks, the job's abort)
 * share beside cli.h's calls.  Only with MPI built in (RV_HAVE_MPI).  The files
 * are layered (tests/sh/layers.sh): cli_mpi_main.c calls the others, cli_mpi_jobs.c
 * calls cli_mpi_host.c, and both call cli_mpi_msg.c, which calls only the watch. */
#ifndef REPVIEW_CLI_MPI_INTERNAL_H
#define REPVIEW_CLI_MPI_INTERNAL_H

/* cli_mpi_msg.c's, with or without MPI: this rank's rv_last_error() as the job's
 * one line ('repview: ' on rank 0, 'repview: rank N: ' on the others), then the
 * job's end; and a wait of `seconds` for another rank's abort to end this one
 * (the caller decides what follows when it did not). */
void cli_mpi_say_and_abort(int rank, int code);
void cli_mpi_await_end(int seconds);

#if RV_HAVE_MPI
#include <mpi.h>
#include <time.h>

/* The pieces bytes go in from rank to rank (cli_mpi_msg.c), and those in which a
 * rank without room for the records takes them all the same (cli_mpi_host.c). */
enum { CHUNK = 4 << 20 };

/* The tags of the messages from rank to rank on MPI_COMM_WORLD (the watch has a
 * communicator of its own). */
enum { TAG_ASK = 1, TAG_JOB, TAG_FILE, TAG_COUNT, TAG_BYTES };

/* Wait for a message without spinning: a rank that waits (rank 0 most of the time)
 * must leave its core to the ranks that work, above all when ranks outnumber cores. */
static inline void wait_for(int source, int tag, MPI_Status *st)
{
    int flag = 0;
    for (unsigned us = 50; ; us = us < 2000 ? us * 2 : 2000) {
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag) return;
        struct timespec ts = {0, (long)us * 1000};
        nanosleep(&ts, NULL);
    }
}

/* Wait for a non-blocking collective without spinning (as wait_for): 0, or -1
 * when MPI failed. */
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
