/* Seat players in a random order with the operating system's entropy,
 * health-tested (SP 800-90B) and conditioned before it seeds a DRBG. */
#include <stdio.h>

#include <fairdeal/fairdeal.h>
#include <fairdeal/host_entropy.h>

typedef struct player {
    const char *name;
    unsigned chips;
} player;

int main(void)
{
    player table[] = {{"ada", 120}, {"ben", 80}, {"cleo", 200}, {"dev", 50},  {"eli", 75},
                      {"fay", 300}, {"gus", 10}, {"hana", 90},  {"ivo", 160}, {"jun", 40}};
    const size_t seats = sizeof table / sizeof table[0];
    fd_host_entropy source;
    fd_rng rng;
    fd_status st = fd_host_entropy_open(&source, NULL, &rng);
    if (st == FD_OK) {
        st = fd_shuffle(table, seats, sizeof table[0], &rng);
    }
    fd_host_entropy_close(&source);
    if (st != FD_OK) {
        fprintf(stderr, "no seating: %s\n", fd_status_name(st));
        return 1;
    }
    for (size_t i = 0; i < seats; i++) {
        printf("seat %zu: %s (%u chips)\n", i + 1u, table[i].name, table[i].chips);
    }
    return 0;
}
