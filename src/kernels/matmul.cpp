#include "matmul.h"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <utility>

#include "bf16_split.h"
#include "canopy/canopy_runtime.h"
#include "common/dtype.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "onednn_engine.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

dnnl::memory::desc DescOf(const MatmulOperand& operand) {
  return dnnl::memory::desc(dnnl::memory::dims(operand.dims.begin(), operand.dims.end()), OnednnType(operand.dtype),
                            dnnl::memory::dims(operand.strides.begin(), operand.strides.end()));
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::ostringstream text;
  for (size_t i = 0; i < dims.size(); ++i) text << (i ? "x" : "") << dims[i];
  return text.str();
}

// A bias after alpha is a binary post-op, after the sum post-op where beta has one.
int PostOpBiasIndex(const MatmulDesc& desc) { return desc.beta != 0.0f ? 1 : 0; }

int BiasArgument(const MatmulDesc& desc) {
  if (!desc.bias_after_alpha) return DNNL_ARG_BIAS;
  return DNNL_ARG_ATTR_MULTIPLE_POST_OP(PostOpBiasIndex(desc)) | DNNL_ARG_SRC_1;
}

// A oneDNN matmul primitive made for one desc, with the memory descriptors it
// was made for.
struct Primitive {
  dnnl::matmul matmul;
  dnnl::memory::desc src, weights, dst, bias, scratchpad;
  std::string implementation;
};

// Throws dnnl::error where oneDNN has no implementation for the layout. With
// `blocked_weights` the weights are taken in the layout the primitive prefers
// (made.weights says which).
Primitive MakePrimitive(const MatmulDesc& desc, bool blocked_weights = false) {
  Primitive made;
  made.src = DescOf(desc.src);
  made.weights = blocked_weights
                     ? dnnl::memory::desc(dnnl::memory::dims(desc.weights.dims.begin(), desc.weights.dims.end()),
                                          OnednnType(desc.weights.dtype), dnnl::memory::format_tag::any)
                     : DescOf(desc.weights);
  made.dst = DescOf(desc.dst);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  // oneDNN computes post_ops(output_scale * (src @ weights + bias)).
  if (desc.alpha != 1.0f) attr.set_output_scales(0, {desc.alpha});
  made.bias = desc.has_bias ? DescOf(desc.bias) : dnnl::memory::desc();
  dnnl::post_ops post_ops;
  if (desc.beta != 0.0f) post_ops.append_sum(desc.beta);
  const bool bias_in_product = desc.has_bias && !desc.bias_after_alpha;
  if (desc.has_bias && !bias_in_product) post_ops.append_binary(dnnl::algorithm::binary_add, made.bias);
  if (post_ops.len() > 0) attr.set_post_ops(post_ops);
  const dnnl::matmul::desc operation = bias_in_product ? dnnl::matmul::desc(made.src, made.weights, made.bias, made.dst)
                                                       : dnnl::matmul::desc(made.src, made.weights, made.dst);
  const dnnl::matmul::primitive_desc primitive_desc(operation, attr, OneDnnEngine());
  made.implementation = primitive_desc.impl_info_str();
  made.matmul = dnnl::matmul(primitive_desc);
  made.scratchpad = primitive_desc.scratchpad_desc();
  made.weights = primitive_desc.weights_desc();
  return made;
}

// Runs `primitive` on these addresses (bias and scratchpad may be null where it has none).
void ExecuteAt(const Primitive& primitive, int bias_argument, void* src, void* weights, void* dst, void* bias,
               void* scratchpad) {
  dnnl::engine& engine = OneDnnEngine();
  std::unordered_map<int, dnnl::memory> arguments = {
      {DNNL_ARG_SRC, dnnl::memory(primitive.src, engine, src)},
      {DNNL_ARG_WEIGHTS, dnnl::memory(primitive.weights, engine, weights)},
      {DNNL_ARG_DST, dnnl::memory(primitive.dst, engine, dst)}};
  if (bias != nullptr) arguments.emplace(bias_argument, dnnl::memory(primitive.bias, engine, bias));
  if (primitive.scratchpad.get_size() > 0) {
    arguments.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(primitive.scratchpad, engine, scratchpad));
  }
  dnnl::stream& stream = OneDnnThreadStream();
  primitive.matmul.execute(stream, arguments);
  stream.wait();
}

