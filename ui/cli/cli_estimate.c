/* cli_estimate.c — `repview pairs --estimate`: the cost of the bucket path told
 * before running it (rv_pairs_estimate, pairs_estimate.c), as two small TSV tables. */
#include <stdio.h>
#include "repview/common.h"
#include "repview/pairs.h"
#include "cli.h"

int cli_pairs_estimate(const char *file, const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_estimate_opts_t *eo)
{
    rv_estimate_t e;
    if (rv_pairs_estimate(s, o, eo, &e) < 0) return cli_data_error();
    printf("# repview pairs --estimate %s -l %llu: %s; %llu of %llu blocks of %llu buckets run "
           "(%.1f%% of their mass, %d round%s) in %.2f s\n",
           file, (unsigned long long)o->min_len, e.exact ? "every bucket run, exact" : "sampled",
           (unsigned long long)e.blocks_run, (unsigned long long)e.blocks, (unsigned long long)e.buckets,
           100 * e.share_run, e.rounds, e.rounds == 1 ? "" : "s", e.estimate_s);
    printf("#quantity\tvalue\n");
    printf("pairs\t%.0f\n", e.pairs);
    printf("pairs_rel_se\t%.4f\n", e.pairs > 0 ? e.pairs_se / e.pairs : 0);
    printf("output_bytes\t%.0f\n", e.out_bytes);
    printf("serial_s\t%.2f\n", e.serial_s);
    printf("read_s\t%.2f\n", e.read_s);
    printf("read_ranks_s\t%.2f\n", e.read_ranks_s);
    printf("plan_s\t%.2f\n", e.plan_s);
    printf("plan_one_s\t%.2f\n", e.plan_one_s);
    printf("jobs_s\t%.2f\n", e.jobs_s);
    printf("merge_s\t%.2f\n", e.merge_s);
    printf("text_pass_s\t%.3f\n", e.scan_s);
    printf("map_pass_s\t%.3f\n", e.map_pass_s);
    printf("sample_lists\t%d\n", e.listed);
    printf("lists_fill_s\t%.4f\n", e.fill_cpu_s);
    printf("cpu_inflation\t%.2f\n", e.cpu_inflation);
    printf("first_touch_ns\t%.1f\n", e.touch_s * 1e9);
    printf("contention\t%.2f\n", e.contention);
    printf("#workers\tpredicted_wall_s\tspeedup\tefficiency\tpeak_rss_per_rank_GB\n");
    for (int i = 0; i < e.n_rows; i++) {
        const rv_estimate_row_t *r = &e.rows[i];
        printf("%d\t%.2f\t%.2f\t%.2f\t%.3f\n", r->workers, r->wall_s, r->speedup, r->efficiency,
               (double)r->peak_bytes / 1e9);
    }
    rv_estimate_free(&e);
    return RV_EXIT_OK;
}
