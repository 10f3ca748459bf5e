// ChunkCat, StridedSliceAssignV2 and ScatterList through the public API
// against plain references: every A2 dtype, strided views of inputs and
// outputs, chunk counts above a tensor's rows (whole chunks of padding),
// empty list members, slices clamped from out-of-range bounds, windows of
// (offset, length) pairs, masks, caches whose dimensions group differently
// from the slabs', offsets that do not fit (a stream error, nothing written),
// CANN's examples and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_chunk_cat.h"
#include "aclnnop/aclnn_scatter_list.h"
#include "aclnnop/aclnn_strided_slice_assign_v2.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

int64_t RowWidth(const Shape& shape) {
  int64_t width = 1;
  for (size_t d = 1; d < shape.size(); ++d) width *= shape[d];
  return width;
}

// ---- ChunkCat ----------------------------------------------------------------------------------

struct ChunkCatCase {
  std::vector<Shape> members;
  int64_t chunks;
  View view;
};

// out's expected values: row i is chunk i of every member, zero-padded.
Values ChunkCatReference(const std::vector<Shape>& shapes, const std::vector<Values>& values, int64_t chunks,
                         aclDataType outDtype, int64_t& width) {
  width = 0;
  for (const Shape& s : shapes) {
    if (NumElements(s) > 0) width += (s[0] + chunks - 1) / chunks * RowWidth(s);
  }
  Values out(static_cast<size_t>(chunks * width));
  int64_t column = 0;
  for (size_t k = 0; k < shapes.size(); ++k) {
    if (NumElements(shapes[k]) == 0) continue;
    const int64_t rows = shapes[k][0], per = (rows + chunks - 1) / chunks, w = RowWidth(shapes[k]);
    for (int64_t i = 0; i < chunks; ++i) {
      for (int64_t j = 0; j < per; ++j) {
        for (int64_t c = 0; c < w; ++c) {
          const int64_t row = i * per + j;
          const Value v = row < rows ? values[k][static_cast<size_t>(row * w + c)] : Value(0);
          out[static_cast<size_t>(i * width + column + j * w + c)] = ConvertValue(v, outDtype);
        }
      }
    }
    column += per * w;
  }
  return out;
}

TEST(ChunkCat, MatchesReference) {
  const std::vector<ChunkCatCase> cases = {
      {{{2, 3}, {1, 3}}, 2, View::kContiguous},
      {{{5, 2, 3}, {3, 4}, {7}}, 3, View::kTransposed},
      {{{4, 3}, {0, 3}, {6, 2}}, 4, View::kStepped},
      {{{2, 2}, {1, 5}}, 5, View::kContiguous},  // more chunks than rows: whole chunks of zeros
      {{{9, 1, 2}}, 1, View::kOffset},
      {{{6, 3}, {6, 3}, {1, 1}}, 6, View::kReversed},
  };
  const std::vector<std::pair<aclDataType, aclDataType>> dtypes = {
      {ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16}, {ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT16, ACL_BF16},
      {ACL_BF16, ACL_BF16},   {ACL_BF16, ACL_FLOAT},      {ACL_BF16, ACL_FLOAT16}};
  for (const auto& [in, outDtype] : dtypes) {
    for (const ChunkCatCase& c : cases) {
      SCOPED_TRACE(std::string(Name(in)) + "->" + Name(outDtype) + " chunks " + std::to_string(c.chunks) + " " +
                   ViewName(c.view));
      Rng rng = Rng::ForCurrentTest();
      std::vector<std::unique_ptr<DeviceTensor>> members;
      std::vector<Values> values;
      for (const Shape& s : c.members) {
        members.push_back(std::make_unique<DeviceTensor>(in, s, c.view));
        values.push_back(members.back()->FillRandom(rng, Range{-8, 8}));
      }
      int64_t width = 0;
      const Values want = ChunkCatReference(c.members, values, c.chunks, outDtype, width);
      DeviceTensor out(outDtype, {c.chunks, width}, c.view == View::kReversed ? View::kTransposed : c.view);
      out.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            std::vector<aclTensor*> list;
            for (const auto& m : members) list.push_back(a.Tensor(*m));
            return aclnnChunkCatGetWorkspaceSize(a.TensorList(list), 0, c.chunks, a.Tensor(out), w, e);
          },
          aclnnChunkCat);
      const Values got = out.ReadView();
      for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "element " << i;
    }
  }
}