// Runs `primitive` on the operands `desc` names; throws dnnl::error.
void Execute(const Primitive& primitive, const MatmulDesc& desc, const RunContext& context, BufferRef scratchpad) {
  ExecuteAt(primitive, BiasArgument(desc), context.Resolve(desc.src.buffer), context.Resolve(desc.weights.buffer),
            context.Resolve(desc.dst.buffer), desc.has_bias ? context.Resolve(desc.bias.buffer) : nullptr,
            context.Resolve(scratchpad));
}

std::string DescribeOperands(const MatmulDesc& desc) {
  std::ostringstream text;
  text << DimsToString(desc.src.dims) << " " << DtypeName(desc.src.dtype) << " @ " << DimsToString(desc.weights.dims)
       << " " << DtypeName(desc.weights.dtype) << " -> " << DtypeName(desc.dst.dtype);
  if (desc.alpha != 1.0f || desc.beta != 0.0f) text << " alpha=" << desc.alpha << " beta=" << desc.beta;
  if (desc.has_bias) {
    text << " + bias " << DimsToString(desc.bias.dims) << " " << DtypeName(desc.bias.dtype)
         << (desc.bias_after_alpha ? " after alpha" : "");
  }
  return text.str();
}

class MatmulStep final : public Step {
 public:
  MatmulStep(const MatmulDesc& desc, Primitive primitive, BufferRef scratchpad)
      : desc_(desc), primitive_(std::move(primitive)), scratchpad_(scratchpad) {}

  aclnnStatus Run(const RunContext& context) const override {
    try {
      canopyPrepareComputeTeam();
      Execute(primitive_, desc_, context, scratchpad_);
    } catch (const dnnl::error& e) {
      SetErrorMessage("matmul failed in oneDNN: %s", e.what());
      return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "matmul (oneDNN " + primitive_.implementation + ") " + DescribeOperands(desc_);
  }

 private:
  MatmulDesc desc_;
  Primitive primitive_;
  BufferRef scratchpad_;  // in this call's workspace
};

// ACL_OPT_DETERMINISTIC: oneDNN may split K over the threads it has (its AVX2
// gemm does), so results would change with the thread count. Here the output
// is cut into fixed tiles, each computed whole by a one-thread primitive; the
// tiles, not the reductions, are spread over threads. A tile's bits depend only
// on its shape, never on which thread ran it or how many there are.
class DeterministicMatmulStep final : public Step {
 public:
  static constexpr int64_t kTileRows = 64;
  static constexpr int64_t kTileCols = 256;

