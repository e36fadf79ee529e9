#ifndef TESSERA_CFACES_H
#define TESSERA_CFACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Faces found and described with dlib (docs/PEOPLE.md): a detector (dlib's HOG detector, built
/// in, or its CNN face detector, a model file), the 5-point landmarks and the 128-d ResNet
/// descriptor, loaded once and used by one thread at a time. Every dlib exception (a model file
/// cut short, an allocation that failed) comes back as an error message, never across this
/// interface.
typedef struct tessera_faces tessera_faces;

/// Which detector finds the faces.
typedef enum { TESSERA_FACES_HOG = 0, TESSERA_FACES_CNN = 1 } tessera_faces_detector;

/// Loads the detector (`detector_path`: the CNN detector's model, or dlib's HOG detector as a
/// file, or NULL for the HOG detector dlib builds in); the landmarks
/// and the descriptor are read when the first face is found (`tessera_faces_find` fails, naming
/// the file, when they cannot be). NULL on failure, with why in `error` (of `error_size` bytes).
tessera_faces *tessera_faces_open(
    tessera_faces_detector detector, const char *detector_path, const char *landmarks_path,
    const char *descriptor_path, char *error, size_t error_size);

void tessera_faces_close(tessera_faces *faces);

/// One face: its box in the image's pixels (it may reach past the image's edges), the detector's
/// confidence, the five landmarks (x, y; eye corners and the nose's base) and the descriptor.
typedef struct {
    float left, top, width, height;
    float confidence;
    float landmarks[10];
    float descriptor[128];
} tessera_face;

/// Finds the faces of an 8-bit RGB image (`stride` bytes a row), the image first upsampled
/// `upsample` times (0–2: each doubles its sides), and describes up to `capacity` of them, the
/// most confident first. Returns how many were found (possibly more than `capacity`), or -1
/// with why in `error`.
int tessera_faces_find(
    tessera_faces *faces, const uint8_t *rgb, int width, int height, int stride, int upsample,
    tessera_face *found, int capacity, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