// CANN's example: [[1, 2, 3], [4, 5, 6]] and [[7, 8, 9]] in two chunks.
TEST(ChunkCat, CannExample) {
  const auto a = Upload(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  const auto b = Upload(ACL_FLOAT, {1, 3}, {7, 8, 9});
  DeviceTensor out(ACL_FLOAT, {2, 6});
  ExpectRuns(
      [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
        return aclnnChunkCatGetWorkspaceSize(args.TensorList({args.Tensor(*a), args.Tensor(*b)}), 0, 2,
                                             args.Tensor(out), w, e);
      },
      aclnnChunkCat);
  const Values want = {1, 2, 3, 7, 8, 9, 4, 5, 6, 0, 0, 0};
  EXPECT_EQ(out.ReadView(), want);
}

TEST(ChunkCat, EmptyListAndEmptyMembersWriteNothing) {
  for (const bool empty_list : {true, false}) {
    DeviceTensor out(ACL_FLOAT, {2, 0});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          std::vector<aclTensor*> list;
          if (!empty_list) list = {a.NewTensor(ACL_FLOAT, {0, 3}), a.NewTensor(ACL_FLOAT, {4, 0})};
          return aclnnChunkCatGetWorkspaceSize(a.TensorList(list), 0, 2, a.Tensor(out), w, e);
        },
        aclnnChunkCat);
    EXPECT_TRUE(run.ok()) << Describe(run);
  }
}

OpRun CallChunkCat(const std::vector<std::pair<aclDataType, Shape>>& members, int64_t dim, int64_t chunks,
                   aclDataType outDtype, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::vector<aclTensor*> list;
        for (const auto& [dtype, shape] : members) list.push_back(a.NewTensor(dtype, shape));
        return aclnnChunkCatGetWorkspaceSize(a.TensorList(list), dim, chunks, a.NewTensor(outDtype, outShape), w, e);
      },
      aclnnChunkCat);
}

TEST(ChunkCat, Rejections) {
  struct Case {
    std::string name, keyword;
    OpRun run;
  };
  const aclDataType f = ACL_FLOAT, h = ACL_FLOAT16;
  const std::vector<Case> cases = {
      {"dim1", "'dim'", CallChunkCat({{f, {2, 3}}}, 1, 2, f, {2, 3})},
      {"int32", "'tensors[0]'", CallChunkCat({{ACL_INT32, {2, 3}}}, 0, 2, ACL_INT32, {2, 3})},
      {"mixed", "'tensors[1]'", CallChunkCat({{h, {2, 3}}, {f, {2, 3}}}, 0, 2, f, {2, 6})},
      {"out_double", "'out'", CallChunkCat({{f, {2, 3}}}, 0, 2, ACL_DOUBLE, {2, 3})},
      {"float_to_half", "FLOAT", CallChunkCat({{f, {2, 3}}}, 0, 2, h, {2, 3})},
      {"rank0", "'tensors[0]'", CallChunkCat({{f, {}}}, 0, 1, f, {1, 1})},
      {"rank9", "'tensors[0]'", CallChunkCat({{f, {1, 1, 1, 1, 1, 1, 1, 1, 2}}}, 0, 1, f, {1, 2})},
      {"chunks0", "'numChunks'", CallChunkCat({{f, {2, 3}}}, 0, 0, f, {0, 0})},
      {"out_shape", "'out'", CallChunkCat({{f, {3, 3}}}, 0, 2, f, {2, 5})},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.run.phase1, ACLNN_ERR_PARAM_INVALID) << c.name << ": " << Describe(c.run);
    EXPECT_NE(c.run.message.find(c.keyword), std::string::npos) << c.name << ": " << c.run.message;
  }
}

// ---- StridedSliceAssignV2 ----------------------------------------------------------------------

struct AssignCase {
  Shape var;
  std::vector<int64_t> begin, end, strides;
  std::vector<int64_t> axes;  // empty: every dimension, no axesOptional
  View view;
};