  static std::unique_ptr<Step> Make(const MatmulDesc& desc, const WorkspaceBooking& book) {
    auto step = std::unique_ptr<DeterministicMatmulStep>(new DeterministicMatmulStep(desc));
    const size_t rank = desc.dst.dims.size();
    const int64_t rows = desc.dst.dims[rank - 2], cols = desc.dst.dims[rank - 1];
    const int64_t depth = desc.src.dims[rank - 1];
    OneThreadScope one_thread;
    size_t scratchpad_bytes = 0;
    for (int64_t row = 0; row < rows; row += kTileRows) {
      for (int64_t col = 0; col < cols; col += kTileCols) {
        const int64_t tile_rows = std::min(kTileRows, rows - row), tile_cols = std::min(kTileCols, cols - col);
        Tile tile{desc, step->PrimitiveFor(desc, tile_rows, tile_cols)};
        tile.desc.src = Slice(desc.src, row, tile_rows, 0, depth);
        tile.desc.weights = Slice(desc.weights, 0, depth, col, tile_cols);
        tile.desc.dst = Slice(desc.dst, row, tile_rows, col, tile_cols);
        if (desc.has_bias) tile.desc.bias = Slice(desc.bias, 0, 1, col, tile_cols);
        step->tiles_.push_back(tile);
        scratchpad_bytes = std::max(scratchpad_bytes, step->primitives_[tile.primitive].scratchpad.get_size());
      }
    }
    // One scratchpad per slot; slot s runs tiles s, s + slots, ... in turn.
    const auto threads = static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()));
    step->slots_ = std::max<int64_t>(1, std::min(static_cast<int64_t>(step->tiles_.size()), threads));
    step->slot_bytes_ =
        static_cast<int64_t>((scratchpad_bytes + kScratchpadAlign - 1) / kScratchpadAlign * kScratchpadAlign);
    const int64_t all_slot_bytes = step->slot_bytes_ * step->slots_;
    if (all_slot_bytes > 0) step->scratchpad_ = book(all_slot_bytes);
    return step;
  }

  aclnnStatus Run(const RunContext& context) const override {
    std::mutex failure_lock;
    std::string failure;
    const auto tiles = static_cast<int64_t>(tiles_.size());
    canopyPrepareComputeTeam();
    ParallelFor(slots_, 1, [&](int64_t begin, int64_t end) {
      OneThreadScope one_thread;
      for (int64_t slot = begin; slot < end; ++slot) {
        BufferRef scratchpad = scratchpad_;
        scratchpad.byte_offset += slot * slot_bytes_;
        for (int64_t index = slot; index < tiles; index += slots_) {
          const Tile& tile = tiles_[static_cast<size_t>(index)];
          try {
            Execute(primitives_[tile.primitive], tile.desc, context, scratchpad);
          } catch (const dnnl::error& e) {
            const std::lock_guard<std::mutex> hold(failure_lock);
            if (failure.empty()) failure = e.what();
          }
        }
      }
    });
    if (!failure.empty()) {
      SetErrorMessage("matmul failed in oneDNN: %s", failure.c_str());
      return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "matmul (oneDNN " << (primitives_.empty() ? "" : primitives_.front().implementation)
         << ", deterministic: " << tiles_.size() << " tiles of up to " << kTileRows << "x" << kTileCols
         << ", one thread each) " << DescribeOperands(desc_);
    return text.str();
  }

 private:
  static constexpr size_t kScratchpadAlign = 64;

  struct Tile {
    MatmulDesc desc;
    size_t primitive;  // index into primitives_
  };

  explicit DeterministicMatmulStep(const MatmulDesc& desc) : desc_(desc) {}

  // rows x cols of an operand's last two dims, starting at (row, col).
  static MatmulOperand Slice(const MatmulOperand& operand, int64_t row, int64_t rows, int64_t col, int64_t cols) {
    MatmulOperand slice = operand;
    const size_t rank = operand.dims.size();
    slice.dims[rank - 2] = rows;
    slice.dims[rank - 1] = cols;
    const int64_t elements = row * operand.strides[rank - 2] + col * operand.strides[rank - 1];
    slice.buffer.byte_offset += elements * static_cast<int64_t>(DtypeSize(operand.dtype));
    return slice;
  }

  // At most four tile shapes (whole, last row band, last column band, corner).
  size_t PrimitiveFor(const MatmulDesc& desc, int64_t rows, int64_t cols) {
    for (size_t i = 0; i < shapes_.size(); ++i) {
      if (shapes_[i] == std::pair{rows, cols}) return i;
    }
    MatmulDesc shape = desc;
    const size_t rank = desc.dst.dims.size();
    shape.src.dims[rank - 2] = rows;
    shape.weights.dims[rank - 1] = cols;
    shape.dst.dims[rank - 2] = rows;
    shape.dst.dims[rank - 1] = cols;
    if (desc.has_bias) shape.bias.dims[rank - 1] = cols;
    primitives_.push_back(MakePrimitive(shape));
    shapes_.emplace_back(rows, cols);
    return primitives_.size() - 1;
  }

  MatmulDesc desc_;
  std::vector<Primitive> primitives_;
  std::vector<std::pair<int64_t, int64_t>> shapes_;  // (rows, cols) of each primitive
  std::vector<Tile> tiles_;
  int64_t slots_ = 1;
  int64_t slot_bytes_ = 0;
  BufferRef scratchpad_;  // slots_ * slot_bytes_ in this call's workspace
};

