# host: Linux, for tests, fuzzing and the host tools.
set(FD_BOARD_KIND host)
# Assessed min-entropy per raw 8-bit sample of getrandom(): the kernel's
# output is already a conditioned CSPRNG stream (8 bits/byte in fact); we
# claim only 4 so the health tests' false-alarm rate on a healthy source is
# about 2^-40 per sample, not 2^-20, over the millions of samples a
# statistical run draws. The price is 80 raw bytes per 256-bit seed.
set(FD_TRNG_H_BITS 4)
