// The blocked convolution layouts that Canopy stores as the NPU does, for the
// ops that write or read them (aclnnNpuFormatCast's convolution pairs,
// aclnnQuantConvolutionWeightNz's FRACTAL_Z_3D weight). C is split into C1
// blocks of C0 (and N into blocks of N0 = 16 for the fractal ones), the padding
// zeroed when written:
//   NC1HWC0       [N, C1, H, W, C0]          NDC1HWC0     [N, D, C1, H, W, C0]
//   FRACTAL_Z     [C1*H*W, N1, 16, C0]       FRACTAL_Z_3D [D*C1*H*W, N1, 16, C0]
// A 2-D layout is the 3-D one with D = 1.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/shape.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

enum class ConvBlocking { kChannels, kFractal };  // kChannels: NC1HWC0 / NDC1HWC0

constexpr int64_t kConvFractalN0 = 16;  // the fractal layouts' N block

// A plain convolution tensor's extents and element strides by axis; D is 1
// (stride 0) in a 2-D layout.
struct ConvAxes {
  int64_t n = 1, c = 1, d = 1, h = 1, w = 1;
  int64_t n_stride = 0, c_stride = 0, d_stride = 0, h_stride = 0, w_stride = 0;
};

// The axes of `shape` (with `strides`, or none) read through `letters`, the
// plain format's axis letters outermost first ("NCDHW", "DHWCN", ...).
ConvAxes ConvAxesFrom(std::string_view letters, const Shape& shape, const Shape& strides);

// The storage shape of the blocked layout of `axes` with `c0` channels a block;
// `three_d` picks NDC1HWC0 over NC1HWC0 (the fractal shapes fold D in).
Shape ConvBlockedShape(ConvBlocking blocking, const ConvAxes& axes, bool three_d, int64_t c0);

// Adds a step moving every element between `plain` (addressed through the
// strides of `axes`) and `blocked`, a contiguous storage of the blocked shape;
// written to, the blocked storage is zeroed first (the padding). Read from, only
// the elements inside N and C are read.
void AddConvLayoutStep(Plan& plan, const TensorRef& plain, const TensorRef& blocked, const ConvAxes& axes,
                       ConvBlocking blocking, int64_t c0, bool to_blocked);

}  // namespace canopy::ops
