// Index and IndexPutImpl (PyTorch's advanced indexing, self[indices] and
// self[indices] = / += values) through the public C API against a plain
// reference: every documented dtype (1-byte bool to float64), int32 and int64
// index tensors that broadcast together, negative values, entries left empty
// (a whole dimension), adjacent and separated indexed dimensions, one bool
// mask, duplicates, strided, transposed, reversed, offset and broadcast views,
// values that broadcast, a second call (a plan-cache hit on new addresses),
// index values out of range and a mask count that does not match at run time
// (a stream error with a message, nothing written), each rejection with its
// status code, and the CANN documents' example calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                          ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

// One entry of the list: integer values of a shape, a bool mask, or nothing (a whole dimension).
struct Entry {
  enum Kind { kInt, kMask, kEmpty } kind = kInt;
  Shape shape;
  aclDataType dtype = ACL_INT64;
  View view = View::kContiguous;
};

struct Case {
  std::string name;
  Shape self;
  std::vector<Entry> entries;
  View selfView = View::kContiguous;
  View otherView = View::kContiguous;  // out (Index) or values (IndexPutImpl)
};

std::vector<Case> Cases() {
  const Entry empty{Entry::kEmpty, {0}};
  return {
      {"rows", {5, 4}, {{Entry::kInt, {3}}}},
      {"second_dim_s32", {3, 5, 2}, {empty, {Entry::kInt, {2, 2}, ACL_INT32}}, View::kTransposed, View::kStepped},
      {"adjacent_broadcast",
       {4, 5, 3},
       {{Entry::kInt, {2, 3}}, {Entry::kInt, {3}, ACL_INT32}},
       View::kStepped,
       View::kTransposed},
      {"separated", {4, 5, 3}, {{Entry::kInt, {2}}, empty, {Entry::kInt, {2}}}, View::kReversed, View::kOffset},
      {"index_views", {6, 3}, {{Entry::kInt, {4, 2}, ACL_INT32, View::kTransposed}}, View::kOffset, View::kReversed},
      {"rank0_index", {4, 3}, {{Entry::kInt, {}}}},
      {"mask", {3, 4}, {{Entry::kMask, {3, 4}}}, View::kTransposed},
      {"mask_after_empty",
       {3, 4, 2},
       {empty, {Entry::kMask, {4, 2}, ACL_BOOL, View::kStepped}},
       View::kStepped,
       View::kStepped},
      {"nothing_indexed", {3, 2}, {empty}},
      {"empty_int_entry_is_whole_dim", {4, 3}, {{Entry::kInt, {0, 2}}, {Entry::kInt, {2}}}},
      {"empty_kept_dim", {4, 0}, {{Entry::kInt, {3}}}},
  };
}

// The reference: for each position of B (row-major), self's coordinates at the indexed dims.
struct Indexed {
  Shape resultShape;
  std::vector<int64_t> dims;                 // self's indexed dimensions
  std::vector<std::vector<int64_t>> coords;  // per position of B, one per dims
  Shape bShape;
  int64_t lead = 0;
  std::vector<int64_t> kept;
};

