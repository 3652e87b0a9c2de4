/* The device secret (firmware/device_secret.c) on the host flash simulator:
 * blank pages give the marked test secret in development builds and nothing
 * in release builds; PROVISION writes once and never again; a damaged page
 * (bit flip, torn write at a power cut) is refused, never used nor
 * overwritten; keys per purpose. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "device_secret.h"
#include "host_storage.h"

#define PAGE 1024u

static host_flash hf;
static uint8_t mem[PAGE];

static const uint8_t secret_a[FD_DEVICE_SECRET_BYTES] = "0123456789abcdef0123456789abcde";
static const uint8_t secret_b[FD_DEVICE_SECRET_BYTES] = "another device's secret, 32 B..";

static int fresh_page(void **state)
{
    (void)state;
    assert_int_equal(host_flash_open(&hf, mem, PAGE, 1, NULL), FD_OK);
    return 0;
}

static bool all_zero(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] != 0u) {
            return false;
        }
    }
    return true;
}

static void test_blank_page_dev_and_release(void **state)
{
    (void)state;
    fd_device_secret dev;
    fd_device_secret rel;
    assert_int_equal(fd_device_secret_load(&dev, &hf.flash, false), FD_OK);
    assert_int_equal(dev.origin, FD_SECRET_TEST);
    assert_true(fd_device_secret_usable(&dev));
    assert_string_equal(fd_device_secret_origin_name(dev.origin), "test");
    assert_false(all_zero(dev.id, sizeof dev.id));
    assert_int_equal(fd_device_secret_load(&rel, &hf.flash, true), FD_ERR_NOT_READY);
    assert_int_equal(rel.origin, FD_SECRET_MISSING);
    assert_false(fd_device_secret_usable(&rel));
    assert_true(all_zero(rel.secret, sizeof rel.secret));
    assert_true(all_zero(rel.id, sizeof rel.id));
    /* no page at all: the same two answers */
    assert_int_equal(fd_device_secret_load(&rel, NULL, false), FD_OK);
    assert_memory_equal(rel.id, dev.id, sizeof dev.id);
    assert_int_equal(fd_device_secret_load(&rel, NULL, true), FD_ERR_NOT_READY);
    /* QEMU's never-written nRF51 flash reads 0x00: blank too */
    memset(mem, 0, sizeof mem);
    assert_int_equal(fd_device_secret_load(&rel, &hf.flash, false), FD_OK);
    assert_int_equal(rel.origin, FD_SECRET_TEST);
}

static void test_provision_once(void **state)
{
    (void)state;
    uint8_t id[FD_DEVICE_ID_BYTES];
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, false), FD_OK);
    uint8_t test_id[FD_DEVICE_ID_BYTES];
    memcpy(test_id, s.id, sizeof test_id);
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_a, id), FD_OK);
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, true), FD_OK);
    assert_int_equal(s.origin, FD_SECRET_PROVISIONED);
    assert_memory_equal(s.secret, secret_a, sizeof secret_a);
    assert_memory_equal(s.id, id, sizeof id);
    assert_memory_not_equal(s.id, test_id, sizeof id);
    /* the attacker's second PROVISION: refused, the first secret stays */
    uint8_t other[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_b, other), FD_ERR_STATE);
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_a, other), FD_ERR_STATE);
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, false), FD_OK);
    assert_memory_equal(s.secret, secret_a, sizeof secret_a);
    /* the secret itself never sits in the page in the clear past the record */
    for (size_t i = FD_DEVICE_SECRET_RECORD; i < PAGE; i++) {
        assert_int_equal(mem[i], 0xFF);
    }
}

static void test_provision_on_zero_page_erases_first(void **state)
{
    (void)state;
    memset(mem, 0, sizeof mem);
    uint8_t id[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_b, id), FD_OK);
    assert_int_equal(hf.erases, 1u);
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, true), FD_OK);
    assert_memory_equal(s.id, id, sizeof id);
}

static void test_trivial_secrets_refused(void **state)
{
    (void)state;
    uint8_t zero[FD_DEVICE_SECRET_BYTES] = {0};
    uint8_t ones[FD_DEVICE_SECRET_BYTES];
    memset(ones, 0xFF, sizeof ones);
    uint8_t id[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&hf.flash, zero, id), FD_ERR_EMPTY);
    assert_int_equal(fd_device_secret_provision(&hf.flash, ones, id), FD_ERR_EMPTY);
    assert_int_equal(fd_device_secret_provision(NULL, secret_a, id), FD_ERR_NULL);
    assert_int_equal(fd_device_secret_provision(&hf.flash, NULL, id), FD_ERR_NULL);
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_a, NULL), FD_ERR_NULL);
    assert_int_equal(hf.programs + hf.erases, 0u);
    assert_int_equal(fd_device_secret_load(NULL, &hf.flash, false), FD_ERR_NULL);
}

/* Every single bit flip of the record makes the page damaged: refused in
 * both builds, not replaceable by PROVISION, never the test secret. */
