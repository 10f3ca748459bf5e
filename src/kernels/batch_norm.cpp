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

// Element c of a per-channel vector (`absent` where there is none), and a write of one.
double Read(const RunContext& context, const ChannelOperand& t, int64_t c, double absent) {
  if (!t.present) return absent;
  double v;
  Load(t.dtype, context.Resolve(t.buffer) + c * t.stride * static_cast<int64_t>(DtypeSize(t.dtype)), 1, 1, &v);
  return v;
}
void Write(const RunContext& context, const ChannelOperand& t, int64_t c, double v) {
  if (!t.present) return;
  Store(&v, t.dtype, context.Resolve(t.buffer) + c * t.stride * static_cast<int64_t>(DtypeSize(t.dtype)), 1, 1);
}

class BatchNormStep final : public Step {
 public:
  explicit BatchNormStep(const BatchNormDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(d_.x.buffer);
    char* y = d_.write_y ? context.Resolve(d_.y.buffer) : nullptr;
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
  // Element s of sample n of channel c, as f64, into `row` (one sample at a time).
  void LoadRow(const char* x, int64_t n, int64_t c, std::vector<double>& row) const {
    const int64_t offset = n * d_.x.strides[0] + c * d_.x.strides[1];
    Load(d_.x.dtype, x + offset * static_cast<int64_t>(DtypeSize(d_.x.dtype)), d_.x.strides[2], d_.s, row.data());
  }

  void Channel(const RunContext& context, const char* x, char* y, int64_t c, std::vector<double>& row) const {
    double mean, var;
    if (d_.training) {
      const auto count = static_cast<double>(d_.n * d_.s);
      double sum = 0, raw_squares = 0;
      for (int64_t n = 0; n < d_.n; ++n) {
        LoadRow(x, n, c, row);
        for (const double v : row) sum += v;
        if (d_.save_square_sum.present) {
          for (const double v : row) raw_squares += v * v;
        }
      }
      Write(context, d_.save_sum, c, sum);
      Write(context, d_.save_square_sum, c, raw_squares);
      mean = sum / count;
      double squares = 0;
      for (int64_t n = 0; n < d_.n; ++n) {
        LoadRow(x, n, c, row);
        for (const double v : row) squares += (v - mean) * (v - mean);
      }
      var = squares / count;
      Write(context, d_.save_mean, c, mean);
      Write(context, d_.save_var, c, var);
      Write(context, d_.save_invstd, c, 1 / std::sqrt(var + d_.eps));
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
    if (!d_.write_y) return;
    const double invstd = d_.invstd_in.present ? Read(context, d_.invstd_in, c, 1) : 1 / std::sqrt(var + d_.eps);
    const double scale = Read(context, d_.weight, c, 1) * invstd;
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

class BatchNormGatherStep final : public Step {
 public:
  explicit BatchNormGatherStep(const BatchNormGatherDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* first = context.Resolve(d_.first.buffer);
    const char* second = context.Resolve(d_.second.buffer);
    std::vector<double> counts(static_cast<size_t>(d_.world));
    for (int64_t w = 0; w < d_.world; ++w) {
      double count = Read(context, d_.counts, w, 0);
      if (d_.truncate_counts) count = std::trunc(count);
      counts[static_cast<size_t>(w)] = count;
    }
    for (int64_t c = 0; c < d_.c; ++c) {
      double total = 0, sum = 0;  // sum: of the elements (from_sums) or of count x mean
      for (int64_t w = 0; w < d_.world; ++w) {
        const double count = counts[static_cast<size_t>(w)];
        total += count;
        sum += d_.from_sums ? Element(d_.first, first, w, c) : count * Element(d_.first, first, w, c);
      }
      const double mean = sum / total;
      double var = 0;  // biased
      if (d_.from_sums) {
        double squares = 0;
        for (int64_t w = 0; w < d_.world; ++w) squares += Element(d_.second, second, w, c);
        var = squares / total - mean * mean;
      } else {
        // Each batch's variance from its invstd, and its mean's distance from the pooled one.
        double squares = 0;
        for (int64_t w = 0; w < d_.world; ++w) {
          const double invstd = Element(d_.second, second, w, c);
          const double dev = Element(d_.first, first, w, c) - mean;
          squares += counts[static_cast<size_t>(w)] * (1 / (invstd * invstd) - d_.eps + dev * dev);
        }
        var = squares / total;
      }
      Write(context, d_.mean_out, c, mean);
      Write(context, d_.invstd_out, c, 1 / std::sqrt(var + d_.eps));
      const double m = d_.momentum;
      if (d_.running_mean_out.present) {
        Write(context, d_.running_mean_out, c, (1 - m) * Read(context, d_.running_mean_in, c, 0) + m * mean);
      }
      if (d_.running_var_out.present) {
        const double unbiased = var * total / (total - 1);
        Write(context, d_.running_var_out, c, (1 - m) * Read(context, d_.running_var_in, c, 0) + m * unbiased);
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("batch-norm gather ") + (d_.from_sums ? "sums " : "means ") + DtypeName(d_.first.dtype) + ", " +
           std::to_string(d_.world) + " x " + std::to_string(d_.c);
  }

 private:
  static double Element(const StridedOperand& t, const char* base, int64_t w, int64_t c) {
    double v;
    Load(t.dtype, base + (w * t.strides[0] + c * t.strides[1]) * static_cast<int64_t>(DtypeSize(t.dtype)), 1, 1, &v);
    return v;
  }

  BatchNormGatherDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeBatchNormStep(const BatchNormDesc& desc) { return std::make_unique<BatchNormStep>(desc); }
std::unique_ptr<Step> MakeBatchNormGatherStep(const BatchNormGatherDesc& desc) {
  return std::make_unique<BatchNormGatherStep>(desc);
}

}  // namespace canopy::kernels