Indexed Reference(const Shape& self, const std::vector<Entry>& entries, const std::vector<Values>& values) {
  Indexed r;
  const auto rank = static_cast<int64_t>(self.size());
  int64_t dim = 0;
  std::vector<size_t> ints;
  bool masked = false;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.kind == Entry::kEmpty || NumElements(e.shape) == 0) {  // no elements: the dimension stays whole
      ++dim;
    } else if (e.kind == Entry::kMask) {
      masked = true;
      for (size_t k = 0; k < e.shape.size(); ++k) r.dims.push_back(dim + static_cast<int64_t>(k));
      for (int64_t m = 0; m < NumElements(e.shape); ++m) {
        if (values[i][m].real() == 0) continue;
        r.coords.push_back(Unravel(m, e.shape));
      }
      r.bShape = {static_cast<int64_t>(r.coords.size())};
      dim += static_cast<int64_t>(e.shape.size());
    } else {
      r.dims.push_back(dim++);
      ints.push_back(i);
      // B: the broadcast of every integer entry's shape.
      const Shape& s = e.shape;
      Shape b(std::max(r.bShape.size(), s.size()), 1);
      for (size_t k = 0; k < b.size(); ++k) {
        const int64_t x = k < b.size() - r.bShape.size() ? 1 : r.bShape[k - (b.size() - r.bShape.size())];
        const int64_t y = k < b.size() - s.size() ? 1 : s[k - (b.size() - s.size())];
        b[k] = x == 1 ? y : x;
      }
      r.bShape = b;
    }
  }
  if (!masked) {
    for (int64_t p = 0; p < NumElements(r.bShape); ++p) {
      const Shape bp = Unravel(p, r.bShape);
      std::vector<int64_t> c;
      for (size_t j = 0; j < ints.size(); ++j) {
        const Shape& s = entries[ints[j]].shape;
        Shape q(bp.end() - static_cast<int64_t>(s.size()), bp.end());
        for (size_t k = 0; k < s.size(); ++k) {
          if (s[k] == 1) q[k] = 0;
        }
        int64_t v = static_cast<int64_t>(values[ints[j]][Ravel(q, s)].real());
        if (v < 0) v += self[r.dims[j]];
        c.push_back(v);
      }
      r.coords.push_back(c);
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(r.dims.begin(), r.dims.end(), d) == r.dims.end()) r.kept.push_back(d);
  }
  if (!r.dims.empty() && r.dims.back() - r.dims.front() + 1 == static_cast<int64_t>(r.dims.size())) {
    r.lead = r.dims.front();
  }
  for (int64_t d : r.kept) r.resultShape.push_back(self[d]);
  r.resultShape.insert(r.resultShape.begin() + r.lead, r.bShape.begin(), r.bShape.end());
  return r;
}

// Calls visit(selfFlat, resultFlat) for every element of the result, in row-major B order then kept order.
template <typename Visit>
void ForEachIndexed(const Shape& self, const Indexed& r, Visit visit) {
  Shape keptShape;
  for (int64_t d : r.kept) keptShape.push_back(self[d]);
  const auto bRank = static_cast<int64_t>(r.bShape.size());
  for (size_t b = 0; b < r.coords.size(); ++b) {
    const Shape bp = Unravel(static_cast<int64_t>(b), r.bShape);
    for (int64_t k = 0; k < NumElements(keptShape); ++k) {
      const Shape kp = Unravel(k, keptShape);
      Shape s(self.size());
      for (size_t j = 0; j < r.dims.size(); ++j) s[r.dims[j]] = r.coords[b][j];
      for (size_t j = 0; j < r.kept.size(); ++j) s[r.kept[j]] = kp[j];
      Shape o(kp.begin(), kp.begin() + r.lead);
      o.insert(o.end(), bp.begin(), bp.end());
      o.insert(o.end(), kp.begin() + r.lead, kp.end());
      (void)bRank;
      visit(Ravel(s, self), Ravel(o, r.resultShape));
    }
  }
}

// The entries' device tensors, with random in-range values (negative ones too) and masks.
struct Entries {
  std::vector<std::unique_ptr<DeviceTensor>> tensors;
  std::vector<Values> values;
};

Entries MakeEntries(const Shape& self, const std::vector<Entry>& entries, Rng& rng) {
  Entries made;
  int64_t dim = 0;
  for (const Entry& e : entries) {
    const aclDataType dtype = e.kind == Entry::kMask ? ACL_BOOL : e.dtype;
    made.tensors.push_back(std::make_unique<DeviceTensor>(dtype, e.shape, e.view));
    if (e.kind == Entry::kMask) {
      made.values.push_back(made.tensors.back()->FillRandom(rng, Range{0, 1, 0, 0, true}));
      dim += static_cast<int64_t>(e.shape.size());
    } else if (e.kind == Entry::kEmpty || NumElements(e.shape) == 0) {
      made.values.emplace_back();
      ++dim;
    } else {
      const int64_t n = self[dim++];
      Values v;
      for (int64_t i = 0; i < NumElements(e.shape); ++i) {
        v.push_back(static_cast<double>(std::min<int64_t>(n - 1, static_cast<int64_t>(rng.Uniform(-n, n)))));
      }
      made.tensors.back()->WriteView(v);
      made.values.push_back(v);
    }
  }
  return made;
}

