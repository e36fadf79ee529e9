#ifndef TESSERA_CFUZZER_H
#define TESSERA_CFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (LLVMFuzzerRunDriver) with the command line and the callback that
/// takes each input; -1 when the binary was not linked with libFuzzer (-sanitize=fuzzer).
int tessera_fuzzer_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