int64_t Clamp(int64_t bound, int64_t n) { return std::clamp<int64_t>(bound < 0 ? bound + n : bound, 0, n); }

// Per dimension of var: (first, count, step) of the slice.
std::vector<std::array<int64_t, 3>> SliceOf(const AssignCase& c) {
  std::vector<std::array<int64_t, 3>> slices;
  for (int64_t n : c.var) slices.push_back({0, n, 1});
  for (size_t i = 0; i < c.begin.size(); ++i) {
    const size_t d = c.axes.empty() ? i
                                    : static_cast<size_t>(c.axes[i] < 0 ? c.axes[i] + static_cast<int64_t>(c.var.size())
                                                                        : c.axes[i]);
    const int64_t n = c.var[d], first = Clamp(c.begin[i], n), last = Clamp(c.end[i], n);
    slices[d] = {first, last <= first ? 0 : (last - first - 1) / c.strides[i] + 1, c.strides[i]};
  }
  return slices;
}

TEST(StridedSliceAssignV2, MatchesReference) {
  const std::vector<AssignCase> cases = {
      {{4, 3}, {1, 0}, {4, 2}, {2, 1}, {0, 1}, View::kContiguous},
      {{5, 6, 4}, {-4, 1}, {100, -1}, {3, 2}, {0, 1}, View::kTransposed},
      {{5, 6, 4}, {0, 1, 1}, {5, 6, 3}, {2, 2, 1}, {}, View::kStepped},
      {{3, 7}, {-100}, {5}, {2}, {0}, View::kOffset},
      {{2, 3, 4, 5}, {1, -3}, {3, 5}, {1, 1}, {-1, 1}, View::kReversed},
      {{6}, {2}, {2}, {1}, {0}, View::kContiguous},  // an empty slice: nothing written
  };
  for (aclDataType dtype : {ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_INT64, ACL_DOUBLE, ACL_INT8}) {
    for (const AssignCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.var) + " " + ViewName(c.view));
      Rng rng = Rng::ForCurrentTest();
      const auto slices = SliceOf(c);
      Shape valueShape;
      for (const auto& s : slices) valueShape.push_back(s[1]);
      DeviceTensor var(dtype, c.var, c.view);
      DeviceTensor value(dtype, valueShape, c.view == View::kReversed ? View::kContiguous : View::kTransposed);
      Values want = var.FillRandom(rng, Range{-50, 50});
      const Values values = value.FillRandom(rng, Range{-50, 50});
      for (int64_t k = 0; k < NumElements(valueShape); ++k) {
        const Shape at = Unravel(k, valueShape);
        Shape target(at.size());
        for (size_t d = 0; d < at.size(); ++d) target[d] = slices[d][0] + at[d] * slices[d][2];
        want[static_cast<size_t>(Ravel(target, c.var))] = values[static_cast<size_t>(k)];
      }
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnStridedSliceAssignV2GetWorkspaceSize(a.Tensor(var), a.Tensor(value), a.IntArray(c.begin),
                                                             a.IntArray(c.end), a.IntArray(c.strides),
                                                             c.axes.empty() ? nullptr : a.IntArray(c.axes), w, e);
          },
          aclnnStridedSliceAssignV2);
      EXPECT_EQ(var.ReadView(), want);
    }
  }
}