aclTensorList* ListOf(OpArgs& args, const Entries& e) {
  std::vector<aclTensor*> list;
  for (const auto& t : e.tensors) list.push_back(args.Tensor(*t));
  return args.TensorList(list);
}

OpRun RunIndex(aclTensor* self, aclTensorList* indices, aclTensor* out) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) { return aclnnIndexGetWorkspaceSize(self, indices, out, ws, ex); },
      aclnnIndex);
}

OpRun RunIndexPut(aclTensor* self, aclTensorList* indices, aclTensor* values, bool accumulate, bool unsafe = false) {
  return RunOp(
      [&](OpArgs&, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIndexPutImplGetWorkspaceSize(self, indices, values, accumulate, unsafe, ws, ex);
      },
      aclnnIndexPutImpl);
}

// a + b in dtype as the op stores it (integers wrap, bool is "any non-zero").
Value Add(Value a, Value b, aclDataType dtype) {
  if (IsBool(dtype)) return (a.real() != 0 || b.real() != 0) ? 1 : 0;
  if (IsIntegral(dtype)) {
    const uint64_t sum =
        static_cast<uint64_t>(static_cast<int64_t>(a.real())) + static_cast<uint64_t>(static_cast<int64_t>(b.real()));
    const size_t bits = ElementBytes(dtype) * 8;
    int64_t wrapped = static_cast<int64_t>(bits == 64 ? sum : sum & ((uint64_t{1} << bits) - 1));
    if (!IsUnsigned(dtype) && bits < 64 && wrapped >= (int64_t{1} << (bits - 1))) wrapped -= int64_t{1} << bits;
    return static_cast<double>(wrapped);
  }
  return ConvertValue(a + b, dtype);
}

void ExpectStreamError(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);  // phase 1 cannot see the values
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << run.message;
}

void ExpectRejected(const OpRun& run, const std::string& keyword) {
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos) << "message should name '" << keyword << "': " << run.message;
}

// ---- Index --------------------------------------------------------------------------------------------

void CheckIndex(aclDataType dtype, const Case& x) {
  Rng rng = Rng::ForCurrentTest();
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, x.self, x.selfView);
    const Values values = self.FillRandom(rng, Range{});
    const Entries entries = MakeEntries(x.self, x.entries, rng);
    const Indexed r = Reference(x.self, x.entries, entries.values);
    DeviceTensor out(dtype, r.resultShape, x.otherView == View::kBroadcast ? View::kContiguous : x.otherView);
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunIndex(args.Tensor(self), ListOf(args, entries), args.Tensor(out));
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want(static_cast<size_t>(NumElements(r.resultShape)));
    ForEachIndexed(x.self, r, [&](int64_t s, int64_t o) { want[o] = values[s]; });
    ExpectExact(out.ReadView(), want, "out");
    ExpectOutsideViewUnchanged(out, before, "out storage");
  }
}

TEST(Index, EveryCase) {
  for (const Case& x : Cases()) {
    SCOPED_TRACE(x.name);
    CheckIndex(ACL_FLOAT, x);
  }
}

TEST(Index, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kDtypes) {
    SCOPED_TRACE(Name(dtype));
    const std::vector<Case> cases = Cases();
    CheckIndex(dtype, cases[c % 4]);
    CheckIndex(dtype, cases[6]);  // the mask
    ++c;
  }
}

