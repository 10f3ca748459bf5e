// aclnnSparse4to2QuantMatmulWeightNz and the host function that prepares its
// weight, aclnnTransSparse4to2Para: an INT8 product whose [n, k] weight keeps
// two values of every four along k.
//
// The compressed form, as CANN's host code writes it: k is padded with zeros to
// a multiple of 8; each block of 8 values is two groups of 4, each keeping two
// values (a group with three or four non-zero values cannot be compressed) and a
// 4-bit code, bits 1:0 the first kept value's position (0-2) and bits 3:2 the
// second's minus one (0-2). A block gives one index byte (group 0's code in the
// low nibble) and four values (group 0's two, then group 1's). Both are stored
// as NZ blocks of 16 rows: the values as [ceil(k / 64), ceil(n / 16), 16, 32],
// the index bytes as [ceil(k / 64), ceil(n / 16), 16, 8]; rows past n and blocks
// past k are zero.
//
// The product picks, for each kept value, the x element its code names (as the
// NPU's sparse load does), so the run rebuilds the dense weight once per call
// and multiplies exactly in INT32:
//   out = bf16_rne((float(acc) * sparseWeightScale[n]) * xScale[m] + bias[n])
// in f32, in that order (CANN's dequantisation, then the per-token scale, then
// the bias). An index byte CANN's host code never writes can name one position
// for two values (a group's two, or a neighbour's); each still counts (a sum
// INT8 cannot hold is added to the product on its own).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_sparse4to2quant_matmul_weight_nz.h"
#include "common/c_boundary.h"
#include "common/half.h"
#include "common/shape.h"
#include "kernels/parallel_for.h"
#include "kernels/quant_int8_matmul.h"
#include "nnopbase/meta_objects.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr int64_t kBlock = 8;          // dense values per index byte
constexpr int64_t kSliceK = 64;        // dense values of k per NZ slice
constexpr int64_t kRows = 16;          // rows per NZ block
constexpr int64_t kValueColumns = 32;  // compressed values per row of a slice
constexpr int64_t kIndexColumns = 8;   // index bytes per row of a slice
constexpr int64_t kMaxK = 65535;       // CANN's limit on k and on the compressed width

// The compressed weight's storage for a dense [n, k] weight.
Shape ValueStorage(int64_t n, int64_t k) { return {CeilDiv(k, kSliceK), CeilDiv(n, kRows), kRows, kValueColumns}; }
Shape IndexStorage(int64_t n, int64_t k) { return {CeilDiv(k, kSliceK), CeilDiv(n, kRows), kRows, kIndexColumns}; }

// Where dense block `block` (eight values of k) of weight row r lies in both
// layouts: its four kept values and its index byte. Rows are padded to 16 per slice.
struct BlockPlace {
  int64_t values, index;
};
BlockPlace PlaceOf(int64_t block, int64_t r, int64_t n) {
  constexpr int64_t kBlocksPerSlice = kSliceK / kBlock;
  const int64_t slice_row = block / kBlocksPerSlice * (CeilDiv(n, kRows) * kRows) + r, c = block % kBlocksPerSlice;
  return {slice_row * kValueColumns + c * 4, slice_row * kIndexColumns + c};
}

// ---- the host function ---------------------------------------------------------------------------

// One group of four: its code and the positions of the two values it keeps,
// by its non-zero mask (value 0 the mask's high bit). CANN's host code keeps
// a zero next to a lone non-zero value and gives such a zero the code it has
// (a lone value at 1 or 2 names position 1 for the zero).
struct GroupCode {
  bool valid;
  uint8_t code, first, second;
};
constexpr GroupCode kGroupCodes[16] = {
    {true, 0b0000, 0, 1},  // 0000
    {true, 0b1000, 0, 3},  // 0001: value 3 alone
    {true, 0b0010, 2, 3},  // 0010: value 2 alone
    {true, 0b1010, 2, 3},  // 0011
    {true, 0b0001, 1, 2},  // 0100: value 1 alone
    {true, 0b1001, 1, 3},  // 0101
    {true, 0b0101, 1, 2},  // 0110
    {false, 0, 0, 0},      // 0111
    {true, 0b0000, 0, 1},  // 1000: value 0 alone
    {true, 0b1000, 0, 3},  // 1001
    {true, 0b0100, 0, 2},  // 1010
    {false, 0, 0, 0},      // 1011
    {true, 0b0000, 0, 1},  // 1100
    {false, 0, 0, 0},      // 1101
    {false, 0, 0, 0},      // 1110
    {false, 0, 0, 0},      // 1111
};