// CANN's example: rows 1 and 3, columns 0 and 1 of a [4, 3] of 0..11.
TEST(StridedSliceAssignV2, CannExample) {
  const auto var = Upload(ACL_FLOAT, {4, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const auto value = Upload(ACL_FLOAT, {2, 2}, {-1, -2, -3, -4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnStridedSliceAssignV2GetWorkspaceSize(a.Tensor(*var), a.Tensor(*value), a.IntArray({1, 0}),
                                                         a.IntArray({4, 2}), a.IntArray({2, 1}), a.IntArray({0, 1}), w,
                                                         e);
      },
      aclnnStridedSliceAssignV2);
  const Values want = {0, 1, 2, -1, -2, 5, 6, 7, 8, -3, -4, 11};
  EXPECT_EQ(var->ReadView(), want);
}

TEST(StridedSliceAssignV2, Rejections) {
  struct Case {
    std::string name;
    aclDataType var, value;
    Shape varShape, valueShape;
    std::vector<int64_t> begin, end, strides, axes;
    aclnnStatus expected;
    std::string keyword;
  };
  const aclDataType f = ACL_FLOAT;
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR, invalid = ACLNN_ERR_PARAM_INVALID;
  const std::vector<Case> cases = {
      {"uint8", ACL_UINT8, ACL_UINT8, {4, 3}, {2, 3}, {0}, {2}, {1}, {0}, invalid, "'varRef'"},
      {"dtypes_differ", f, ACL_FLOAT16, {4, 3}, {2, 3}, {0}, {2}, {1}, {0}, invalid, "'inputValue'"},
      {"rank_differs", f, f, {4, 3}, {6}, {0}, {2}, {1}, {0}, tiling, "rank"},
      {"empty_var", f, f, {0, 3}, {0, 3}, {0}, {0}, {1}, {0}, tiling, "empty"},
      {"axis_range", f, f, {4, 3}, {2, 3}, {0}, {2}, {1}, {2}, tiling, "'axesOptional'"},
      {"axis_twice", f, f, {4, 3}, {2, 3}, {0, 0}, {2, 2}, {1, 1}, {0, -2}, tiling, "twice"},
      {"stride0", f, f, {4, 3}, {2, 3}, {0}, {2}, {0}, {0}, tiling, "'strides'"},
      {"stride_negative", f, f, {4, 3}, {2, 3}, {0}, {2}, {-1}, {0}, tiling, "'strides'"},
      {"last_stride", f, f, {4, 4}, {4, 2}, {0}, {4}, {2}, {1}, tiling, "last dimension"},
      {"value_shape", f, f, {4, 3}, {3, 3}, {0}, {2}, {1}, {0}, tiling, "'inputValue'"},
      {"lengths", f, f, {4, 3}, {2, 3}, {0, 0}, {2}, {1}, {0}, tiling, "'begin'"},
      {"no_axes_lengths", f, f, {4, 3}, {2, 3}, {0}, {2}, {1}, {}, tiling, "'begin'"},
  };
  for (const Case& c : cases) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnStridedSliceAssignV2GetWorkspaceSize(
              a.NewTensor(c.var, c.varShape), a.NewTensor(c.value, c.valueShape), a.IntArray(c.begin),
              a.IntArray(c.end), a.IntArray(c.strides), c.axes.empty() ? nullptr : a.IntArray(c.axes), w, e);
        },
        aclnnStridedSliceAssignV2);
    EXPECT_EQ(run.phase1, c.expected) << c.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(c.keyword), std::string::npos) << c.name << ": " << run.message;
  }
}

// ---- ScatterList -------------------------------------------------------------------------------

struct ScatterListCase {
  int64_t caches;
  Shape cache;
  Shape updates;  // [caches, ...]
  int64_t axis;
  bool pairs;
  bool masked;
  View view;
};

