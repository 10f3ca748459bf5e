// Stock dtype rules, shapes and reference builders; see rules.h.
#include "harness/rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "reference.h"

namespace canopy_test::harness {

// ---- Dtype cases and rules ------------------------------------------------------------------------

std::vector<DtypeCase> EachDtype(const std::vector<aclDataType>& dtypes) {
  std::vector<DtypeCase> cases;
  for (aclDataType dtype : dtypes) cases.push_back(DtypeCase{{dtype}});
  return cases;
}

std::vector<DtypeCase> CastablePairs(const std::vector<aclDataType>& from, const std::vector<aclDataType>& to) {
  std::vector<DtypeCase> cases;
  for (aclDataType f : from) {
    for (aclDataType t : to) {
      if (CanCast(f, t)) cases.push_back(DtypeCase{{f}, t});
    }
  }
  return cases;
}

std::vector<DtypeCase> Singly(std::vector<DtypeCase> cases) {
  for (DtypeCase& dc : cases) dc.pairwise = false;
  return cases;
}

std::vector<DtypeCase> Concat(std::vector<DtypeCase> cases, const std::vector<DtypeCase>& more) {
  cases.insert(cases.end(), more.begin(), more.end());
  return cases;
}

DtypeRule SameAsInput(size_t input) {
  return [input](const std::vector<aclDataType>& inputs) -> std::optional<aclDataType> {
    if (input >= inputs.size()) return std::nullopt;
    return inputs[input];
  };
}

DtypeRule FixedDtype(aclDataType dtype) {
  return [dtype](const std::vector<aclDataType>&) -> std::optional<aclDataType> { return dtype; };
}

DtypeRule PromotedDtype() {
  return [](const std::vector<aclDataType>& inputs) -> std::optional<aclDataType> {
    if (inputs.empty()) return std::nullopt;
    std::optional<aclDataType> promoted = inputs[0];
    for (size_t i = 1; i < inputs.size() && promoted; ++i) promoted = Promote(*promoted, inputs[i]);
    return promoted;
  };
}

DtypeRule IntegersToFloat() {
  return [](const std::vector<aclDataType>& inputs) -> std::optional<aclDataType> {
    if (inputs.empty()) return std::nullopt;
    return IsFloating(inputs[0]) ? inputs[0] : ACL_FLOAT;
  };
}

// ---- Shapes ---------------------------------------------------------------------------------------

namespace {

// Functions, not namespace-scope constants: rows are built during static
// initialisation, possibly before this file's constants would be.
// `large` crosses the elementwise kernels' 512-element chunks, and its rows of
// 257 leave a vector tail: every dtype meets it. `threaded` also crosses the
// 32768-element threshold above which the kernels split the work over the
// device's threads; it meets the views and forms, not every dtype (the split
// is the same code for every dtype, and 10^5-element cases are not cheap).
Shape Large() { return {7, 257}; }
Shape Threaded() { return {130, 257}; }
Shape Rank8() { return {2, 1, 2, 1, 1, 2, 1, 3}; }  // small: a stepped view of it stores 7e4 elements

}  // namespace

const std::vector<ShapeCase>& ElementwiseShapes() {
  static const std::vector<ShapeCase> shapes = {
      {"typical", {{4, 5}}, true},
      {"large", {Large(), {257}}, true},
      {"threaded", {Threaded(), {257}}},
      {"row_broadcast", {{3, 4, 5}, {4, 1}}},
      {"rank3_broadcast", {{3, 1, 5}, {4, 5}}},
      {"rank0", {{}}},
      {"rank0_other", {{2, 3}, {}}},
      {"rank8", {Rank8(), {1, 1, 2, 1, 1}}},
      {"empty", {{0, 3}, {3}}},
  };
  return shapes;
}

const std::vector<ShapeCase>& SameShapes() {
  static const std::vector<ShapeCase> shapes = {
      {"typical", {{4, 5}}, true},
      {"large", {Large()}, true},
      {"threaded", {Threaded()}},
      {"rank3", {{3, 4, 5}}},
      {"rank0", {{}}},
      {"rank8", {Rank8()}},
      {"empty", {{0, 3}}},
  };
  return shapes;
}

const std::vector<ShapeCase>& ReductionShapes() {
  static const std::vector<ShapeCase> shapes = {
      {"typical", {{4, 5, 6}}, true}, {"large", {Large()}, true}, {"threaded", {Threaded()}}, {"rank0", {{}}},
      {"rank8", {Rank8()}},           {"empty", {{3, 0, 2}}},
  };
  return shapes;
}

ShapeRule BroadcastShape() {
  return [](const std::vector<Shape>& inputs, const AttrSet&) -> std::optional<Shape> {
    std::optional<Shape> out = Shape{};
    for (const Shape& shape : inputs) {
      if (out) out = BroadcastShapes(*out, shape);
    }
    return out;
  };
}

ShapeRule ShapeOfInput(size_t input) {
  return [input](const std::vector<Shape>& inputs, const AttrSet&) -> std::optional<Shape> {
    if (input >= inputs.size()) return std::nullopt;
    return inputs[input];
  };
}

std::optional<std::vector<int64_t>> NormalizeDims(const std::vector<int64_t>& dims, size_t rank) {
  std::vector<int64_t> out;
  if (dims.empty()) {
    for (size_t d = 0; d < rank; ++d) out.push_back(static_cast<int64_t>(d));
    return out;
  }
  const auto r = static_cast<int64_t>(rank);
  // Rank 0 takes dim 0 and -1 as its only dim, as PyTorch does.
  const int64_t bound = std::max<int64_t>(r, 1);
  for (int64_t d : dims) {
    if (d < -bound || d >= bound) return std::nullopt;
    const int64_t n = d < 0 ? d + bound : d;
    if (std::find(out.begin(), out.end(), n) != out.end()) return std::nullopt;
    out.push_back(n);
  }
  if (rank == 0) out.clear();
  std::sort(out.begin(), out.end());
  return out;
}

ShapeRule ReducedShape(const std::string& dims, const std::string& keepDim) {
  return [dims, keepDim](const std::vector<Shape>& inputs, const AttrSet& attrs) -> std::optional<Shape> {
    if (inputs.empty()) return std::nullopt;
    const Shape& in = inputs[0];
    const auto reduced = NormalizeDims(attrs.IntArray(dims), in.size());
    if (!reduced) return std::nullopt;
    Shape out;
    for (size_t d = 0; d < in.size(); ++d) {
      const bool isReduced = std::find(reduced->begin(), reduced->end(), static_cast<int64_t>(d)) != reduced->end();
      if (!isReduced) {
        out.push_back(in[d]);
      } else if (attrs.Bool(keepDim)) {
        out.push_back(1);
      }
    }
    return out;
  };
}

// ---- Reference builders ---------------------------------------------------------------------------

Reference Pointwise(PointwiseFn fn) {
  return [fn = std::move(fn)](const RefCall& call) {
    std::vector<Values> expanded;
    for (const Operand& input : call.inputs) expanded.push_back(BroadcastTo(input.values, input.shape, call.outShape));
    const auto count = static_cast<size_t>(NumElements(call.outShape));
    Expected want;
    want.values.resize(count);
    std::vector<Value> x(expanded.size());
    for (size_t i = 0; i < count; ++i) {
      for (size_t k = 0; k < expanded.size(); ++k) x[k] = expanded[k][i];
      want.values[i] = fn(x, call.attrs);
    }
    return want;
  };
}

Reference Unary(std::function<Value(Value)> fn) {
  return Pointwise([fn = std::move(fn)](const std::vector<Value>& x, const AttrSet&) { return fn(x[0]); });
}

double Wrapped(int64_t v, aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
      return static_cast<int8_t>(v);
    case ACL_UINT8:
      return static_cast<uint8_t>(v);
    case ACL_INT16:
      return static_cast<int16_t>(v);
    case ACL_UINT16:
      return static_cast<uint16_t>(v);
    case ACL_INT32:
      return static_cast<int32_t>(v);
    case ACL_UINT32:
      return static_cast<uint32_t>(v);
    case ACL_UINT64:
      return static_cast<double>(static_cast<uint64_t>(v));
    default:
      return static_cast<double>(v);
  }
}

