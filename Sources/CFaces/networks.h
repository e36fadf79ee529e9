// The two networks whose trained weights the model files hold (dlib's CC0 models, as PyPI's
// face-recognition-models ships them). A model file deserialises only into the very layers it
// was trained as: these types state those layers, layer by layer, and nothing else.
#ifndef TESSERA_CFACES_NETWORKS_H
#define TESSERA_CFACES_NETWORKS_H

#include <dlib/dnn.h>

namespace tessera_faces_networks {
using namespace dlib;

// mmod_human_face_detector.dat: three strided 5×5 convolutions (16, 32, 32 filters) bring the
// image down 8×, three 5×5 convolutions of 45 filters follow, and one 9×9 filter scores each
// place; the input is an image pyramid (each level 5/6 of the last), so faces of every size
// meet the 80 × 80 window.
template <long filters, typename below> using down5 = relu<affine<con<filters, 5, 5, 2, 2, below>>>;
template <typename below> using look5 = relu<affine<con<45, 5, 5, 1, 1, below>>>;
using detector = loss_mmod<con<1, 9, 9, 1, 1, look5<look5<look5<
    down5<32, down5<32, down5<16, input_rgb_image_pyramid<pyramid_down<6>>>>>>>>>>;

// dlib_face_recognition_resnet_model_v1.dat: a 29-layer residual network over a 150 × 150
// aligned face chip, ending in a 128-d descriptor (metric loss: the same person within 0.6).
// A block is two 3×3 convolutions with affine normalisation; a residual adds the block's input
// back, and one that goes down halves the input with a 2×2 average pool to add it.
template <int filters, int stride, typename below>
using block = affine<con<filters, 3, 3, 1, 1, relu<affine<con<filters, 3, 3, stride, stride, below>>>>>;
template <int filters, typename below> using same = relu<add_prev1<block<filters, 1, tag1<below>>>>;
template <int filters, typename below>
using down = relu<add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<filters, 2, tag1<below>>>>>>>;
template <typename below> using level0 = down<256, below>;
template <typename below> using level1 = same<256, same<256, down<256, below>>>;
template <typename below> using level2 = same<128, same<128, down<128, below>>>;
template <typename below> using level3 = same<64, same<64, same<64, down<64, below>>>>;
template <typename below> using level4 = same<32, same<32, same<32, below>>>;
using descriptor = loss_metric<fc_no_bias<128, avg_pool_everything<level0<level1<level2<level3<level4<
    max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;
}  // namespace tessera_faces_networks

#endif
