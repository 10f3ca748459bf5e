// Gated linear units (see glu.h).
#include "glu.h"

#include <algorithm>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "unary.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRun = 2048;                 // elements of a half loaded at once, and the unit of parallel work
constexpr int64_t kGrainElements = 16 * 1024;  // less than this runs on one thread

class GluStep final : public Step {
 public:
  explicit GluStep(const GluDesc& desc) : desc_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* in = context.Resolve(desc_.in);
    char* out = context.Resolve(desc_.out);
    char* activated = desc_.has_activated ? context.Resolve(desc_.activated) : nullptr;
    const int64_t element = static_cast<int64_t>(DtypeSize(desc_.dtype));
    const int64_t runs = (desc_.half + kRun - 1) / kRun;
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::min(kRun, std::max<int64_t>(desc_.half, 1)));
    ParallelFor(desc_.groups * runs, grain, [&](int64_t begin, int64_t end) {
      std::vector<float> gate(kRun), other(kRun);
      for (int64_t item = begin; item < end; ++item) {
        const int64_t group = item / runs;
        const int64_t start = (item % runs) * kRun;
        const int64_t n = std::min(kRun, desc_.half - start);
        const char* first = in + (group * 2 * desc_.half + start) * element;
        const char* second = first + desc_.half * element;
        Load(desc_.dtype, desc_.activate_first ? first : second, 1, n, gate.data());
        Load(desc_.dtype, desc_.activate_first ? second : first, 1, n, other.data());
        UnaryF32InPlace(ActivationOp(desc_.activation), UnaryParams{}, gate.data(), n);
        const int64_t out_offset = (group * desc_.half + start) * element;
        if (activated != nullptr) Store(gate.data(), desc_.dtype, activated + out_offset, 1, n);
        for (int64_t i = 0; i < n; ++i) gate[i] *= other[i];
        Store(gate.data(), desc_.dtype, out + out_offset, 1, n);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kNames[] = {"swish", "gelu (erf)", "gelu (tanh)"};
    return std::string("glu ") + kNames[static_cast<int>(desc_.activation)] + " " + DtypeName(desc_.dtype) + ", " +
           std::to_string(desc_.groups) + " groups of 2x" + std::to_string(desc_.half);
  }

 private:
  // The unary engine's row for the activation (its vector kernels, SLEEF-based).
  static UnaryOp ActivationOp(GluActivation activation) {
    switch (activation) {
      case GluActivation::kSwish:
        return UnaryOp::kSilu;
      case GluActivation::kGeluErf:
        return UnaryOp::kGeluErf;
      case GluActivation::kGeluTanh:
        return UnaryOp::kGeluTanh;
    }
    return UnaryOp::kSilu;
  }

  GluDesc desc_;
};

}  // namespace

std::unique_ptr<Step> MakeGluStep(const GluDesc& desc) { return std::make_unique<GluStep>(desc); }

}  // namespace canopy::kernels
