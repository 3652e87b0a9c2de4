#include "fairdeal/records.h"

#include "word.h"

bool fd_records_keep(void *policy, const fd_journal_record *record)
{
    const fd_records_policy *p = policy;
    if (p == NULL || record == NULL || record->len < 4u) {
        return false;
    }
    uint32_t round = fd_load_le32(record->payload);
    uint32_t age = p->newest_round >= round ? p->newest_round - round : 0u;
    switch (record->type) {
    case FD_REC_ROUND_OPENED: return age < p->hands || record->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
    case FD_REC_ROUND_SECRET:
    case FD_REC_CLIENT_SEED:
    case FD_REC_SEEDS_CLOSED:
    case FD_REC_CARDS_DEALT:
    case FD_REC_ROUND_CLOSED: return age < p->hands;

    case FD_REC_REVEAL: return age < p->summaries;
    default: return false;
    }
}

bool fd_records_keep_rules(void *rules, const fd_journal_record *record)
{
    fd_records_rules *r = rules;
    if (r == NULL || record == NULL) {
        return false;
    }
    switch (record->type) {
    case FD_REC_POWER_ON:
    case FD_REC_TIME_SET:
    case FD_REC_FAULT:
    case FD_REC_SELFTEST: return r->event_floor != 0u && record->orig_seq >= r->event_floor;
    case FD_REC_SEED_FILE:
        return r->seed_file_seq != 0u && record->orig_seq == r->seed_file_seq &&
               record->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
    default: return fd_records_keep(&r->rounds, record);
    }
}
