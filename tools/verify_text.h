/* Strict reading of the verifiers' text inputs (fairdeal-tool verify):
 * key=value fields separated by single spaces, exactly the documented keys
 * once each, ASCII decimal numbers (no sign, no leading zero) within range,
 * lower-case hex of a given length, and the docs/VERIFY.md round line
 * (section 10). Every error is one line on stderr, "fairdeal-tool: verify:
 * <context>: <why>", and exit status 1: the reasons use the phrases of the
 * shared table tests/tools/malformed.txt (e.g. "duplicate key", "out of
 * range", "not lower-case hex"). */
#ifndef FD_TOOL_VERIFY_TEXT_H
#define FD_TOOL_VERIFY_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fairdeal/deck.h"
#include "fairdeal/records.h"
#include "fairdeal/round.h"

/* A piece of a line: n bytes at p (not NUL-terminated; may hold any byte). */
typedef struct fd_tool_span {
    const char *p;
    size_t n;
} fd_tool_span;

#define FD_TOOL_MAX_FIELDS 16u

/* The fields of one line, in the order given. */
typedef struct fd_tool_fields {
    size_t count;
    fd_tool_span key[FD_TOOL_MAX_FIELDS];
    fd_tool_span value[FD_TOOL_MAX_FIELDS];
} fd_tool_fields;

/* skipped=P,A-B,...: positions skipped at power loss (docs/PROTOCOL.md
 * "Power loss"), one range per SKIPPED record, ascending and disjoint. */
typedef struct fd_tool_skipped {
    unsigned count;                     /* ranges, 0..FD_REC_SKIPPED_MAX */
    uint16_t first[FD_REC_SKIPPED_MAX]; /* first position of range i */
    uint16_t last[FD_REC_SKIPPED_MAX];  /* last position of range i (>= first) */
} fd_tool_skipped;

/* A VERIFY.md round line, parsed and range-checked (not yet verified). */
typedef struct fd_tool_round {
    fd_round_header header;
    uint8_t secret[FD_ROUND_SECRET_MAX];
    size_t secret_len;
    fd_round_seeds seeds;
    uint8_t commitment[FD_SHA256_SIZE];
    fd_card order[FD_SHOE_MAX_CARDS];
    uint16_t count;
    fd_tool_skipped skipped; /* REVEAL's skipped= (count 0 when absent) */
    fd_tool_fields f;        /* the fields as written (to compare a REVEAL with its SHUFFLE) */
} fd_tool_round;

/* The context of the next error ("line 12", "recall: hand 3"), printf-style. */
void fd_tool_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line "fairdeal-tool: verify: <context>: <why>" on stderr, exit(1). */
_Noreturn void fd_tool_reject(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The span of a NUL-terminated string. */
fd_tool_span fd_tool_str(const char *s);

/* True when s is exactly the NUL-terminated text lit. */
bool fd_tool_is(fd_tool_span s, const char *lit);

/* The next piece of *rest up to sep (or the end); *rest moves past sep.
 * *more is false once the end was reached without sep. */
fd_tool_span fd_tool_next(fd_tool_span *rest, char sep, bool *more);

/* text's fields; rejects a field without '=', a key neither in required nor
 * in optional (NULL-terminated lists), a key twice and a required key
 * missing. An empty text has no fields. */
void fd_tool_fields_parse(fd_tool_span text, const char *const *required, const char *const *optional,
                          fd_tool_fields *f);

/* The value of key (.p == NULL when absent). */
fd_tool_span fd_tool_get(const fd_tool_fields *f, const char *key);

/* A decimal number low..high, what names it in errors. */
uint64_t fd_tool_decimal(const char *what, fd_tool_span s, uint64_t low, uint64_t high);

/* Lower-case hex of low..high bytes into out (room for high); its length. */
size_t fd_tool_hex(const char *what, fd_tool_span s, uint8_t *out, size_t low, size_t high);

/* "kind:decks:jokers", each in range for the kind. */
void fd_tool_shoe(fd_tool_span s, fd_deck_kind *kind, uint8_t *decks, uint8_t *jokers);

/* "SLOT:INDEX" (slot 0..7, in mask) or "none" into the header's beacon. */
void fd_tool_beacon(fd_tool_span s, fd_round_header *h);

/* A client seed "SLOT:HEX" into seeds: slot 0..7 in the header's mask,
 * not yet filled, 1..64 bytes. */
void fd_tool_seed(fd_tool_span s, const fd_round_header *h, fd_round_seeds *seeds);

/* A skipped= value into out: 1..FD_REC_SKIPPED_MAX ranges "P" or "A-B"
 * (A < B), ascending and disjoint, positions 0..cards-1; rejects anything
 * else ("more than 4 ranges", "not ascending", "overlap or are out of
 * order", a number's own reasons). */
void fd_tool_skipped_parse(fd_tool_span s, size_t cards, fd_tool_skipped *out);

/* A round line (docs/VERIFY.md section 10, with REVEAL's optional seq=,
 * head=, label= and skipped=) into r; rejects what is malformed. */
void fd_tool_round_parse(fd_tool_span text, fd_tool_round *r);

/* Rejects a parsed round whose commitment or order the derivation does not
 * give ("commitment does not match", "order does not match"). */
void fd_tool_round_verify(const fd_tool_round *r);

/* Reads one line of in into buf (at most size - 1 bytes, any byte, the
 * line end removed: LF, and a CR before it). False at the end of input;
 * rejects a longer line. */
bool fd_tool_read_line(FILE *in, char *buf, size_t size, size_t *len);

#endif
