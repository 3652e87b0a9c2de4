/* A bare-metal reproducible deal: the same seed as examples/seeded-deal, so
 * the Cortex-M4 must deal exactly the cards the host deals. Exit status 0
 * when it does, 1 when the cards differ, 2 on a library error. */
#include <string.h>

#include <fairdeal/fairdeal.h>

#include "board.h"

static const char expected[] = "hand 1: 3H 5C 8S 4H 8H\nhand 2: 5D 6C JC QC TC\n";

int app_main(void)
{
    static const uint8_t seed[FD_SEED_BYTES] = "fairdeal example seed, 32 bytes";
    static fd_shoe shoe;
    static char text[sizeof expected + 16];
    fd_chacha_drbg state;
    fd_rng rng;
    fd_status st = fd_rng_from_seed(&state, seed, &rng);
    if (st == FD_OK) {
        st = fd_shoe_init(&shoe, FD_DECK_FRENCH, 1, 0);
    }
    if (st == FD_OK) {
        st = fd_shoe_shuffle(&shoe, &rng);
    }
    for (char hand = '1'; hand <= '2' && st == FD_OK; hand++) {
        const char head[] = {'h', 'a', 'n', 'd', ' ', hand, ':', '\0'};
        strcat(text, head);
        for (int i = 0; i < 5 && st == FD_OK; i++) {
            fd_card card;
            char code[FD_CARD_CODE_SIZE];
            st = fd_shoe_deal(&shoe, &card);
            if (st == FD_OK) {
                st = fd_card_format(card, FD_DECK_FRENCH, code);
            }
            if (st == FD_OK) {
                strcat(text, " ");
                strcat(text, code);
            }
        }
        strcat(text, "\n");
    }
    fd_chacha_drbg_uninstantiate(&state);
    if (st != FD_OK) {
        board_print(fd_status_name(st));
        return 2;
    }
    board_print(text);
    return strcmp(text, expected) == 0 ? 0 : 1;
}