TEST(Index, OutOfRangeFailsTheStream) {
  for (int64_t bad : {int64_t{5}, int64_t{-6}}) {
    DeviceTensor self(ACL_FLOAT, {5, 2});
    DeviceTensor index(ACL_INT64, {3});
    index.WriteView({0, static_cast<double>(bad), 4});
    DeviceTensor out(ACL_FLOAT, {3, 2});
    out.Poison();
    const std::vector<uint8_t> before = out.DownloadBytes();
    OpArgs args;
    const OpRun run = RunIndex(args.Tensor(self), args.TensorList({args.Tensor(index)}), args.Tensor(out));
    ExpectStreamError(run, "out of range");
    EXPECT_NE(run.message.find(std::to_string(bad)), std::string::npos) << run.message;
    EXPECT_NE(run.message.find("indices[0]"), std::string::npos) << run.message;
    EXPECT_EQ(out.DownloadBytes(), before) << "nothing may be written";
  }
}

// The mask's true count is out's extent; a mask with another count is a stream error.
TEST(Index, MaskCountMismatchFailsTheStream) {
  DeviceTensor self(ACL_INT32, {2, 3});
  DeviceTensor mask(ACL_BOOL, {2, 3});
  mask.WriteView({1, 0, 1, 0, 0, 1});  // 3 true
  DeviceTensor out(ACL_INT32, {4});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  OpArgs args;
  ExpectStreamError(RunIndex(args.Tensor(self), args.TensorList({args.Tensor(mask)}), args.Tensor(out)),
                    "selects 3 elements");
  EXPECT_EQ(out.DownloadBytes(), before) << "nothing may be written";
}

TEST(Index, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, const std::vector<std::pair<aclDataType, Shape>>& indices,
                 aclDataType outDtype, const Shape& out) {
    OpArgs a;
    std::vector<aclTensor*> list;
    for (const auto& [d, s] : indices) list.push_back(a.NewTensorIn(Range{0, 0, 0, 0, true}, d, s));
    return RunIndex(a.NewTensor(dtype, self), a.TensorList(list), a.NewTensor(outDtype, out));
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  ExpectRejected(call(ACL_COMPLEX64, {3, 4}, {{l, {2}}}, ACL_COMPLEX64, {2, 4}), "'self'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, ACL_DOUBLE, {2, 4}), "'out'");
  ExpectRejected(call(f, {3, 4}, {{ACL_FLOAT, {2}}}, f, {2, 4}), "'indices[0]'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}, {l, {2}}, {l, {2}}}, f, {2}), "'indices'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}, {l, {3}}}, f, {2}), "broadcast");
  ExpectRejected(call(f, {3, 4}, {{ACL_BOOL, {3, 3}}}, f, {9}), "'indices[0]'");
  ExpectRejected(call(f, {3, 4}, {{ACL_BOOL, {3}}, {l, {2}}}, f, {2}), "'indices[1]'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, f, {2, 3}), "'out'");
  ExpectRejected(call(f, {}, {}, f, {}), "'self'");
}