TEST(ScatterList, MatchesReference) {
  const std::vector<ScatterListCase> cases = {
      {3, {2, 6, 4}, {3, 2, 3, 4}, 2, false, false, View::kContiguous},
      {3, {2, 6, 4}, {3, 2, 3, 4}, -2, true, true, View::kTransposed},
      {2, {6, 5, 8}, {2, 6, 2, 2, 4}, 2, true, false, View::kStepped},  // slabs grouped differently
      {4, {7, 3}, {4, 7, 1}, 2, false, true, View::kOffset},
      {1, {5, 3, 4}, {1, 5, 3, 4}, -2, true, false, View::kContiguous},  // CANN's example's shapes
  };
  const std::vector<aclDataType> dtypes = {ACL_INT8,   ACL_INT16,   ACL_INT32, ACL_UINT8, ACL_UINT16,
                                           ACL_UINT32, ACL_FLOAT16, ACL_BF16,  ACL_FLOAT};
  for (aclDataType dtype : dtypes) {
    for (aclDataType indexDtype : {ACL_INT32, ACL_INT64}) {
      for (const ScatterListCase& c : cases) {
        SCOPED_TRACE(std::string(Name(dtype)) + " " + Name(indexDtype) + " " + ShapeString(c.updates) + " " +
                     ViewName(c.view));
        Rng rng = Rng::ForCurrentTest();
        const auto rank = static_cast<int64_t>(c.updates.size());
        const int64_t a = c.axis < 0 ? c.axis + rank : c.axis;
        const auto dim = static_cast<size_t>(a - 1);
        const int64_t slab = c.updates[static_cast<size_t>(a)];
        std::vector<std::unique_ptr<DeviceTensor>> caches;
        std::vector<Values> want;
        for (int64_t b = 0; b < c.caches; ++b) {
          caches.push_back(std::make_unique<DeviceTensor>(dtype, c.cache, c.view));
          want.push_back(caches.back()->FillRandom(rng, Range{0, 60}));
        }
        DeviceTensor updates(dtype, c.updates, c.view);
        const Values u = updates.FillRandom(rng, Range{0, 60});
        Values index, mask;
        std::vector<int64_t> offsets, lengths;
        for (int64_t b = 0; b < c.caches; ++b) {
          const int64_t length =
              c.pairs ? static_cast<int64_t>(rng.Uniform(0, static_cast<double>(slab) + 0.99)) : slab;
          const int64_t offset =
              static_cast<int64_t>(rng.Uniform(0, static_cast<double>(c.cache[dim] - length) + 0.99));
          offsets.push_back(offset);
          lengths.push_back(length);
          index.emplace_back(offset);
          if (c.pairs) index.emplace_back(length);
          mask.emplace_back(c.masked ? (b % 3) * 127 : 1);  // 0 leaves the cache alone; 127 and 254 write it, as 1
        }
        const auto indice = Upload(indexDtype, c.pairs ? Shape{c.caches, 2} : Shape{c.caches}, index);
        const auto maskTensor = Upload(ACL_UINT8, {c.caches}, mask);
        // The reference: the cache as [pre, extent, post], the slab as [pre, slab, post].
        int64_t pre = 1, post = 1;
        for (size_t d = 0; d < dim; ++d) pre *= c.cache[d];
        for (size_t d = dim + 1; d < c.cache.size(); ++d) post *= c.cache[d];
        for (int64_t b = 0; b < c.caches; ++b) {
          if (mask[static_cast<size_t>(b)] == Value(0)) continue;
          for (int64_t p = 0; p < pre; ++p) {
            for (int64_t t = 0; t < lengths[static_cast<size_t>(b)]; ++t) {
              for (int64_t q = 0; q < post; ++q) {
                const int64_t to = (p * c.cache[dim] + offsets[static_cast<size_t>(b)] + t) * post + q;
                const int64_t from = ((b * pre + p) * slab + t) * post + q;
                want[static_cast<size_t>(b)][static_cast<size_t>(to)] = u[static_cast<size_t>(from)];
              }
            }
          }
        }
        ExpectRuns(
            [&](OpArgs& args, uint64_t* w, aclOpExecutor** e) {
              std::vector<aclTensor*> list;
              for (const auto& cache : caches) list.push_back(args.Tensor(*cache));
              char reduce[] = "update";
              return aclnnScatterListGetWorkspaceSize(args.TensorList(list), args.Tensor(*indice), args.Tensor(updates),
                                                      c.masked ? args.Tensor(*maskTensor) : nullptr, reduce, c.axis, w,
                                                      e);
            },
            aclnnScatterList);
        for (int64_t b = 0; b < c.caches; ++b)
          EXPECT_EQ(caches[static_cast<size_t>(b)]->ReadView(), want[static_cast<size_t>(b)]) << "cache " << b;
      }
    }
  }
}

