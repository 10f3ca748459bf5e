#include "separable.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "ops/framework/tensor_view.h"

namespace canopy::ops {

void PlanSeparable(Plan& plan, const TensorRef& in, const TensorRef& out, kernels::AxisTaps rows,
                   kernels::AxisTaps columns, kernels::SeparableReduce reduce, const char* what) {
  if (out.NumElements() == 0) return;
  kernels::SeparableResampleDesc desc;
  desc.src = in.buffer;
  desc.dst = out.buffer;
  desc.src_dtype = in.dtype;
  desc.dst_dtype = out.dtype;
  desc.planes = out.shape[0] * out.shape[1];
  desc.channels = out.shape[1];
  for (size_t d = 0; d < 4; ++d) {
    desc.src_strides[d] = in.strides[d];
    desc.dst_strides[d] = out.strides[d];
  }
  desc.src_width = in.shape[3];
  desc.rows = std::move(rows);
  desc.columns = std::move(columns);
  desc.reduce = reduce;
  desc.what = what;
  plan.AddStep(kernels::MakeSeparableResampleStep(std::move(desc)), {in}, out);
}

void PlanSeparable3d(Plan& plan, const TensorRef& in, const TensorRef& out, kernels::AxisTaps depths,
                     kernels::AxisTaps rows, kernels::AxisTaps columns, kernels::SeparableReduce reduce,
                     const char* what) {
  if (out.NumElements() == 0) return;
  // The kernel addresses planes by two indices: N and C merge into one (a
  // staged copy where their strides do not allow it), D is the second.
  std::optional<TensorRef> x = Flatten(in, 0, 1);
  if (!x) x = Flatten(plan.Contiguous(in, in.dtype), 0, 1);
  const aclDataType middle = in.dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
  const int64_t planes = out.shape[0] * out.shape[1];
  const TensorRef t = plan.Temporary(middle, {planes, in.shape[2], out.shape[3], out.shape[4]});
  PlanSeparable(plan, *x, t, std::move(rows), std::move(columns), reduce, what);
  // Then D as the rows of [N * C, Ho, D, Wo] planes, each column its own tap.
  kernels::AxisTaps identity;
  for (int64_t i = 0; i < out.shape[4]; ++i) {
    identity.Add(i, 1.0);
    identity.EndOutput();
  }
  std::optional<TensorRef> y = Flatten(out, 0, 1);
  const TensorRef staged = y ? *y : plan.Temporary(out.dtype, {planes, out.shape[2], out.shape[3], out.shape[4]});
  PlanSeparable(plan, Transpose(t, 1, 2), Transpose(staged, 1, 2), std::move(depths), std::move(identity), reduce,
                what);
  if (!y) plan.Copy(*Reshape(staged, out.shape), out);
}

namespace {

template <typename T>
kernels::AxisTaps LinearTapsIn(int64_t in, int64_t out, bool align_corners, double scales) {
  const T scale = SourceScale<T>(in, out, align_corners, scales);
  kernels::AxisTaps taps;
  for (int64_t i = 0; i < out; ++i) {
    T source =
        align_corners ? scale * static_cast<T>(i) : std::max(scale * (static_cast<T>(i) + T(0.5)) - T(0.5), T(0));
    // Clamped before the conversion: a tiny scales factor makes the position
    // huge or infinite, which no int64 holds.
    if (!(source < static_cast<T>(in - 1))) source = static_cast<T>(in - 1);
    const auto x0 = static_cast<int64_t>(source);
    const int64_t x1 = x0 < in - 1 ? x0 + 1 : x0;
    const T lambda1 = std::min(source - static_cast<T>(x0), T(1));
    if (x1 == x0) {
      taps.Add(x0, 1.0);
    } else {
      taps.Add(x0, static_cast<double>(T(1) - lambda1));
      taps.Add(x1, static_cast<double>(lambda1));
    }
    taps.EndOutput();
  }
  return taps;
}

}  // namespace

kernels::AxisTaps LinearTaps(bool f64, int64_t in, int64_t out, bool align_corners, double scales) {
  if (in == out) {  // an unchanged axis copies, whatever scales says (PyTorch's rule, CANN's AreaPixelComputeScale)
    align_corners = false;
    scales = 0;
  }
  return f64 ? LinearTapsIn<double>(in, out, align_corners, scales)
             : LinearTapsIn<float>(in, out, align_corners, scales);
}

kernels::AxisTaps AdaptiveWindows(int64_t in, int64_t out, bool average) {
  kernels::AxisTaps taps;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t start = i * in / out, end = ((i + 1) * in + out - 1) / out;
    for (int64_t s = start; s < end; ++s) taps.Add(s, average ? 1.0 / static_cast<double>(end - start) : 1.0);
    taps.EndOutput();
  }
  return taps;
}

}  // namespace canopy::ops