// A product of f32 or fp16 operands as products of their bf16 pieces
// (matmul.h, MakePiecesMatmulStep), K cut into chunks of at most kPiecesChunkK:
// oneDNN 2.6's AMX kernel runs 2048-deep products at 2.0-2.3 TFLOP/s on two
// cores and deeper ones at 1.4-1.8 (docs/perf.md, "Matmul on AMX"), so each
// piece pair is a sum of chunk products. Workspace: the src pieces (hi, lo,
// finite hi), the weight pieces in their dense order (hi, lo), each chunk of
// them in the primitive's blocked layout (hi, lo, finite hi), and scratchpads.
constexpr int64_t kPiecesChunkK = 2048;

int64_t ElementCount(const MatmulOperand& operand) {
  int64_t count = 1;
  for (const int64_t extent : operand.dims) count *= extent;
  return count;
}

// The primitives of one chunk depth: the first product (beta, bias), the
// adding ones, and the reorder of a plain weight chunk into the blocked layout.
struct ChunkPrimitives {
  int64_t depth = 0;
  Primitive first, rest;
  dnnl::reorder to_blocked;
  dnnl::memory::desc plain_weights;
  BufferRef first_scratchpad, rest_scratchpad;
};

class PiecesMatmulStep final : public Step {
 public:
  struct Chunk {
    int64_t begin = 0;     // along K
    size_t kind = 0;       // index into the primitives
    BufferRef blocked[3];  // hi, lo, finite hi
  };

  PiecesMatmulStep(const MatmulDesc& desc, int pairs, std::vector<ChunkPrimitives> kinds, std::vector<Chunk> chunks,
                   const BufferRef (&src_pieces)[3], const BufferRef (&weight_plain)[2])
      : desc_(desc), pairs_(pairs), kinds_(std::move(kinds)), chunks_(std::move(chunks)) {
    std::copy(std::begin(src_pieces), std::end(src_pieces), std::begin(src_pieces_));
    std::copy(std::begin(weight_plain), std::end(weight_plain), std::begin(weight_plain_));
  }

