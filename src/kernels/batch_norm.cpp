// Batch normalisation (see batch_norm.h).
#include "batch_norm.h"

#include <cmath>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

class BatchNormStep final : public Step {
 public:
  explicit BatchNormStep(const BatchNormDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x.buffer);
    char* y = context.Resolve(d_.y.buffer);
    ParallelFor(d_.c, 1, [&](int64_t begin, int64_t end) {
      std::vector<double> row(static_cast<size_t>(d_.s));
      for (int64_t c = begin; c < end; ++c) Channel(context, x, y, c, row);
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("batch-norm ") + (d_.training ? "training " : "inference ") + DtypeName(d_.x.dtype) + " -> " +
           DtypeName(d_.y.dtype) + ", " + std::to_string(d_.c) + " channel(s) of " + std::to_string(d_.n) + " x " +
           std::to_string(d_.s);
  }

 private:
  static double Read(const RunContext& context, const ChannelOperand& t, int64_t c, double absent) {
    if (!t.present) return absent;
    double v;
    Load(t.dtype, context.Resolve(t.buffer) + c * t.stride * static_cast<int64_t>(DtypeSize(t.dtype)), 1, 1, &v);
    return v;
  }
  static void Write(const RunContext& context, const ChannelOperand& t, int64_t c, double v) {
    if (!t.present) return;
    Store(&v, t.dtype, context.Resolve(t.buffer) + c * t.stride * static_cast<int64_t>(DtypeSize(t.dtype)), 1, 1);
  }

  // Element s of sample n of channel c, as f64, into `row` (one sample at a time).
  void LoadRow(const char* x, int64_t n, int64_t c, std::vector<double>& row) const {
    const int64_t offset = n * d_.x.strides[0] + c * d_.x.strides[1];
    Load(d_.x.dtype, x + offset * static_cast<int64_t>(DtypeSize(d_.x.dtype)), d_.x.strides[2], d_.s, row.data());
  }

  void Channel(const RunContext& context, const char* x, char* y, int64_t c, std::vector<double>& row) const {
    double mean, var;
    if (d_.training) {
      const auto count = static_cast<double>(d_.n * d_.s);
      double sum = 0;
      for (int64_t n = 0; n < d_.n; ++n) {
        LoadRow(x, n, c, row);
        for (const double v : row) sum += v;
      }
      mean = sum / count;
      double squares = 0;
      for (int64_t n = 0; n < d_.n; ++n) {
        LoadRow(x, n, c, row);
        for (const double v : row) squares += (v - mean) * (v - mean);
      }
      var = squares / count;
      Write(context, d_.save_mean, c, mean);
      Write(context, d_.save_var, c, var);
      const double m = d_.momentum;
      if (d_.running_mean_out.present) {
        Write(context, d_.running_mean_out, c, (1 - m) * Read(context, d_.running_mean_in, c, 0) + m * mean);
      }
      if (d_.running_var_out.present) {
        // The running variance is the unbiased one (PyTorch's rule): count / (count - 1).
        const double unbiased = squares / (count - 1);
        Write(context, d_.running_var_out, c, (1 - m) * Read(context, d_.running_var_in, c, 1) + m * unbiased);
      }
    } else {
      mean = Read(context, d_.running_mean_in, c, 0);
      var = Read(context, d_.running_var_in, c, 1);
    }
    const double scale = Read(context, d_.weight, c, 1) / std::sqrt(var + d_.eps);
    const double shift = Read(context, d_.bias, c, 0) - mean * scale;
    for (int64_t n = 0; n < d_.n; ++n) {
      LoadRow(x, n, c, row);
      for (double& v : row) v = v * scale + shift;
      const int64_t offset = n * d_.y.strides[0] + c * d_.y.strides[1];
      Store(row.data(), d_.y.dtype, y + offset * static_cast<int64_t>(DtypeSize(d_.y.dtype)), d_.y.strides[2], d_.s);
    }
  }

  BatchNormDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeBatchNormStep(const BatchNormDesc& desc) { return std::make_unique<BatchNormStep>(desc); }

}  // namespace canopy::kernels