// The CANN document's example: self 3x4 f32 1..12, indices [0] and [2] (int64), out [1] = self[0][2].
TEST(Index, DocExample) {
  DeviceTensor self(ACL_FLOAT, {3, 4});
  self.WriteView({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  DeviceTensor one(ACL_INT64, {1});
  one.WriteView({0});
  DeviceTensor two(ACL_INT64, {1});
  two.WriteView({2});
  DeviceTensor out(ACL_FLOAT, {1});
  OpArgs args;
  ASSERT_TRUE(
      RunIndex(args.Tensor(self), args.TensorList({args.Tensor(one), args.Tensor(two)}), args.Tensor(out)).ok());
  ExpectExact(out.ReadView(), {3}, "out");
}

// ---- IndexPutImpl -------------------------------------------------------------------------------------

void CheckIndexPut(aclDataType dtype, const Case& x, bool accumulate, bool broadcastValues) {
  Rng rng = Rng::ForCurrentTest();
  for (int round = 0; round < 2; ++round) {
    DeviceTensor self(dtype, x.self, x.selfView == View::kBroadcast ? View::kContiguous : x.selfView);
    const Values original = self.FillRandom(rng, Range{});
    const Entries entries = MakeEntries(x.self, x.entries, rng);
    const Indexed r = Reference(x.self, x.entries, entries.values);
    // values: the indexed shape, or (broadcast) its last dimension only.
    const Shape valuesShape = broadcastValues && !r.resultShape.empty() ? Shape{r.resultShape.back()} : r.resultShape;
    DeviceTensor values(dtype, valuesShape, x.otherView);
    const Values updates = values.FillRandom(rng, Range{});
    OpArgs args;
    aclTensor* selfRef = args.Tensor(self);
    const OpRun run = RunIndexPut(selfRef, ListOf(args, entries), args.Tensor(values), accumulate, round == 1);
    ASSERT_TRUE(run.ok()) << Describe(run);
    Values want = original;
    const int64_t width = valuesShape.empty() ? 1 : valuesShape.back();
    ForEachIndexed(x.self, r, [&](int64_t s, int64_t o) {
      const Value v = broadcastValues ? updates[o % width] : updates[o];
      want[s] = accumulate ? Add(want[s], v, dtype) : v;  // in B's order: the last write wins, sums in order
    });
    ExpectExact(self.ReadView(), want, "selfRef");
  }
}

TEST(IndexPutImpl, EveryCase) {
  for (const Case& x : Cases()) {
    for (bool accumulate : {false, true}) {
      SCOPED_TRACE(x.name + (accumulate ? " accumulate" : ""));
      CheckIndexPut(ACL_FLOAT, x, accumulate, false);
      CheckIndexPut(ACL_INT32, x, accumulate, true);
    }
  }
}

TEST(IndexPutImpl, EveryDtype) {
  size_t c = 0;
  for (aclDataType dtype : kDtypes) {
    SCOPED_TRACE(Name(dtype));
    const std::vector<Case> cases = Cases();
    CheckIndexPut(dtype, cases[c % 4], c % 2 == 0, c % 3 == 0);
    CheckIndexPut(dtype, cases[6], c % 2 == 1, false);
    ++c;
  }
}

// Duplicate positions: accumulate adds every value (in order); otherwise the last one wins.
TEST(IndexPutImpl, Duplicates) {
  DeviceTensor self(ACL_FLOAT, {3});
  DeviceTensor index(ACL_INT64, {4});
  index.WriteView({1, 1, -2, 0});
  DeviceTensor values(ACL_FLOAT, {4});
  values.WriteView({1, 2, 4, 8});
  for (bool accumulate : {false, true}) {
    self.WriteView({10, 20, 30});
    OpArgs args;
    ASSERT_TRUE(
        RunIndexPut(args.Tensor(self), args.TensorList({args.Tensor(index)}), args.Tensor(values), accumulate).ok());
    ExpectExact(self.ReadView(), accumulate ? Values{18, 27, 30} : Values{8, 4, 30}, "selfRef");
  }
}

TEST(IndexPutImpl, OutOfRangeFailsTheStreamAndWritesNothing) {
  for (bool unsafe : {false, true}) {
    DeviceTensor self(ACL_FLOAT, {4, 2});
    Rng rng = Rng::ForCurrentTest();
    self.FillRandom(rng, Range{});
    const std::vector<uint8_t> before = self.DownloadBytes();
    DeviceTensor index(ACL_INT32, {2});
    index.WriteView({0, 4});
    DeviceTensor values(ACL_FLOAT, {2, 2});
    values.FillRandom(rng, Range{});
    OpArgs args;
    const OpRun run =
        RunIndexPut(args.Tensor(self), args.TensorList({args.Tensor(index)}), args.Tensor(values), true, unsafe);
    ExpectStreamError(run, "out of range");
    EXPECT_EQ(self.DownloadBytes(), before) << "nothing may be written";
  }
}

TEST(IndexPutImpl, MaskCountMismatchFailsTheStream) {
  DeviceTensor self(ACL_FLOAT, {2, 3});
  Rng rng = Rng::ForCurrentTest();
  self.FillRandom(rng, Range{});
  const std::vector<uint8_t> before = self.DownloadBytes();
  DeviceTensor mask(ACL_BOOL, {2, 3});
  mask.WriteView({1, 1, 0, 0, 0, 1});  // 3 true, values bring 2
  DeviceTensor values(ACL_FLOAT, {2});
  values.FillRandom(rng, Range{});
  OpArgs args;
  ExpectStreamError(RunIndexPut(args.Tensor(self), args.TensorList({args.Tensor(mask)}), args.Tensor(values), false),
                    "selects 3 elements");
  EXPECT_EQ(self.DownloadBytes(), before) << "nothing may be written";
}

// values of one element broadcast over every selected position of a mask.
TEST(IndexPutImpl, MaskWithOneValue) {
  DeviceTensor self(ACL_INT16, {2, 3});
  self.WriteView({1, 2, 3, 4, 5, 6});
  DeviceTensor mask(ACL_BOOL, {2, 3});
  mask.WriteView({0, 1, 0, 1, 0, 1});
  DeviceTensor values(ACL_INT16, {1});
  values.WriteView({-7});
  OpArgs args;
  ASSERT_TRUE(RunIndexPut(args.Tensor(self), args.TensorList({args.Tensor(mask)}), args.Tensor(values), false).ok());
  ExpectExact(self.ReadView(), {1, -7, 3, -7, 5, -7}, "selfRef");
}

TEST(IndexPutImpl, Rejections) {
  auto call = [](aclDataType dtype, const Shape& self, const std::vector<std::pair<aclDataType, Shape>>& indices,
                 aclDataType valuesDtype, const Shape& values) {
    OpArgs a;
    std::vector<aclTensor*> list;
    for (const auto& [d, s] : indices) list.push_back(a.NewTensorIn(Range{0, 0, 0, 0, true}, d, s));
    return RunIndexPut(a.NewTensor(dtype, self), a.TensorList(list), a.NewTensor(valuesDtype, values), false);
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  ExpectRejected(call(ACL_COMPLEX64, {3, 4}, {{l, {2}}}, ACL_COMPLEX64, {2, 4}), "'selfRef'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, ACL_UINT32, {2, 4}), "'values'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, ACL_DOUBLE, {2, 4}), "'values'");
  ExpectRejected(call(f, {3, 4}, {{ACL_INT16, {2}}}, f, {2, 4}), "'indices[0]'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}, {l, {2}}, {l, {2}}}, f, {2}), "'indices'");
  ExpectRejected(call(f, {3, 4}, {{ACL_BOOL, {4}}}, f, {1}), "'indices[0]'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, f, {3, 4}), "'values'");
  ExpectRejected(call(f, {3, 4}, {{l, {2}}}, f, {2, 2, 4}), "'values'");
}

// The CANN document's example: self 3x4 f32 1..12, indices [0] and [2], values [1], accumulate.
TEST(IndexPutImpl, DocExample) {
  DeviceTensor self(ACL_FLOAT, {3, 4});
  self.WriteView({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  DeviceTensor one(ACL_INT64, {1});
  one.WriteView({0});
  DeviceTensor two(ACL_INT64, {1});
  two.WriteView({2});
  DeviceTensor value(ACL_FLOAT, {1});
  value.WriteView({1});
  OpArgs args;
  ASSERT_TRUE(RunIndexPut(args.Tensor(self), args.TensorList({args.Tensor(one), args.Tensor(two)}), args.Tensor(value),
                          true, false)
                  .ok());
  ExpectExact(self.ReadView(), {1, 2, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "selfRef");
}

}  // namespace
}  // namespace canopy_test