  aclnnStatus Run(const RunContext& context) const override {
    try {
      canopyPrepareComputeTeam();
      RunPieces(context);
    } catch (const dnnl::error& e) {
      SetErrorMessage("matmul failed in oneDNN: %s", e.what());
      return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "matmul as " + std::to_string(pairs_) + " bf16 piece products in " + std::to_string(chunks_.size()) +
           " K chunk(s) (oneDNN " + kinds_.front().first.implementation + ", blocked weights) " +
           DescribeOperands(desc_);
  }

 private:
  void RunPieces(const RunContext& context) const {
    const auto plane = [&](BufferRef ref) { return reinterpret_cast<uint16_t*>(context.Resolve(ref)); };
    uint16_t* src[3] = {plane(src_pieces_[0]), plane(src_pieces_[1]), nullptr};  // hi, lo, finite hi
    src[2] = src[0];
    const int64_t src_count = ElementCount(desc_.src), weight_count = ElementCount(desc_.weights);
    if (SplitIntoBf16Planes(context.Resolve(desc_.src.buffer), desc_.src.dtype, src_count, src[0], src[1])) {
      src[2] = plane(src_pieces_[2]);
      FiniteBf16Plane(src[0], src[2], src_count);
    }
    uint16_t* weight_hi = plane(weight_plain_[0]);
    uint16_t* weight_lo = plane(weight_plain_[1]);
    const bool weight_special = SplitIntoBf16Planes(context.Resolve(desc_.weights.buffer), desc_.weights.dtype,
                                                    weight_count, weight_hi, weight_lo);
    const int64_t k_stride = desc_.weights.strides[desc_.weights.strides.size() - 2];
    const auto to_blocked = [&](const uint16_t* plain, const Chunk& chunk, int piece) {
      const ChunkPrimitives& kind = kinds_[chunk.kind];
      dnnl::engine& engine = OneDnnEngine();
      dnnl::memory from(kind.plain_weights, engine, const_cast<uint16_t*>(plain) + chunk.begin * k_stride);
      dnnl::memory to(kind.first.weights, engine, context.Resolve(chunk.blocked[piece]));
      dnnl::stream& stream = OneDnnThreadStream();
      kind.to_blocked.execute(stream, from, to);
      stream.wait();
    };
    for (const Chunk& chunk : chunks_) {
      to_blocked(weight_hi, chunk, 0);
      to_blocked(weight_lo, chunk, 1);
    }
    int weight_finite_hi = 0;  // the blocked piece paired with src's lo
    if (weight_special) {
      FiniteBf16Plane(weight_hi, weight_hi, weight_count);
      for (const Chunk& chunk : chunks_) to_blocked(weight_hi, chunk, 2);
      weight_finite_hi = 2;
    }
    // (src piece, weight piece): hi*hi first (it carries beta and the bias,
    // in the first chunk), then lo*finite hi, finite hi*lo, and lo*lo.
    const std::pair<int, int> pairs[4] = {{0, 0}, {1, weight_finite_hi}, {2, 1}, {1, 1}};
    void* dst = context.Resolve(desc_.dst.buffer);
    void* bias = desc_.has_bias ? context.Resolve(desc_.bias.buffer) : nullptr;
    bool first = true;
    for (int p = 0; p < pairs_; ++p) {
      for (const Chunk& chunk : chunks_) {
        const ChunkPrimitives& kind = kinds_[chunk.kind];
        void* a = src[pairs[p].first] + chunk.begin;  // src's K is its last, dense dimension
        void* w = context.Resolve(chunk.blocked[pairs[p].second]);
        if (first) {
          ExecuteAt(kind.first, BiasArgument(desc_), a, w, dst, bias, context.Resolve(kind.first_scratchpad));
          first = false;
        } else {
          ExecuteAt(kind.rest, 0, a, w, dst, nullptr, context.Resolve(kind.rest_scratchpad));
        }
      }
    }
  }

  MatmulDesc desc_;
  int pairs_;
  std::vector<ChunkPrimitives> kinds_;
  std::vector<Chunk> chunks_;
  BufferRef src_pieces_[3], weight_plain_[2];
};

}  // namespace