template <typename T>
T* NewZeroed(int64_t count) {
  return new (std::nothrow) T[static_cast<size_t>(std::max<int64_t>(count, 1))]();
}

aclnnStatus TransSparse4to2Para(const int8_t* weight, const aclIntArray* shape, int8_t** sparse_weight,
                                int64_t** sparse_weight_dims, uint64_t* sparse_weight_dims_num, uint8_t** index,
                                int64_t** index_dims, uint64_t* index_dims_num) {
  const std::pair<const char*, const void*> pointers[] = {{"weight", weight},
                                                          {"shape", shape},
                                                          {"sparseWeight", sparse_weight},
                                                          {"sparseWeightDims", sparse_weight_dims},
                                                          {"sparseWeightDimsNum", sparse_weight_dims_num},
                                                          {"index", index},
                                                          {"indexDims", index_dims},
                                                          {"indexDimsNum", index_dims_num}};
  for (const auto& [name, pointer] : pointers) {
    if (pointer == nullptr) {  // CANN's code: its inner null-pointer status, not the doc's 161001
      SetErrorMessage("aclnnTransSparse4to2Para: argument '%s' is null", name);
      return ACLNN_ERR_INNER_NULLPTR;
    }
  }
  // Whatever fails from here leaves no array behind.
  *sparse_weight = nullptr;
  *index = nullptr;
  *sparse_weight_dims = nullptr;
  *index_dims = nullptr;
  if (shape->values.size() != 2) {
    SetErrorMessage("aclnnTransSparse4to2Para: shape has %zu values; it must be {n, k}", shape->values.size());
    return ACLNN_ERR_PARAM_INVALID;
  }
  const int64_t n = shape->values[0], k = shape->values[1];
  constexpr int64_t kLimit = int64_t{1} << 40;  // far past any weight; keeps the sizes below from overflowing
  if (n < 0 || k < 0 || n > kLimit || k > kLimit || (k > 0 && n > kLimit / k)) {
    SetErrorMessage("aclnnTransSparse4to2Para: shape {%lld, %lld} is not a weight's {n, k}", static_cast<long long>(n),
                    static_cast<long long>(k));
    return ACLNN_ERR_PARAM_INVALID;
  }
  const Shape value_dims = ValueStorage(n, k), index_dims_shape = IndexStorage(n, k);
  const int64_t value_bytes = value_dims[0] * value_dims[1] * kRows * kValueColumns;
  const int64_t index_bytes = value_bytes / (kValueColumns / kIndexColumns);
  std::unique_ptr<int8_t[]> values(NewZeroed<int8_t>(value_bytes));
  std::unique_ptr<uint8_t[]> codes(NewZeroed<uint8_t>(index_bytes));
  std::unique_ptr<int64_t[]> vdims(NewZeroed<int64_t>(4)), idims(NewZeroed<int64_t>(4));
  if (!values || !codes || !vdims || !idims) {
    const int64_t total = value_bytes + index_bytes;
    SetErrorMessage("aclnnTransSparse4to2Para: allocating %lld bytes failed", static_cast<long long>(total));
    return ACLNN_ERR_INNER_NULLPTR;
  }
  for (int64_t r = 0; r < n; ++r) {
    const int8_t* dense = weight + r * k;
    for (int64_t block = 0; block < CeilDiv(k, kBlock); ++block) {
      const BlockPlace place = PlaceOf(block, r, n);
      int8_t* kept = values.get() + place.values;
      uint8_t byte = 0;
      for (int64_t g = 0; g < 2; ++g) {
        int8_t group[4] = {};
        unsigned mask = 0;
        for (int64_t j = 0; j < 4; ++j) {
          const int64_t col = block * kBlock + g * 4 + j;
          group[j] = col < k ? dense[col] : int8_t{0};
          mask |= (group[j] != 0 ? 8u : 0u) >> j;
        }
        const GroupCode& code = kGroupCodes[mask];
        if (!code.valid) {
          const int64_t first = block * kBlock + g * 4, last = std::min(first + 3, k - 1);
          SetErrorMessage(
              "aclnnTransSparse4to2Para: weight row %lld, values %lld-%lld hold more than two non-zero values; "
              "each group of four along k may keep at most two",
              static_cast<long long>(r), static_cast<long long>(first), static_cast<long long>(last));
          return ACLNN_ERR_PARAM_INVALID;
        }
        kept[2 * g] = group[code.first];
        kept[2 * g + 1] = group[code.second];
        byte = static_cast<uint8_t>(byte | (code.code << (4 * g)));
      }
      codes[place.index] = byte;
    }
  }
  std::copy(value_dims.begin(), value_dims.end(), vdims.get());
  std::copy(index_dims_shape.begin(), index_dims_shape.end(), idims.get());
  *sparse_weight = values.release();
  *index = codes.release();
  *sparse_weight_dims = vdims.release();
  *index_dims = idims.release();
  *sparse_weight_dims_num = 4;
  *index_dims_num = 4;
  return ACLNN_SUCCESS;
}