static void test_damaged_page_fails_closed(void **state)
{
    (void)state;
    uint8_t id[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_a, id), FD_OK);
    for (uint64_t bit = 0; bit < 8u * FD_DEVICE_SECRET_RECORD; bit++) {
        assert_int_equal(host_flash_flip(&hf, bit), FD_OK);
        fd_device_secret s;
        assert_int_equal(fd_device_secret_load(&s, &hf.flash, false), FD_ERR_CORRUPT);
        assert_int_equal(s.origin, FD_SECRET_DAMAGED);
        assert_false(fd_device_secret_usable(&s));
        assert_true(all_zero(s.secret, sizeof s.secret));
        assert_int_equal(fd_device_secret_provision(&hf.flash, secret_b, id), FD_ERR_CORRUPT);
        assert_int_equal(host_flash_flip(&hf, bit), FD_OK);
    }
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, true), FD_OK);
    assert_memory_equal(s.secret, secret_a, sizeof secret_a);
}

/* A power cut during PROVISION: clean (nothing written: still blank) or
 * torn (part written: damaged, refused), never a wrong secret in use. */
static void test_power_cut_during_provision(void **state)
{
    (void)state;
    for (unsigned torn = 0; torn < 2u; torn++) {
        for (uint32_t seed = 1; seed <= 50u; seed++) {
            assert_int_equal(host_flash_open(&hf, mem, PAGE, 1, NULL), FD_OK);
            hf.cut_after = 0;
            hf.torn = torn != 0u;
            hf.tear_state = seed * 2654435761u;
            uint8_t id[FD_DEVICE_ID_BYTES];
            assert_int_not_equal(fd_device_secret_provision(&hf.flash, secret_a, id), FD_OK);
            host_flash_reboot(&hf);
            fd_device_secret s;
            const fd_status st = fd_device_secret_load(&s, &hf.flash, true);
            if (st == FD_OK) {
                assert_memory_equal(s.secret, secret_a, sizeof secret_a); /* the tear kept every bit */
            } else {
                assert_true(st == FD_ERR_NOT_READY || st == FD_ERR_CORRUPT);
                assert_false(fd_device_secret_usable(&s));
            }
        }
    }
}

/* A flash whose program reports success but leaves one bit of the record
 * set (a weak cell): provisioning reads the record back and refuses it. */
static fd_status program_one_bit_short(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    uint32_t copy[16];
    assert_true(count <= 16u);
    memcpy(copy, words, count * 4u);
    size_t i = count - 1u;
    while (i > 0u && copy[i] == UINT32_MAX) {
        i--;
    }
    assert_true(copy[i] != UINT32_MAX);
    copy[i] |= ~copy[i] & (copy[i] + 1u); /* its lowest bit to clear stays 1 */
    return hf.flash.program(ctx, offset, copy, count);
}

static void test_provision_reads_back(void **state)
{
    (void)state;
    fd_flash weak = hf.flash;
    weak.program = program_one_bit_short;
    uint8_t id[FD_DEVICE_ID_BYTES];
    memset(id, 0xA5, sizeof id);
    assert_int_equal(fd_device_secret_provision(&weak, secret_a, id), FD_ERR_CORRUPT);
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, true), FD_ERR_CORRUPT); /* and the page says so */
}

static void test_keys_per_purpose(void **state)
{
    (void)state;
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, false), FD_OK);
    uint8_t journal[32];
    uint8_t journal2[32];
    uint8_t other[32];
    assert_int_equal(fd_device_key(&s, "journal", journal), FD_OK);
    assert_int_equal(fd_device_key(&s, "journal", journal2), FD_OK);
    assert_int_equal(fd_device_key(&s, "journaL", other), FD_OK);
    assert_memory_equal(journal, journal2, sizeof journal);
    assert_memory_not_equal(journal, other, sizeof journal);
    assert_memory_not_equal(journal, s.secret, sizeof journal);
    uint8_t id[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&hf.flash, secret_a, id), FD_OK);
    assert_int_equal(fd_device_secret_load(&s, &hf.flash, false), FD_OK);
    assert_int_equal(fd_device_key(&s, "journal", other), FD_OK);
    assert_memory_not_equal(journal, other, sizeof journal); /* the key follows the secret */
    assert_int_equal(fd_device_key(&s, "", other), FD_ERR_EMPTY);
    assert_int_equal(fd_device_key(NULL, "journal", other), FD_ERR_NULL);
    assert_int_equal(fd_device_key(&s, NULL, other), FD_ERR_NULL);
    fd_device_secret_clear(&s);
    memset(other, 0xA5, sizeof other);
    assert_int_equal(fd_device_key(&s, "journal", other), FD_ERR_NOT_READY);
    assert_true(all_zero(other, sizeof other));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_blank_page_dev_and_release, fresh_page),
        cmocka_unit_test_setup(test_provision_once, fresh_page),
        cmocka_unit_test_setup(test_provision_on_zero_page_erases_first, fresh_page),
        cmocka_unit_test_setup(test_trivial_secrets_refused, fresh_page),
        cmocka_unit_test_setup(test_damaged_page_fails_closed, fresh_page),
        cmocka_unit_test_setup(test_power_cut_during_provision, fresh_page),
        cmocka_unit_test_setup(test_provision_reads_back, fresh_page),
        cmocka_unit_test_setup(test_keys_per_purpose, fresh_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