bool MatmulSupportsDtype(aclDataType dtype) {
  if (dtype == ACL_FLOAT) return true;
  if (dtype != ACL_BF16 && dtype != ACL_FLOAT16) return false;
  // Probe once: does oneDNN have a native implementation on this CPU?
  static const bool bf16 = [] {
    MatmulDesc probe;
    for (MatmulOperand* operand : {&probe.src, &probe.weights, &probe.dst}) {
      operand->dtype = ACL_BF16;
      operand->dims = {16, 16};
      operand->strides = {16, 1};
    }
    try {
      MakePrimitive(probe);
      return true;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return dtype == ACL_BF16 && bf16;  // fp16 is converted to f32 where the CPU lacks fp16 matrix units
}

std::unique_ptr<Step> MakeMatmulStep(const MatmulDesc& desc, const WorkspaceBooking& book, std::string& reason) {
  try {
    if (canopyDeterministicMode() != 0) return DeterministicMatmulStep::Make(desc, book);
    Primitive primitive = MakePrimitive(desc);
    const size_t scratchpad_bytes = primitive.scratchpad.get_size();
    const BufferRef scratchpad = scratchpad_bytes > 0 ? book(static_cast<int64_t>(scratchpad_bytes)) : BufferRef{};
    return std::make_unique<MatmulStep>(desc, std::move(primitive), scratchpad);
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

std::unique_ptr<Step> MakePiecesMatmulStep(const MatmulDesc& desc, int pairs, const WorkspaceBooking& book,
                                           std::string& reason) {
  try {
    const size_t rank = desc.src.dims.size();
    const int64_t k = desc.src.dims[rank - 1];
    const int64_t src_count = ElementCount(desc.src), weight_count = ElementCount(desc.weights);
    // Equal chunks of at most kPiecesChunkK, a multiple of 32 (the blocked
    // layout's depth), and what is left in a last one.
    const int64_t count = (k + kPiecesChunkK - 1) / kPiecesChunkK;
    const int64_t depth = std::min(k, ((k + count - 1) / count + 31) / 32 * 32);
    std::vector<ChunkPrimitives> kinds;
    const auto kind_of = [&](int64_t chunk_depth) {
      for (size_t i = 0; i < kinds.size(); ++i) {
        if (kinds[i].depth == chunk_depth) return i;
      }
      // The chunk's operands: bf16 views of depth chunk_depth with the full operands' strides.
      MatmulDesc pieces = desc;
      pieces.src.dtype = ACL_BF16;
      pieces.weights.dtype = ACL_BF16;
      pieces.src.dims[rank - 1] = chunk_depth;
      pieces.weights.dims[rank - 2] = chunk_depth;
      ChunkPrimitives kind;
      kind.depth = chunk_depth;
      kind.first = MakePrimitive(pieces, true);
      MatmulDesc adding = pieces;
      adding.beta = 1.0f;
      adding.has_bias = false;
      kind.rest = MakePrimitive(adding, true);
      if (kind.rest.weights != kind.first.weights) throw dnnl::error(dnnl_unimplemented, "different weight layouts");
      kind.plain_weights = DescOf(pieces.weights);
      kind.to_blocked = dnnl::reorder(
          dnnl::reorder::primitive_desc(OneDnnEngine(), kind.plain_weights, OneDnnEngine(), kind.first.weights));
      for (auto [primitive, scratchpad] :
           {std::pair{&kind.first, &kind.first_scratchpad}, std::pair{&kind.rest, &kind.rest_scratchpad}}) {
        if (primitive->scratchpad.get_size() > 0) {
          *scratchpad = book(static_cast<int64_t>(primitive->scratchpad.get_size()));
        }
      }
      kinds.push_back(std::move(kind));
      return kinds.size() - 1;
    };
    std::vector<PiecesMatmulStep::Chunk> chunks;
    for (int64_t begin = 0; begin < k; begin += depth) {
      PiecesMatmulStep::Chunk chunk;
      chunk.begin = begin;
      chunk.kind = kind_of(std::min(depth, k - begin));
      const auto blocked_bytes = static_cast<int64_t>(kinds[chunk.kind].first.weights.get_size());
      for (BufferRef& piece : chunk.blocked) piece = book(blocked_bytes);
      chunks.push_back(chunk);
    }
    const auto plane_bytes = [](int64_t elements) { return elements * static_cast<int64_t>(sizeof(uint16_t)); };
    BufferRef src_pieces[3], weight_plain[2];
    for (BufferRef& piece : src_pieces) piece = book(plane_bytes(src_count));
    for (BufferRef& piece : weight_plain) piece = book(plane_bytes(weight_count));
    return std::make_unique<PiecesMatmulStep>(desc, pairs, std::move(kinds), std::move(chunks), src_pieces,
                                              weight_plain);
  } catch (const dnnl::error& e) {
    reason = e.what();
    return nullptr;
  }
}

}  // namespace canopy::kernels
