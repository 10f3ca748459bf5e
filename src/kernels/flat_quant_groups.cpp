// FlatQuantV3's group list (see flat_quant_groups.h).
#include "flat_quant_groups.h"

#include <cstring>
#include <string>

namespace canopy::kernels {
namespace {

constexpr int64_t kSparseListType = 2;  // [groups, 2]: index, size

class FlatQuantGroupsStep final : public Step {
 public:
  explicit FlatQuantGroupsStep(const FlatQuantGroupsDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (d_.groups == 0) return ACLNN_SUCCESS;
    const auto* list = reinterpret_cast<const int64_t*>(context.Resolve(d_.group_list));
    int64_t quant_k = 0;
    if (d_.list_type == 0) {
      quant_k = list[d_.groups - 1];
    } else {
      const int64_t stride = d_.list_type == kSparseListType ? 2 : 1;
      for (int64_t g = 0; g < d_.groups; ++g) quant_k += list[g * stride + stride - 1];
    }
    if (quant_k <= 0 || quant_k >= d_.matrices) return ACLNN_SUCCESS;
    const int64_t rest = d_.matrices - quant_k;
    std::memset(context.Resolve(d_.out) + quant_k * d_.bytes_per_matrix, 0,
                static_cast<size_t>(rest * d_.bytes_per_matrix));
    const int64_t scale_bytes = rest * static_cast<int64_t>(sizeof(float));
    std::memset(context.Resolve(d_.scale) + quant_k * static_cast<int64_t>(sizeof(float)), 0,
                static_cast<size_t>(scale_bytes));
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "flat quant groups type=" + std::to_string(d_.list_type) + " groups=" + std::to_string(d_.groups) +
           " matrices=" + std::to_string(d_.matrices);
  }

 private:
  FlatQuantGroupsDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeFlatQuantGroupsStep(const FlatQuantGroupsDesc& desc) {
  return std::make_unique<FlatQuantGroupsStep>(desc);
}

}  // namespace canopy::kernels
