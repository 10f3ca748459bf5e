// The recurrent gated delta rule (see gated_delta_rule.h).
#include "gated_delta_rule.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

// What a kernel that reads out of bounds reports at synchronisation.
constexpr aclnnStatus kBadIndexStatus = ACL_ERROR_RT_AICORE_EXCEPTION;

int32_t ReadInt32(const char* base, int64_t stride, int64_t i) {
  int32_t value;
  std::memcpy(&value, base + i * stride * static_cast<int64_t>(sizeof(int32_t)), sizeof value);
  return value;
}

class GatedDeltaRuleStep final : public Step {
 public:
  explicit GatedDeltaRuleStep(const GatedDeltaRuleDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    // The sequences and slots, checked before anything is written.
    const char* lengths = context.Resolve(d_.lengths.buffer);
    const char* indices = context.Resolve(d_.indices.buffer);
    const char* accepted = d_.has_accepted ? context.Resolve(d_.accepted.buffer) : nullptr;
    std::vector<int64_t> first(static_cast<size_t>(d_.batch) + 1, 0), start_slot(static_cast<size_t>(d_.batch), 0);
    for (int64_t b = 0; b < d_.batch; ++b) {
      const int32_t length = ReadInt32(lengths, d_.lengths.strides[0], b);
      if (length < 0 || length > d_.max_sequence || first[b] + length > d_.tokens) {
        SetErrorMessage("%s: actualSeqLengths[%lld] is %d: each length must be in [0, %lld] and they must sum to %lld",
                        d_.op, static_cast<long long>(b), length, static_cast<long long>(d_.max_sequence),
                        static_cast<long long>(d_.tokens));
        return kBadIndexStatus;
      }
      first[static_cast<size_t>(b) + 1] = first[static_cast<size_t>(b)] + length;
    }
    if (first[static_cast<size_t>(d_.batch)] != d_.tokens) {
      SetErrorMessage("%s: actualSeqLengths sum to %lld, but query holds %lld tokens", d_.op,
                      static_cast<long long>(first[static_cast<size_t>(d_.batch)]), static_cast<long long>(d_.tokens));
      return kBadIndexStatus;
    }
    for (int64_t t = 0; t < d_.tokens; ++t) {
      const int32_t slot = ReadInt32(indices, d_.indices.strides[0], t);
      if (slot < 0 || slot >= d_.state_slots) {
        SetErrorMessage("%s: ssmStateIndices[%lld] is %d, outside the %lld state slots", d_.op,
                        static_cast<long long>(t), slot, static_cast<long long>(d_.state_slots));
        return kBadIndexStatus;
      }
    }
    for (int64_t b = 0; b < d_.batch; ++b) {
      const int64_t length = first[static_cast<size_t>(b) + 1] - first[static_cast<size_t>(b)];
      if (length == 0) continue;
      int64_t offset = 0;
      if (accepted != nullptr) {
        const int32_t count = ReadInt32(accepted, d_.accepted.strides[0], b);
        if (count < 1 || count > length) {
          SetErrorMessage("%s: numAcceptedTokens[%lld] is %d; it must be in [1, %lld] (the sequence's length)", d_.op,
                          static_cast<long long>(b), count, static_cast<long long>(length));
          return kBadIndexStatus;
        }
        offset = count - 1;
      }
      start_slot[static_cast<size_t>(b)] =
          ReadInt32(indices, d_.indices.strides[0], first[static_cast<size_t>(b)] + offset);
    }

    ParallelFor(d_.batch * d_.value_heads, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> state(static_cast<size_t>(d_.value_dim * d_.key_dim));
      std::vector<float> q(static_cast<size_t>(d_.key_dim)), k(q.size()), v(static_cast<size_t>(d_.value_dim)),
          o(v.size());
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t b = unit / d_.value_heads, h = unit % d_.value_heads;
        const int64_t t0 = first[static_cast<size_t>(b)], t1 = first[static_cast<size_t>(b) + 1];
        if (t0 == t1) continue;
        Sequence(context, h, t0, t1, start_slot[static_cast<size_t>(b)], indices, state, q, k, v, o);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "recurrent gated delta rule T=" + std::to_string(d_.tokens) + " B=" + std::to_string(d_.batch) +
           " Nk=" + std::to_string(d_.key_heads) + " Nv=" + std::to_string(d_.value_heads) +
           " Dk=" + std::to_string(d_.key_dim) + " Dv=" + std::to_string(d_.value_dim);
  }

 private:
  static char* At(const RunContext& context, const GdrOperand& o, int64_t i0, int64_t i1, int64_t i2 = 0,
                  int64_t i3 = 0) {
    const int64_t offset = i0 * o.strides[0] + i1 * o.strides[1] + i2 * o.strides[2] + i3 * o.strides[3];
    return context.Resolve(o.buffer) + offset * static_cast<int64_t>(DtypeSize(o.dtype));
  }
  static float Scalar(const RunContext& context, const GdrOperand& o, int64_t i0, int64_t i1) {
    float value;
    Load(o.dtype, At(context, o, i0, i1), 1, 1, &value);
    return value;
  }

  void Sequence(const RunContext& context, int64_t h, int64_t t0, int64_t t1, int64_t start_slot, const char* indices,
                std::vector<float>& state, std::vector<float>& q, std::vector<float>& k, std::vector<float>& v,
                std::vector<float>& o) const {
    const int64_t dk = d_.key_dim, dv = d_.value_dim;
    const int64_t kh = h / (d_.value_heads / d_.key_heads);
    for (int64_t r = 0; r < dv; ++r) {
      Load(d_.state.dtype, At(context, d_.state, start_slot, h, r), d_.state.strides[3], dk, state.data() + r * dk);
    }
    for (int64_t t = t0; t < t1; ++t) {
      Load(d_.query.dtype, At(context, d_.query, t, kh), d_.query.strides[2], dk, q.data());
      Load(d_.key.dtype, At(context, d_.key, t, kh), d_.key.strides[2], dk, k.data());
      Load(d_.value.dtype, At(context, d_.value, t, h), d_.value.strides[2], dv, v.data());
      for (float& x : q) x *= d_.scale;
      const float alpha = d_.has_gate ? std::exp(Scalar(context, d_.gate, t, h)) : 1.0f;
      const float beta = Scalar(context, d_.beta, t, h);
      for (int64_t r = 0; r < dv; ++r) {
        float* row = state.data() + r * dk;
        float projected = 0.0f;
        for (int64_t c = 0; c < dk; ++c) {
          row[c] *= alpha;
          projected += row[c] * k[static_cast<size_t>(c)];
        }
        const float delta = (v[static_cast<size_t>(r)] - projected) * beta;
        float dot = 0.0f;
        for (int64_t c = 0; c < dk; ++c) {
          row[c] += delta * k[static_cast<size_t>(c)];
          dot += row[c] * q[static_cast<size_t>(c)];
        }
        o[static_cast<size_t>(r)] = dot;
      }
      Store(o.data(), d_.out.dtype, At(context, d_.out, t, h), d_.out.strides[2], dv);
      const int64_t slot = ReadInt32(indices, d_.indices.strides[0], t);
      for (int64_t r = 0; r < dv; ++r) {
        Store(state.data() + r * dk, d_.state_out.dtype, At(context, d_.state_out, slot, h, r), d_.state_out.strides[3],
              dk);
      }
    }
  }

  GatedDeltaRuleDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeGatedDeltaRuleStep(const GatedDeltaRuleDesc& desc) {
  return std::make_unique<GatedDeltaRuleStep>(desc);
}

}  // namespace canopy::kernels
