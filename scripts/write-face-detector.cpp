// Writes dlib's HOG face detector as a model file (scripts/install-faces.sh): dlib decodes its
// built-in copy from compressed text at every start (a quarter of a second); the file reads in
// milliseconds. Usage: write-face-detector FILE
#include <cstdio>
#include <exception>

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/serialize.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: write-face-detector FILE\n");
        return 64;
    }
    try {
        dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
        dlib::serialize(argv[1]) << detector;
    } catch (const std::exception &failure) {
        std::fprintf(stderr, "write-face-detector: %s: %s\n", argv[1], failure.what());
        return 1;
    }
    return 0;
}
