/* libFuzzer target: every text the console turns into values — card codes,
 * deck names, hex strings, decimal numbers. Whatever parses must print back
 * to the canonical code and parse again to the same value; whatever does not
 * parse leaves its output untouched; formatting any 16-bit card id either
 * fails cleanly or round-trips. */
#include <stdbool.h>
#include <string.h>

#include "fairdeal/deck.h"
#include "fairdeal/util.h"
#include "fuzz_support.h"

static void check_card_code(const char *text, size_t len, fd_deck_kind kind)
{
    fd_card card = 0xBEEF;
    const fd_status st = fd_card_parse(text, len, kind, &card);
    if (st != FD_OK) {
        FUZZ_CHECK(card == 0xBEEF);
        return;
    }
    FUZZ_CHECK(card < FD_DECK_MAX_CARDS); /* a face: copy 0 */
    char code[FD_CARD_CODE_SIZE];
    FUZZ_CHECK(fd_card_format(card, kind, code) == FD_OK);
    const size_t code_len = strlen(code);
    FUZZ_CHECK(code_len >= 2u && code_len < FD_CARD_CODE_SIZE);
    fd_card again = 0;
    FUZZ_CHECK(fd_card_parse(code, code_len, kind, &again) == FD_OK && again == card);
    /* the canonical code is the input up to letter case */
    FUZZ_CHECK(code_len == len);
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'a' && c <= 'z') {
            c = (char)(c - 'a' + 'A');
        }
        FUZZ_CHECK(c == code[i]);
    }
}

static void check_card_id(fd_card card, fd_deck_kind kind)
{
    char code[FD_CARD_CODE_SIZE];
    memset(code, 0x55, sizeof code);
    if (fd_card_format(card, kind, code) != FD_OK) {
        return;
    }
    const char *nul = memchr(code, '\0', sizeof code);
    FUZZ_CHECK(nul != NULL);
    const size_t len = (size_t)(nul - code);
    FUZZ_CHECK(len >= 2u);
    fd_card face = 0;
    FUZZ_CHECK(fd_card_parse(code, len, kind, &face) == FD_OK);
    fd_card want = (fd_card)(card & ((1u << FD_CARD_COPY_SHIFT) - 1u));
    if (kind == FD_DECK_FRENCH && want == 53u) {
        want = 52u; /* both jokers print as "JK", which parses to the first */
    }
    FUZZ_CHECK(face == want);
    FUZZ_CHECK((card >> FD_CARD_COPY_SHIFT) < FD_SHOE_MAX_DECKS);
}

static void check_hex(const char *text, size_t len)
{
    uint8_t bin[64];
    memset(bin, 0x33, sizeof bin);
    size_t n = 12345;
    const fd_status st = fd_hex_decode(text, len, bin, sizeof bin, &n);
    if (st != FD_OK) {
        FUZZ_CHECK(n == 12345);
        return;
    }
    FUZZ_CHECK(n == len / 2u && n <= sizeof bin);
    char back[2u * sizeof bin + 1u];
    FUZZ_CHECK(fd_hex_encode(bin, n, back, sizeof back) == FD_OK);
    FUZZ_CHECK(strlen(back) == len);
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'F') {
            c = (char)(c - 'A' + 'a');
        }
        FUZZ_CHECK(c == back[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    const uint8_t sel = fuzz_u8(&in);
    const fd_deck_kind kind = (fd_deck_kind)(1u + sel % 3u);
    const fd_card id = fuzz_u16(&in);
    size_t len;
    const char *text = (const char *)fuzz_bytes(&in, 200, &len);
    check_card_code(text, len, kind);
    check_card_id(id, kind);
    check_hex(text, len);
    fd_deck_kind parsed = (fd_deck_kind)0;
    if (fd_deck_parse_kind(text, len, &parsed) == FD_OK) {
        FUZZ_CHECK(parsed == FD_DECK_FRENCH || parsed == FD_DECK_SPANISH40 || parsed == FD_DECK_SPANISH48);
    } else {
        FUZZ_CHECK(parsed == (fd_deck_kind)0);
    }
    char dec[10];
    const uint32_t v = (uint32_t)id * 65599u + sel;
    const size_t dlen = fd_dec_encode(v, dec);
    FUZZ_CHECK(dlen >= 1u && dlen <= 10u);
    uint32_t back = 0;
    for (size_t i = 0; i < dlen; i++) {
        FUZZ_CHECK(dec[i] >= '0' && dec[i] <= '9');
        back = back * 10u + (uint32_t)(dec[i] - '0');
    }
    FUZZ_CHECK(back == v);
    return 0;
}