// A window past a cache's end fails the stream task, and no cache is written.
TEST(ScatterList, WindowOutsideACacheIsAStreamError) {
  for (const bool pairs : {false, true}) {
    DeviceTensor first(ACL_FLOAT, {2, 6, 4}), second(ACL_FLOAT, {2, 6, 4});
    Rng rng = Rng::ForCurrentTest();
    first.FillRandom(rng, Range{});
    second.FillRandom(rng, Range{});
    const std::vector<uint8_t> before_first = first.DownloadBytes(), before_second = second.DownloadBytes();
    const auto indice = pairs ? Upload(ACL_INT64, {2, 2}, {0, 3, 4, 3}) : Upload(ACL_INT64, {2}, {0, 4});
    DeviceTensor updates(ACL_FLOAT, {2, 2, 3, 4});
    updates.FillRandom(rng, Range{});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnScatterListGetWorkspaceSize(a.TensorList({a.Tensor(first), a.Tensor(second)}), a.Tensor(*indice),
                                                  a.Tensor(updates), nullptr, nullptr, 2, w, e);
        },
        aclnnScatterList);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("aclnnScatterList"), std::string::npos) << run.message;
    EXPECT_EQ(first.DownloadBytes(), before_first);
    EXPECT_EQ(second.DownloadBytes(), before_second);
  }
}

TEST(ScatterList, Rejections) {
  struct Case {
    std::string name;
    aclDataType cache, updates, index;
    std::vector<Shape> caches;
    Shape updatesShape, indiceShape;
    int64_t axis;
    const char* reduce;
    aclnnStatus expected;
    std::string keyword;
    Shape maskShape = {};
  };
  const aclDataType f = ACL_FLOAT, l = ACL_INT64;
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR, invalid = ACLNN_ERR_PARAM_INVALID;
  const std::vector<Case> cases = {
      {"double", ACL_DOUBLE, ACL_DOUBLE, l, {{2, 6}}, {1, 2, 3}, {1}, 2, "update", invalid, "'varRef[0]'"},
      {"dtypes_differ", f, ACL_FLOAT16, l, {{2, 6}}, {1, 2, 3}, {1}, 2, "update", invalid, "'updates'"},
      {"index_float", f, f, f, {{2, 6}}, {1, 2, 3}, {1}, 2, "update", invalid, "'indice'"},
      {"reduce_add", f, f, l, {{2, 6}}, {1, 2, 3}, {1}, 2, "add", invalid, "'reduceOptional'"},
      {"empty_list", f, f, l, {}, {1, 2, 3}, {1}, 2, "update", tiling, "empty list"},
      {"cache_shapes", f, f, l, {{2, 6}, {2, 5}}, {2, 2, 3}, {2}, 2, "update", tiling, "'varRef[1]'"},
      {"updates_rank1", f, f, l, {{6}}, {1}, {1}, 1, "update", tiling, "rank 2"},
      {"count", f, f, l, {{2, 6}}, {2, 2, 3}, {1}, 2, "update", tiling, "one slab per"},
      {"axis0", f, f, l, {{2, 6}}, {1, 2, 3}, {1}, 0, "update", tiling, "'axis'"},
      {"axis_rank", f, f, l, {{2, 6}}, {1, 2, 3}, {1}, 3, "update", tiling, "'axis'"},
      {"slab_longer", f, f, l, {{2, 6}}, {1, 2, 7}, {1}, 2, "update", tiling, "do not fit"},
      {"groups_differ", f, f, l, {{2, 6}}, {1, 3, 3}, {1}, 2, "update", tiling, "do not fit"},
      {"indice_pairs", f, f, l, {{2, 6}}, {1, 2, 3}, {1, 3}, 2, "update", tiling, "'indice'"},
      {"indice_rows", f, f, l, {{2, 6}}, {1, 2, 3}, {2}, 2, "update", tiling, "'indice'"},
      {"mask_count", f, f, l, {{2, 6}}, {1, 2, 3}, {1}, 2, "update", tiling, "'maskOptional'", {2}},
  };
  for (const Case& c : cases) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          std::vector<aclTensor*> list;
          for (const Shape& s : c.caches) list.push_back(a.NewTensor(c.cache, s));
          std::string reduce = c.reduce;
          return aclnnScatterListGetWorkspaceSize(
              a.TensorList(list), a.NewTensorIn(Range{0, 0}, c.index, c.indiceShape),
              a.NewTensor(c.updates, c.updatesShape),
              c.maskShape.empty() ? nullptr : a.NewTensor(ACL_UINT8, c.maskShape), reduce.data(), c.axis, w, e);
        },
        aclnnScatterList);
    EXPECT_EQ(run.phase1, c.expected) << c.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(c.keyword), std::string::npos) << c.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
