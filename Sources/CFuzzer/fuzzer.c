#include "CFuzzer.h"

// Weak: resolved only when libFuzzer is linked in, so the same target builds without it.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))
    __attribute__((weak));

int tessera_fuzzer_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