// ---- the product ---------------------------------------------------------------------------------

struct SparseProduct {
  int64_t m = 0, n = 0, k = 0;
  TensorRef x, values, index, x_scale, weight_scale, bias, out;  // bias: read only with has_bias
  TensorRef dense, acc;                                          // workspace: [n, k] INT8, [m, n] INT32
  bool has_bias = false;
};

class SparseProductStep final : public Step {
 public:
  explicit SparseProductStep(const SparseProduct& p)
      : p_(p),
        product_(kernels::MakeInt8MatmulStep(
            {.batch = 1, .m = p.m, .n = p.n, .k = p.k, .a = p.x.buffer, .bt = p.dense.buffer, .acc = p.acc.buffer})) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* values = reinterpret_cast<const int8_t*>(context.Resolve(p_.values.buffer));
    const auto* codes = reinterpret_cast<const uint8_t*>(context.Resolve(p_.index.buffer));
    auto* dense = reinterpret_cast<int8_t*>(context.Resolve(p_.dense.buffer));
    // Per row, the weights INT8 cannot hold: (column, value).
    std::vector<std::vector<Extra>> extras(static_cast<size_t>(p_.n));
    kernels::ParallelFor(p_.n, 16, [&](int64_t begin, int64_t end) {
      std::vector<int32_t> wide(static_cast<size_t>(p_.k + kBlock));
      for (int64_t r = begin; r < end; ++r) {
        Rebuild(values, codes, r, wide.data(), dense + r * p_.k, extras[static_cast<size_t>(r)]);
      }
    });
    CANOPY_CHECK(product_->Run(context));
    const auto* x = reinterpret_cast<const int8_t*>(context.Resolve(p_.x.buffer));
    auto* acc = reinterpret_cast<int32_t*>(context.Resolve(p_.acc.buffer));
    for (int64_t r = 0; r < p_.n; ++r) {
      for (const Extra& e : extras[static_cast<size_t>(r)]) {
        for (int64_t i = 0; i < p_.m; ++i) acc[i * p_.n + r] += int32_t{x[i * p_.k + e.column]} * e.value;
      }
    }
    Dequantise(context, acc);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "4:2 sparse int8 matmul " + std::to_string(p_.m) + "x" + std::to_string(p_.k) + " @ " +
           std::to_string(p_.k) + "x" + std::to_string(p_.n);
  }

 private:
  struct Extra {
    int64_t column;
    int32_t value;
  };

  // Row r of the dense weight from its compressed values and index bytes, summed
  // in `wide` (k + 8 entries) first: a code CANN's host never writes can name one
  // position twice, or a neighbouring group's. A sum INT8 cannot hold goes to `extras`.
  void Rebuild(const int8_t* values, const uint8_t* codes, int64_t r, int32_t* wide, int8_t* row,
               std::vector<Extra>& extras) const {
    std::fill(wide, wide + p_.k + kBlock, 0);
    for (int64_t block = 0; block < CeilDiv(p_.k, kBlock); ++block) {
      const BlockPlace place = PlaceOf(block, r, p_.n);
      const int8_t* kept = values + place.values;
      const unsigned byte = codes[place.index];
      for (int64_t g = 0; g < 2; ++g) {
        const unsigned code = (byte >> (4 * g)) & 0xFu;
        const int64_t base = block * kBlock + g * 4;
        wide[base + (code & 3u)] += kept[2 * g];
        wide[base + ((code >> 2) & 3u) + 1] += kept[2 * g + 1];
      }
    }
    for (int64_t l = 0; l < p_.k; ++l) {  // positions past k meet no x element
      const int32_t v = wide[l];
      const bool fits = v >= INT8_MIN && v <= INT8_MAX;
      row[l] = fits ? static_cast<int8_t>(v) : int8_t{0};
      if (!fits) extras.push_back({l, v});
    }
  }

  // out = bf16((float(acc) * weightScale) * xScale + bias), row by row.
  void Dequantise(const RunContext& context, const int32_t* acc) const {
    const auto* x_scale = reinterpret_cast<const float*>(context.Resolve(p_.x_scale.buffer));
    const auto* weight_scale = reinterpret_cast<const float*>(context.Resolve(p_.weight_scale.buffer));
    const auto* bias = p_.has_bias ? reinterpret_cast<const uint16_t*>(context.Resolve(p_.bias.buffer)) : nullptr;
    auto* out = reinterpret_cast<uint16_t*>(context.Resolve(p_.out.buffer));
    kernels::ParallelFor(p_.m, 4, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        for (int64_t j = 0; j < p_.n; ++j) {
          float y = static_cast<float>(acc[i * p_.n + j]) * weight_scale[j] * x_scale[i];
          if (bias != nullptr) y += Bf16ToFloat(bias[j]);
          out[i * p_.n + j] = FloatToBf16(y);
        }
      }
    });
  }

  SparseProduct p_;
  std::unique_ptr<Step> product_;
};

