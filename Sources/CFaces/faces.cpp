// dlib behind the C interface of CFaces.h: one object owns the models, every call catches what
// dlib throws.
#include "CFaces.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include "networks.h"

struct tessera_faces {
    tessera_faces_detector kind;
    dlib::frontal_face_detector hog;
    tessera_faces_networks::detector cnn;
    // Read when the first face is found: most photos of a library have none, and reading the two
    // models takes half a second and 40 MB.
    std::string landmarks_path, descriptor_path;
    bool described = false;
    dlib::shape_predictor landmarks;
    tessera_faces_networks::descriptor descriptor;
};

// OpenBLAS's own: how many threads one matrix product may use.
extern "C" void openblas_set_num_threads(int threads);

namespace {
void say(char *error, size_t size, const std::string &text) {
    if (error && size > 0) std::snprintf(error, size, "%s", text.c_str());
}

// What a detector found, in the upsampled image's pixels.
struct candidate {
    dlib::rectangle box;
    double confidence;
};

// The most pixels an image may have once upsampled: a 2,048-px square (the detectors' memory
// grows with it, whatever the photo).
constexpr long most_pixels = 2048L * 2048L;
}  // namespace

extern "C" tessera_faces *tessera_faces_open(
    tessera_faces_detector detector, const char *detector_path, const char *landmarks_path,
    const char *descriptor_path, char *error, size_t error_size) {
    std::unique_ptr<tessera_faces> faces;
    std::string reading;
    // One thread a product: each scan worker describes its own photos, and OpenBLAS's threads
    // beside them spent more than twice the CPU for the same faces.
    openblas_set_num_threads(1);
    try {
        faces.reset(new tessera_faces());
        faces->kind = detector;
        if (detector == TESSERA_FACES_CNN) {
            if (!detector_path) throw std::runtime_error("no detector model named");
            reading = detector_path;
            dlib::deserialize(detector_path) >> faces->cnn;
        } else if (detector_path) {
            // (dlib's own HOG detector, written as a file by scripts/install-faces.sh: read in
            // milliseconds, where the built-in copy is decoded in a quarter of a second)
            reading = detector_path;
            dlib::deserialize(detector_path) >> faces->hog;
            if (faces->hog.num_detectors() == 0) throw std::runtime_error("not a HOG face detector");
        } else {
            faces->hog = dlib::get_frontal_face_detector();
        }
        faces->landmarks_path = landmarks_path ? landmarks_path : "";
        faces->descriptor_path = descriptor_path ? descriptor_path : "";
        return faces.release();
    } catch (const std::exception &failure) {
        say(error, error_size, (reading.empty() ? "" : reading + ": ") + failure.what());
    } catch (...) {
        say(error, error_size, reading + ": cannot be read");
    }
    return nullptr;
}

extern "C" void tessera_faces_close(tessera_faces *faces) { delete faces; }

extern "C" int tessera_faces_find(
    tessera_faces *faces, const uint8_t *rgb, int width, int height, int stride, int upsample,
    tessera_face *found, int capacity, char *error, size_t error_size) {
    if (!faces || !rgb || width <= 0 || height <= 0 || stride < width * 3 || upsample < 0 || upsample > 2
        || capacity < 0 || (capacity > 0 && !found)) {
        say(error, error_size, "invalid arguments");
        return -1;
    }
    const long scale = 1L << upsample;
    if (long(width) * long(height) * scale * scale > most_pixels) {
        say(error, error_size, "the image is larger than 2,048 × 2,048 pixels once upsampled");
        return -1;
    }
    try {
        dlib::matrix<dlib::rgb_pixel> image(height, width);
        for (int y = 0; y < height; ++y) {
            const uint8_t *row = rgb + size_t(y) * size_t(stride);
            for (int x = 0; x < width; ++x) image(y, x) = dlib::rgb_pixel(row[3 * x], row[3 * x + 1], row[3 * x + 2]);
        }
        for (int step = 0; step < upsample; ++step) dlib::pyramid_up(image);
        std::vector<candidate> candidates;
        if (faces->kind == TESSERA_FACES_CNN) {
            for (const auto &detection : faces->cnn(image)) {
                candidates.push_back({detection.rect, detection.detection_confidence});
            }
        } else {
            std::vector<dlib::rect_detection> detections;
            faces->hog(image, detections, 0.0);
            for (const auto &detection : detections) {
                candidates.push_back({detection.rect, detection.detection_confidence});
            }
        }
        // (the most confident first; equal ones in the image's order, whatever the detector's)
        std::sort(candidates.begin(), candidates.end(), [](const candidate &a, const candidate &b) {
            if (a.confidence != b.confidence) return a.confidence > b.confidence;
            return a.box.top() != b.box.top() ? a.box.top() < b.box.top() : a.box.left() < b.box.left();
        });
        const int described = std::min(int(candidates.size()), capacity);
        if (described > 0 && !faces->described) {
            std::string reading = faces->landmarks_path;
            try {
                dlib::deserialize(reading) >> faces->landmarks;
                if (faces->landmarks.num_parts() != 5) throw std::runtime_error("not a 5-point landmark model");
                reading = faces->descriptor_path;
                dlib::deserialize(reading) >> faces->descriptor;
            } catch (const std::exception &failure) {
                say(error, error_size, reading + ": " + failure.what());
                return -1;
            }
            faces->described = true;
        }
        std::vector<dlib::matrix<dlib::rgb_pixel>> chips(described);
        std::vector<dlib::full_object_detection> shapes(described);
        for (int index = 0; index < described; ++index) {
            shapes[index] = faces->landmarks(image, candidates[index].box);
            dlib::extract_image_chip(image, dlib::get_face_chip_details(shapes[index], 150, 0.25), chips[index]);
        }
        // (one chip at a time: a batch holds every chip's activations at once, tens of MB for a group)
        const std::vector<dlib::matrix<float, 0, 1>> descriptors =
            described > 0 ? faces->descriptor(chips, 1) : std::vector<dlib::matrix<float, 0, 1>>();
        const float back = 1.0f / float(scale);
        for (int index = 0; index < described; ++index) {
            tessera_face &face = found[index];
            const dlib::rectangle &box = candidates[index].box;
            face.left = float(box.left()) * back;
            face.top = float(box.top()) * back;
            face.width = float(box.width()) * back;
            face.height = float(box.height()) * back;
            face.confidence = float(candidates[index].confidence);
            for (unsigned part = 0; part < 5; ++part) {
                face.landmarks[2 * part] = float(shapes[index].part(part).x()) * back;
                face.landmarks[2 * part + 1] = float(shapes[index].part(part).y()) * back;
            }
            for (long value = 0; value < 128; ++value) face.descriptor[value] = descriptors[index](value);
        }
        return int(std::min<size_t>(candidates.size(), 1 << 20));
    } catch (const std::exception &failure) {
        say(error, error_size, failure.what());
    } catch (...) {
        say(error, error_size, "dlib failed");
    }
    return -1;
}