Reference ComputedIn(ComputeRule compute, PointwiseFn fn, double ulps, double minMagnitude) {
  return [compute = std::move(compute), fn = std::move(fn), ulps, minMagnitude](const RefCall& call) {
    std::vector<aclDataType> dtypes;
    for (const Operand& in : call.inputs) dtypes.push_back(in.dtype);
    const aclDataType c = compute(dtypes).value_or(call.out);
    Expected want = Pointwise(fn)(call);
    const double unit = ulps * std::max(IsRealFloat(c) ? UnitRoundoff(c) : 0.0, UnitRoundoff(call.out));
    want.tolerance.clear();
    for (Value& v : want.values) {
      v = ConvertValue(ConvertValue(v, c), call.out);
      want.tolerance.push_back(unit * std::max(std::abs(v), minMagnitude));
    }
    return want;
  };
}

int64_t RowMajorIndex(const std::vector<int64_t>& index, const Shape& shape) {
  int64_t position = 0;
  for (size_t d = 0; d < shape.size(); ++d) position = position * shape[d] + index[d];
  return position;
}

Reference Reduction(ReduceFn fn, const std::string& dims, const std::string& keepDim) {
  return [fn = std::move(fn), dims, keepDim](const RefCall& call) {
    const Operand& in = call.inputs.at(0);
    const std::vector<int64_t> reduced = NormalizeDims(call.attrs.IntArray(dims), in.shape.size()).value();
    const size_t rank = in.shape.size();
    std::vector<bool> isReduced(rank, false);
    for (int64_t d : reduced) isReduced[static_cast<size_t>(d)] = true;
    // Each output element's group, in row-major order of the input (so of the reduced dims).
    Shape kept;  // the out shape without keepDim's 1s
    for (size_t d = 0; d < rank; ++d) {
      if (!isReduced[d]) kept.push_back(in.shape[d]);
    }
    std::vector<Values> groups(static_cast<size_t>(NumElements(kept)));
    std::vector<int64_t> index(rank, 0), keptIndex;
    const int64_t count = NumElements(in.shape);
    for (int64_t n = 0; n < count; ++n) {
      keptIndex.clear();
      for (size_t d = 0; d < rank; ++d) {
        if (!isReduced[d]) keptIndex.push_back(index[d]);
      }
      groups[static_cast<size_t>(RowMajorIndex(keptIndex, kept))].push_back(in.values[static_cast<size_t>(n)]);
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < in.shape[d]) break;
        index[d] = 0;
      }
    }
    Expected want;
    for (const Values& group : groups) want.values.push_back(fn(group, call.attrs));
    return want;
  };
}

}  // namespace canopy_test::harness
