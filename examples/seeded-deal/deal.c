/* A reproducible deal: the same 32-byte seed gives the same cards on every
 * machine and in every language that follows fairdeal/seeded.h. (A real
 * game seeds from a secret of full entropy, not from readable text.) */
#include <stdio.h>

#include <fairdeal/fairdeal.h>

int main(void)
{
    static const uint8_t seed[FD_SEED_BYTES] = "fairdeal example seed, 32 bytes";
    static fd_shoe shoe;
    fd_chacha_drbg state;
    fd_rng rng;
    fd_status st = fd_rng_from_seed(&state, seed, &rng);
    if (st == FD_OK) {
        st = fd_shoe_init(&shoe, FD_DECK_FRENCH, 1, 0);
    }
    if (st == FD_OK) {
        st = fd_shoe_shuffle(&shoe, &rng);
    }
    for (int hand = 1; hand <= 2 && st == FD_OK; hand++) {
        printf("hand %d:", hand);
        for (int i = 0; i < 5 && st == FD_OK; i++) {
            fd_card card;
            char code[FD_CARD_CODE_SIZE];
            st = fd_shoe_deal(&shoe, &card);
            if (st == FD_OK) {
                st = fd_card_format(card, FD_DECK_FRENCH, code);
            }
            if (st == FD_OK) {
                printf(" %s", code);
            }
        }
        printf("\n");
    }
    fd_chacha_drbg_uninstantiate(&state);
    if (st != FD_OK) {
        fprintf(stderr, "fairdeal %s: %s\n", FAIRDEAL_VERSION_STRING, fd_status_name(st));
        return 1;
    }
    return 0;
}