// x's last two dims swapped in its storage (a transposed matrix).
bool Transposed(const aclTensor* t) {
  return t->view_shape.size() == 2 && t->view_shape[0] > 1 && t->view_shape[1] > 1 && t->strides[0] == 1 &&
         t->strides[1] == t->view_shape[0];
}

// Storage elements from the view's first element on.
int64_t StorageFromView(const aclTensor* t) {
  int64_t count = 1;
  for (const int64_t extent : t->storage_shape) {
    if (extent < 0 || __builtin_mul_overflow(count, extent, &count)) return 0;
  }
  return count - t->offset;
}

aclnnStatus CheckWeight(Plan& plan, const aclTensor* sparse_weight) {
  CANOPY_CHECK(plan.CheckRank("sparseWeight", sparse_weight, 2, 2));
  const int64_t n = sparse_weight->view_shape[0], half_k = sparse_weight->view_shape[1];
  const Shape expected = {CeilDiv(half_k, kValueColumns), CeilDiv(n, kRows), kRows, kValueColumns};
  if (sparse_weight->storage_shape != expected) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "sparseWeight %s has storage shape %s; it must be %s, as aclnnTransSparse4to2Para gives it",
                       ShapeToString(sparse_weight->view_shape).c_str(),
                       ShapeToString(sparse_weight->storage_shape).c_str(), ShapeToString(expected).c_str());
  }
  if (sparse_weight->offset != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "sparseWeight starts %lld elements into its storage; the compressed weight fills all of it",
                       static_cast<long long>(sparse_weight->offset));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSparse4to2(Plan& plan, const aclTensor* x, const aclTensor* sparse_weight, const aclTensor* index,
                           const aclTensor* x_scale, const aclTensor* weight_scale, const aclTensor* bias,
                           const aclTensor* out) {
  // CANN's order: the weight's rank and storage, x not transposed, ranks,
  // dtypes, formats, shapes, then no empty operand.
  CANOPY_CHECK(CheckWeight(plan, sparse_weight));
  if (Transposed(x)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x %s is a transposed view; it must not be",
                       ShapeToString(x->view_shape).c_str());
  }
  const std::pair<const char*, const aclTensor*> matrices[] = {{"x", x}, {"index", index}, {"out", out}};
  for (const auto& [name, t] : matrices) CANOPY_CHECK(plan.CheckRank(name, t, 2, 2));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckRank("biasOptional", bias, 1, 1));
  CANOPY_CHECK(plan.CheckRank("xScale", x_scale, 1, 1));
  CANOPY_CHECK(plan.CheckRank("sparseWeightScale", weight_scale, 1, 1));
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("sparseWeight", sparse_weight->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, {ACL_UINT8}));
  if (bias != nullptr) CANOPY_CHECK(plan.CheckDtype("biasOptional", bias->dtype, {ACL_BF16}));
  CANOPY_CHECK(plan.CheckDtype("xScale", x_scale->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("sparseWeightScale", weight_scale->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, {ACL_BF16}));
  const std::pair<const char*, const aclTensor*> nd[] = {
      {"x", x},    {"index", index}, {"xScale", x_scale}, {"sparseWeightScale", weight_scale}, {"biasOptional", bias},
      {"out", out}};
  for (const auto& [name, t] : nd) {
    if (t != nullptr && t->format != ACL_FORMAT_ND) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has format %d; it must be ND", name,
                         static_cast<int>(t->format));
    }
  }
  const int64_t m = x->view_shape[0], k = x->view_shape[1];
  const int64_t n = sparse_weight->view_shape[0], half_k = sparse_weight->view_shape[1];
  if (CeilDiv(k, kBlock) * kBlock != 2 * half_k || k > kMaxK || half_k > kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "x %s and sparseWeight %s: the compressed width must be ceil(k / 8) * 4 and k at most %lld",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(sparse_weight->view_shape).c_str(),
                       static_cast<long long>(kMaxK));
  }
  if (bias != nullptr) CANOPY_CHECK(plan.CheckShape("biasOptional", bias, {n}));
  CANOPY_CHECK(plan.CheckShape("sparseWeightScale", weight_scale, {n}));
  CANOPY_CHECK(plan.CheckShape("xScale", x_scale, {m}));
  CANOPY_CHECK(plan.CheckShape("out", out, {m, n}));
  if (x->NumElements() == 0 || sparse_weight->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x %s and sparseWeight %s must not be empty",
                       ShapeToString(x->view_shape).c_str(), ShapeToString(sparse_weight->view_shape).c_str());
  }
  // CANN checks only the index's rank; its bytes are read as the whole NZ block
  // layout, which must be there to read.
  const Shape index_storage = IndexStorage(n, k);
  const int64_t index_bytes = index_storage[0] * index_storage[1] * kRows * kIndexColumns;
  if (StorageFromView(index) < index_bytes) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "index holds %lld bytes from its first element; the weight's index is %s (%lld bytes), as "
                       "aclnnTransSparse4to2Para gives it",
                       static_cast<long long>(std::max<int64_t>(StorageFromView(index), 0)),
                       ShapeToString(index_storage).c_str(), static_cast<long long>(index_bytes));
  }

  SparseProduct p;
  p.m = m;
  p.n = n;
  p.k = k;
  const TensorRef x_ref = plan.Input(x, "x");
  p.values = plan.InputBlocks(sparse_weight, "sparseWeight", sparse_weight->storage_shape);  // the whole storage
  p.index = plan.InputBlocks(index, "index", index_storage);
  const TensorRef x_scale_ref = plan.Input(x_scale, "xScale");
  const TensorRef weight_scale_ref = plan.Input(weight_scale, "sparseWeightScale");
  TensorRef bias_ref;
  if (bias != nullptr) {
    bias_ref = plan.Input(bias, "biasOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  p.x = plan.Contiguous(x_ref, ACL_INT8);
  p.x_scale = plan.Contiguous(x_scale_ref, ACL_FLOAT);
  p.weight_scale = plan.Contiguous(weight_scale_ref, ACL_FLOAT);
  p.has_bias = bias != nullptr;
  if (p.has_bias) p.bias = plan.Contiguous(bias_ref, ACL_BF16);
  p.dense = plan.Temporary(ACL_INT8, {n, k});
  p.acc = plan.Temporary(ACL_INT32, {m, n});
  p.out = out_ref.IsContiguous() ? out_ref : plan.Temporary(ACL_BF16, {m, n});
  std::vector<TensorRef> reads = {p.x, p.values, p.index, p.x_scale, p.weight_scale};
  if (p.has_bias) reads.push_back(p.bias);
  plan.AddStep(std::make_unique<SparseProductStep>(p), reads, p.out);
  if (!out_ref.IsContiguous()) plan.Copy(p.out, out_ref);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Sparse4to2QuantMatmulWeightNz, PlanSparse4to2,
                (OpTraits{.header = "aclnnop/aclnn_sparse4to2quant_matmul_weight_nz.h",
                          .dtypes = DtypeSet{ACL_INT8},
                          .max_rank = 2,
                          .private_formats = true,  // the weight's format tag is not read, as CANN
                          .example = "i8[3,64] i8[16,32]@FRACTAL_NZ u8[16,8] f32[3] f32[16] bf16[16] bf16[3,16]"}),
                (const aclTensor*, x), (const aclTensor*, sparseWeight), (const aclTensor*, index),
                (const aclTensor*, xScale), (const aclTensor*, sparseWeightScale),
                (const aclTensor*, biasOptional, optional), (aclTensor*, out))

extern "C" {

aclnnStatus aclnnTransSparse4to2Para(const int8_t* weight, aclIntArray* shape, int8_t** sparseWeight,
                                     int64_t** sparseWeightDims, uint64_t* sparseWeightDimsNum, uint8_t** index,
                                     int64_t** indexDims, uint64_t* indexDimsNum) try {
  return TransSparse4to2Para(weight, shape, sparseWeight, sparseWeightDims, sparseWeightDimsNum, index, indexDims,
                             indexDimsNum);
}
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
