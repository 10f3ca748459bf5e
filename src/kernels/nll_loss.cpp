// The negative log-likelihood loss (see nll_loss.h).
#include "nll_loss.h"

#include <limits>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"

namespace canopy::kernels {
namespace {

class NllLossStep final : public Step {
 public:
  explicit NllLossStep(const NllLossDesc& desc) : d_(desc) {}

  // Element offsets of row n in an operand with `strides` along the row dims.
  int64_t RowOffset(int64_t n, const int64_t* strides) const {
    int64_t offset = 0;
    for (int d = d_.row_rank - 1; d >= 0; --d) {
      offset += (n % d_.row_shape[d]) * strides[d];
      n /= d_.row_shape[d];
    }
    return offset;
  }

  int64_t Rows() const {
    int64_t rows = 1;
    for (int d = 0; d < d_.row_rank; ++d) rows *= d_.row_shape[d];
    return rows;
  }

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t rows = Rows();
    const char* self = context.Resolve(d_.self);
    const char* target = context.Resolve(d_.target);
    const char* weight = context.Resolve(d_.weight);
    const int64_t self_size = static_cast<int64_t>(DtypeSize(d_.self_dtype));
    const int64_t target_size = static_cast<int64_t>(DtypeSize(d_.target_dtype));
    const int64_t weight_size = static_cast<int64_t>(DtypeSize(d_.weight_dtype));
    // Every class first: a bad one fails the run before anything is written.
    std::vector<int64_t> classes(static_cast<size_t>(rows));
    for (int64_t n = 0; n < rows; ++n) {
      int64_t t = 0;
      Load(d_.target_dtype, target + RowOffset(n, d_.target_strides) * target_size, 1, 1, &t);
      if (t != d_.ignore_index && (t < 0 || t >= d_.classes)) {
        SetErrorMessage("%s: element %lld of 'target' is %lld, outside [0, %lld) and not ignoreIndex %lld", d_.op,
                        static_cast<long long>(n), static_cast<long long>(t), static_cast<long long>(d_.classes),
                        static_cast<long long>(d_.ignore_index));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
      classes[static_cast<size_t>(n)] = t;
    }
    std::vector<double> losses(static_cast<size_t>(rows));
    double loss_sum = 0, weight_sum = 0;
    for (int64_t n = 0; n < rows; ++n) {
      const int64_t t = classes[static_cast<size_t>(n)];
      double loss = 0;
      if (t != d_.ignore_index) {
        double w = 0, x = 0;
        Load(d_.weight_dtype, weight + t * d_.weight_stride * weight_size, 1, 1, &w);
        Load(d_.self_dtype, self + (RowOffset(n, d_.self_strides) + t * d_.self_class_stride) * self_size, 1, 1, &x);
        loss = -w * x;
        weight_sum += w;
      }
      losses[static_cast<size_t>(n)] = loss;
      loss_sum += loss;
    }
    char* out = context.Resolve(d_.out);
    if (d_.reduction == 0) {
      const int64_t out_size = static_cast<int64_t>(DtypeSize(d_.out_dtype));
      for (int64_t n = 0; n < rows; ++n) {
        Store(&losses[static_cast<size_t>(n)], d_.out_dtype, out + RowOffset(n, d_.out_strides) * out_size, 1, 1);
      }
      return ACLNN_SUCCESS;
    }
    double result = loss_sum;
    if (d_.reduction == 1) {
      const bool ignored_single = d_.single_row && classes[0] == d_.ignore_index;
      result = ignored_single ? 0.0 : loss_sum / weight_sum;  // 0 / 0 is NaN: every row ignored
    }
    Store(&result, d_.out_dtype, out, 1, 1);
    Store(&weight_sum, d_.total_weight_dtype, context.Resolve(d_.total_weight), 1, 1);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kReductions[] = {"none", "mean", "sum"};
    return std::string("nll_loss ") + DtypeName(d_.self_dtype) + " [" + std::to_string(Rows()) + "," +
           std::to_string(d_.classes) + "] " + kReductions[d_.reduction];
  }

 private:
  NllLossDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeNllLossStep(const NllLossDesc& desc) { return std::make_unique<NllLossStep>(desc); }

}  // namespace canopy::kernels
