/* cli_lce.c — `repview lce FILE POS1 POS2`: one integer, the longest common
 * extension of the two positions (stopping at breakers). */
#include "repview/common.h"
#include "repview/index.h"
#include "repview/lce.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview lce [OPTIONS] FILE POS1 POS2\n\n"
    "Print the length of the longest common prefix of the suffixes starting at POS1\n"
    "and POS2 (1-based, NAME:POS, or POS when FILE has one record), stopping at\n"
    "breakers (N, IUPAC codes, record ends).  A breaker position gives 0.\n";

int cli_lce(int argc, char **argv)
{
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "lce", "", NULL, usage, NULL, NULL, &c, &code);
    if (i < 0) return code;
    if (argc - i != 3) return cli_usage_error("lce", "expected FILE POS1 POS2");
    c.verify = RV_SEC_BIT(RV_SEC_TEXT); /* it scans the text only */
    c.text_only = 1;
    rv_index_t *x;
    rv_seq_t *owned;
    const rv_seq_t *s = cli_open_seq(argv[i], &c, &x, &owned);
    if (!s) return RV_EXIT_DATA;
    int64_t g1 = rv_seq_parse_pos(s, argv[i + 1]);
    int64_t g2 = g1 < 0 ? -1 : rv_seq_parse_pos(s, argv[i + 2]);
    int rc = RV_EXIT_OK;
    if (g1 < 0 || g2 < 0) {
        rc = cli_arg_error();
    } else {
        int64_t t1 = rv_seq_global_to_text(s, (uint64_t)g1), t2 = rv_seq_global_to_text(s, (uint64_t)g2);
        uint64_t v = t1 < 0 || t2 < 0 ? 0
                     : s->text ? rv_lce_scan(s, (uint64_t)t1, (uint64_t)t2)
                               : rv_index_lce(x, (uint64_t)t1, (uint64_t)t2); /* the file's compact text */
        printf("%llu\n", (unsigned long long)v);
    }
    rv_index_free(x);
    rv_seq_free(owned);
    return rc;
}
