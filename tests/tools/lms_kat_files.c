/* Writes RFC 8554 Appendix F's test cases (tests/unit/lms_vectors.h, the one
 * copy of their hex) as binary files for the command-line tests:
 * DIR/tc{1,2}.{pub,msg,sig}. usage: lms_kat_files DIR */
#include <stdio.h>

#include "lms_vectors.h"

static int put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "lms_kat_files: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: lms_kat_files DIR\n", stderr);
        return 2;
    }
    return put(argv[1], "tc1.pub", rfc8554_tc1_pub, sizeof rfc8554_tc1_pub) |
           put(argv[1], "tc1.msg", rfc8554_tc1_msg, sizeof rfc8554_tc1_msg) |
           put(argv[1], "tc1.sig", rfc8554_tc1_sig, sizeof rfc8554_tc1_sig) |
           put(argv[1], "tc2.pub", rfc8554_tc2_pub, sizeof rfc8554_tc2_pub) |
           put(argv[1], "tc2.msg", rfc8554_tc2_msg, sizeof rfc8554_tc2_msg) |
           put(argv[1], "tc2.sig", rfc8554_tc2_sig, sizeof rfc8554_tc2_sig);
}
