#include "strided_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>

#include <unistd.h>  // sysconf: the LLC size

#include "common/dtype.h"
#include "cpu_features.h"
#include "parallel_for.h"
#include "strided_copy_isa.h"

#if defined(__x86_64__)
#include <emmintrin.h>  // SSE2: non-temporal stores, on every x86-64 CPU
#endif

namespace canopy::kernels {
namespace {

// Bytes worth a thread of their own: below this a fork costs more than it saves.
constexpr int64_t kGrainBytes = 128 * 1024;
// Outputs at least this large are written around the caches by the transposes
// (they outgrow both cores' L2): their scattered 64-byte lines would otherwise
// each be read first. Measured on a 2-core Sapphire Rapids VM that reports a
// 480 MiB LLC, the plain stores lose even where the output stays in that cache
// (a 16 MiB f32 transpose: 0.44-0.49 of a copy's speed plainly, 0.68
// streamed), so the threshold does not grow with the LLC.
constexpr int64_t kStreamBytes = 4 * 1024 * 1024;
// A transpose walks this many input rows at once (as many sequential read
// streams) where the tile is shorter (8- and 16-byte elements two or more
// tiles, 4-byte ones two), so each output row gets several 64-byte lines in a
// row: scattered single lines cost ~20 % more to write (streamed or not).
// More read streams lose more than that once the input comes from DRAM (2-byte
// elements stacked two tiles, 64 rows: a 256 MiB bf16 transpose fell from 1.1
// to 0.73 of a copy), so 2- and 1-byte tiles (32, 64 rows) go alone.
constexpr int64_t kStackRows = 32;
// 2-byte tiles (32 rows) still stack two deep where the input likely stays
// in the last-level cache (at most this fraction of the size the OS reports):
// 0.68-0.71 -> 0.75-0.76 of a copy for an 8 MiB bf16 / fp16 transpose.
constexpr int64_t kCachedFraction = 8;

// The last-level cache's size as the OS reports it (0 if it does not).
int64_t LastLevelCacheBytes() {
#if defined(_SC_LEVEL3_CACHE_SIZE)
  static const int64_t bytes = std::max<int64_t>(0, sysconf(_SC_LEVEL3_CACHE_SIZE));
  return bytes;
#else
  return 0;
#endif
}
constexpr int64_t kLineBytes = 64;
constexpr uintptr_t kLineMask = kLineBytes - 1;
// Broadcast runs up to this long are copied whole output rows at a time.
constexpr int64_t kShortBroadcastRun = 16;

enum class Loop : uint8_t { kRows, kTranspose, kElements };

// body.template operator()<Bytes>() for elements of `bytes` bytes (1, 2, 4, 8,
// else 16: IsBitCopy admits no other size).
template <typename Body>
void WithElementBytes(int64_t bytes, Body&& body) {
  switch (bytes) {
    case 1:
      return body.template operator()<1>();
    case 2:
      return body.template operator()<2>();
    case 4:
      return body.template operator()<4>();
    case 8:
      return body.template operator()<8>();
    default:
      return body.template operator()<16>();
  }
}

template <int Bytes>
inline void CopyElement(char* dst, const char* src) {
  std::memcpy(dst, src, Bytes);
}

// An element of `Bytes` bytes as one value (the element loops' unit).
template <int Bytes>
struct Word {
  unsigned char bytes[Bytes];
};

// `length` contiguous copies of the element at `src` (a broadcast input).
template <int Bytes>
inline void FillRun(char* dst, const char* src, int64_t length) {
  Word<Bytes> value;
  std::memcpy(&value, src, Bytes);
  if constexpr (Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8) {
    using Unsigned = std::conditional_t<
        Bytes == 1, uint8_t,
        std::conditional_t<Bytes == 2, uint16_t, std::conditional_t<Bytes == 4, uint32_t, uint64_t>>>;
    Unsigned bits;
    std::memcpy(&bits, &value, Bytes);
    Unsigned run[64];
    const int64_t chunk = std::min<int64_t>(64, length);
    std::fill(run, run + chunk, bits);
    for (int64_t i = 0; i < length; i += chunk) {
      std::memcpy(dst + i * Bytes, run, static_cast<size_t>(std::min(chunk, length - i) * Bytes));
    }
  } else {
    for (int64_t i = 0; i < length; ++i) std::memcpy(dst + i * Bytes, &value, Bytes);
  }
}

// Writes `bytes` bytes of `line` (64-byte aligned) to dst: a whole 64-byte
// line at an aligned dst with non-temporal stores when `stream` (SSE2, which
// every x86-64 CPU has), else a memcpy.
inline void StoreLine(char* dst, const char* line, int64_t bytes, bool stream) {
#if defined(__x86_64__)
  if (stream && bytes == kLineBytes && (reinterpret_cast<uintptr_t>(dst) & kLineMask) == 0) {
    constexpr int kParts = kLineBytes / sizeof(__m128i);
    for (int k = 0; k < kParts; ++k) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst) + k, _mm_load_si128(reinterpret_cast<const __m128i*>(line) + k));
    }
    return;
  }
#else
  (void)stream;
#endif
  std::memcpy(dst, line, static_cast<size_t>(bytes));
}

// Transposes columns [first, columns) of a strip of `height` (at most
// 64 / Bytes) rows through a tile in L1: each input row's run and each output
// column's run moves as one memcpy of up to 64 bytes, so neither side writes
// or reads element by element across lines that share a cache set (rows a
// power of two apart do).
template <int Bytes>
void TransposeTiles(const char* from, int64_t in_step, char* to, int64_t out_step, int64_t height, int64_t first,
                    int64_t columns, bool stream) {
  constexpr int64_t kTile = kLineBytes / Bytes;
  alignas(kLineBytes) char tile[kTile][kLineBytes];
  alignas(kLineBytes) char line[kLineBytes];
  for (int64_t c0 = first; c0 < columns; c0 += kTile) {
    const int64_t width = std::min(kTile, columns - c0);
    for (int64_t r = 0; r < height; ++r) {
      std::memcpy(tile[r], from + r * in_step + c0 * Bytes, static_cast<size_t>(width * Bytes));
    }
    for (int64_t c = 0; c < width; ++c) {
      for (int64_t r = 0; r < height; ++r) CopyElement<Bytes>(line + r * Bytes, tile[r] + c * Bytes);
      StoreLine(to + (c0 + c) * out_step, line, height * Bytes, stream);
    }
  }
}

// One copy of a step: its walk, the loop that serves it, and its work as
// units (elements; strips of a tile of rows for a transpose) that the step's
// team splits.
class CopyPart {
 public:
  explicit CopyPart(const ElementwiseDesc& desc)
      : desc_(desc), bytes_(static_cast<int64_t>(DtypeSize(desc.out.dtype))) {
    const int inner = desc_.rank - 1;
    const int64_t* out = desc_.out.strides;
    const int64_t* in = desc_.inputs[0].strides;
    if (out[inner] == 1 && in[inner] == 1) {
      loop_ = Loop::kRows;
    } else if (out[inner] == 1 && in[inner] != 0) {
      // The input's contiguous dimension, if it has one (the innermost such).
      for (int d = inner - 1; d >= 0 && loop_ != Loop::kTranspose; --d) {
        if (in[d] == 1 && desc_.shape[d] > 1) {
          loop_ = Loop::kTranspose;
          across_ = d;
        }
      }
    }
    for (int d = 0; d < desc_.rank; ++d) elements_ *= desc_.shape[d];
    units_ = elements_;
    if (loop_ == Loop::kTranspose && elements_ > 0) {
      tile_ = std::max<int64_t>(1, kLineBytes / bytes_);
      stack_ = std::max<int64_t>(1, kStackRows / tile_);
      if (bytes_ == 2 && elements_ <= LastLevelCacheBytes() / kCachedFraction / 2) stack_ = 2;
      const int64_t rows = desc_.shape[inner];
      strips_ = (rows + tile_ - 1) / tile_;
      whole_strips_ = rows / tile_;
      units_ = elements_ / (rows * desc_.shape[across_]) * strips_;  // batches x strips
      unit_elements_ = tile_ * desc_.shape[across_];
    }
  }

  int64_t elements() const { return elements_; }
  int64_t units() const { return units_; }
  int64_t unit_elements() const { return unit_elements_; }
  // The elements the units stand for (at least elements(): a transpose's last
  // strip of a batch may hold fewer rows than a tile).
  int64_t span() const { return units_ * unit_elements_; }
  int64_t bytes() const { return bytes_; }
  const ElementwiseDesc& desc() const { return desc_; }

  // Whether the copy moves anything: not an in-place copy of a view onto itself.
  bool Moves(const char* dst, const char* src) const {
    return elements_ > 0 &&
           !(dst == src && std::equal(desc_.out.strides, desc_.out.strides + desc_.rank, desc_.inputs[0].strides));
  }

  // Units [begin, end); returns whether it streamed stores (the caller fences).
  bool Run(char* dst, const char* src, int64_t begin, int64_t end) const {
    switch (loop_) {
      case Loop::kRows:
        RunRows(dst, src, begin, end);
        return false;
      case Loop::kTranspose:
        return RunTranspose(dst, src, begin, end);
      case Loop::kElements:
        WithElementBytes(bytes_, [&]<int Bytes>() { RunElements<Bytes>(dst, src, begin, end); });
        return false;
    }
    return false;
  }

  const char* LoopName() const {
    return loop_ == Loop::kRows ? "rows" : loop_ == Loop::kTranspose ? "transposed" : "elements";
  }

 private:
  // The element offsets (out, in) of flat position `position` (row-major over the shape).
  void OffsetsOf(int64_t position, int64_t* index, int64_t& out, int64_t& in) const {
    out = 0;
    in = 0;
    for (int d = desc_.rank - 1; d >= 0; --d) {
      index[d] = position % desc_.shape[d];
      position /= desc_.shape[d];
      out += index[d] * desc_.out.strides[d];
      in += index[d] * desc_.inputs[0].strides[d];
    }
  }

  // Steps (out, in) from the last element of a run to the first of the next.
  void NextRun(int64_t* index, int64_t length, int64_t& out, int64_t& in) const {
    const int inner = desc_.rank - 1;
    out += (length - 1) * desc_.out.strides[inner];
    in += (length - 1) * desc_.inputs[0].strides[inner];
    index[inner] += length - 1;
    for (int d = inner; d >= 0; --d) {
      if (++index[d] < desc_.shape[d]) {
        out += desc_.out.strides[d];
        in += desc_.inputs[0].strides[d];
        return;
      }
      out -= (desc_.shape[d] - 1) * desc_.out.strides[d];
      in -= (desc_.shape[d] - 1) * desc_.inputs[0].strides[d];
      index[d] = 0;
    }
  }

  // Both views contiguous along the inner dimension: runs of it, split anywhere.
  void RunRows(char* dst, const char* src, int64_t begin, int64_t end) const {
    const int inner = desc_.rank - 1;
    int64_t index[kMaxRank];
    int64_t out = 0;
    int64_t in = 0;
    OffsetsOf(begin, index, out, in);
    for (int64_t position = begin; position < end;) {
      const int64_t length = std::min(desc_.shape[inner] - index[inner], end - position);
      std::memmove(dst + out * bytes_, src + in * bytes_, static_cast<size_t>(length * bytes_));
      position += length;
      if (position < end) NextRun(index, length, out, in);
    }
  }

  template <int Bytes>
  void RunElements(char* dst, const char* src, int64_t begin, int64_t end) const {
    const int inner = desc_.rank - 1;
    int64_t index[kMaxRank];
    int64_t out = 0;
    int64_t in = 0;
    OffsetsOf(begin, index, out, in);
    const int64_t out_step = desc_.out.strides[inner] * Bytes;
    const int64_t in_step = desc_.inputs[0].strides[inner] * Bytes;
    for (int64_t position = begin; position < end;) {
      const int64_t length = std::min(desc_.shape[inner] - index[inner], end - position);
      char* to = dst + out * Bytes;
      const char* from = src + in * Bytes;
      if (in_step == 0 && out_step == Bytes && index[inner] == 0 && inner > 0 && length == desc_.shape[inner] &&
          length <= kShortBroadcastRun && desc_.out.strides[inner - 1] == length) {
        // Short broadcast runs in back-to-back output rows (RepeatInterleave's
        // [n, r] from [n], ggml's RoPE tables): whole rows at a time, without
        // the walk's per-run step (400 us -> a few for ggml's 32768 x 2).
        const int64_t rows = std::min(desc_.shape[inner - 1] - index[inner - 1], (end - position) / length);
        const int64_t in_row = desc_.inputs[0].strides[inner - 1] * Bytes;
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t i = 0; i < length; ++i) CopyElement<Bytes>(to + (r * length + i) * Bytes, from + r * in_row);
        }
        position += rows * length;
        if (position < end) OffsetsOf(position, index, out, in);
        continue;
      }
      if (in_step == 0 && out_step == Bytes) {
        FillRun<Bytes>(to, from, length);
      } else {
        for (int64_t i = 0; i < length; ++i) CopyElement<Bytes>(to + i * out_step, from + i * in_step);
      }
      position += length;
      if (position < end) NextRun(index, length, out, in);
    }
  }

  // The plane of the inner dimension i (the output's contiguous one) and
  // dimension j = across_ (the input's), every other dimension a batch: strips
  // of `tile` consecutive i (units [begin, end) of batches x strips), each
  // swept along all of j in tiles of tile x tile, so both sides move whole
  // 64-byte lines: the input as `tile` sequential streams, the output a line
  // per row of the tile. Up to stack_ whole strips of a batch go together
  // (tile by tile across them), so each output row gets that many lines in a
  // row. Returns whether it streamed.
  bool RunTranspose(char* dst, const char* src, int64_t begin, int64_t end) const {
    const int inner = desc_.rank - 1;
    const int64_t columns = desc_.shape[across_];                     // j
    const int64_t rows = desc_.shape[inner];                          // i
    const int64_t in_step = desc_.inputs[0].strides[inner] * bytes_;  // between rows (i) of the input
    const int64_t out_step = desc_.out.strides[across_] * bytes_;     // between columns (j) of the output
#if defined(__x86_64__)
    const bool vector = Cpu().Avx512();  // every size IsBitCopy admits: 1, 2, 4, 8, 16 bytes
    const bool stream = elements_ >= kStreamBytes / bytes_ && out_step % kLineBytes == 0;  // bytes_ in 1..16
#else
    const bool stream = false;
#endif
    for (int64_t unit = begin; unit < end;) {
      const int64_t strip = unit % strips_;
      int64_t batch = unit / strips_;
      int64_t out = 0;
      int64_t in = 0;
      for (int d = desc_.rank - 1; d >= 0; --d) {  // the batch dimensions' offsets
        if (d == inner || d == across_) continue;
        const int64_t at = batch % desc_.shape[d];
        batch /= desc_.shape[d];
        out += at * desc_.out.strides[d];
        in += at * desc_.inputs[0].strides[d];
      }
      const int64_t first = strip * tile_;
      const int64_t height = std::min(tile_, rows - first);
      char* to = dst + (out + first) * bytes_;
      const char* from = src + (in + first * desc_.inputs[0].strides[inner]) * bytes_;
      const bool aligned = stream && (reinterpret_cast<uintptr_t>(to) & kLineMask) == 0;
      // Whole strips of this batch taken together (a short last strip alone).
      const int64_t count = height == tile_ ? std::min({stack_, end - unit, whole_strips_ - strip}) : 1;
      int64_t done = 0;
#if defined(__x86_64__)
      if (vector && height == tile_) {
        done = TransposeStripAvx512(static_cast<int>(bytes_), from, in_step, to, out_step, columns,
                                    static_cast<int>(count), aligned);
      }
#endif
      for (int64_t k = 0; k < count; ++k) {
        TransposeTail(from + k * tile_ * in_step, in_step, to + k * tile_ * bytes_, out_step, height, done, columns,
                      aligned);
      }
      unit += count;
    }
    return stream;
  }

  // Columns [first, columns) of a strip of `height` rows (at most a tile).
  void TransposeTail(const char* from, int64_t in_step, char* to, int64_t out_step, int64_t height, int64_t first,
                     int64_t columns, bool stream) const {
    WithElementBytes(bytes_, [&]<int Bytes>() {
      TransposeTiles<Bytes>(from, in_step, to, out_step, height, first, columns, stream);
    });
  }

  ElementwiseDesc desc_;
  int64_t bytes_;
  int64_t elements_ = 1;
  int64_t units_ = 0;
  int64_t unit_elements_ = 1;
  Loop loop_ = Loop::kElements;
  int across_ = 0;  // kTranspose: the input's contiguous dimension
  int64_t tile_ = 1;
  int64_t stack_ = 1;  // whole strips walked together
  int64_t strips_ = 1;
  int64_t whole_strips_ = 0;  // strips of a whole tile of rows
};

// Copies in one fork of the engine's team: the parts' elements laid end to
// end are split statically, each thread running its share of every part it
// meets, with no barrier between parts (they write disjoint outputs).
class BitCopyStep final : public Step {
 public:
  explicit BitCopyStep(const std::vector<ElementwiseDesc>& copies) {
    for (const ElementwiseDesc& desc : copies) {
      parts_.emplace_back(OrderAndCoalesce(desc));
      firsts_.push_back(total_);
      total_ += parts_.back().span();
    }
  }

  aclnnStatus Run(const RunContext& context) const override {
    if (total_ == 0) return ACLNN_SUCCESS;
    std::vector<char*> dst(parts_.size());
    std::vector<const char*> src(parts_.size());
    for (size_t p = 0; p < parts_.size(); ++p) {
      dst[p] = context.Resolve(parts_[p].desc().out.buffer);
      src[p] = context.Resolve(parts_[p].desc().inputs[0].buffer);
    }
    const int64_t grain = std::max<int64_t>(1, kGrainBytes / parts_.front().bytes());
    ParallelFor(total_, grain, [&](int64_t begin, int64_t end) {
      bool streamed = false;
      for (size_t p = 0; p < parts_.size(); ++p) {
        const CopyPart& part = parts_[p];
        // This piece's elements of the part, as units: those whose first element falls in it.
        const int64_t low = std::clamp(begin - firsts_[p], int64_t{0}, part.span());
        const int64_t high = std::clamp(end - firsts_[p], int64_t{0}, part.span());
        const int64_t size = part.unit_elements();
        const int64_t first = (low + size - 1) / size;
        const int64_t last = (high + size - 1) / size;
        if (first < last && part.Moves(dst[p], src[p])) streamed |= part.Run(dst[p], src[p], first, last);
      }
#if defined(__x86_64__)
      if (streamed) _mm_sfence();  // the streamed lines are visible before the step ends
#endif
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    for (size_t p = 0; p < parts_.size(); ++p) {
      const ElementwiseDesc& desc = parts_[p].desc();
      text << (p ? " + " : "") << "copy " << parts_[p].LoopName() << " over [";
      for (int d = 0; d < desc.rank; ++d) text << (d ? "," : "") << desc.shape[d];
      text << "] " << DtypeName(desc.out.dtype);
    }
    return text.str();
  }

 private:
  std::vector<CopyPart> parts_;
  std::vector<int64_t> firsts_;  // where each part's span starts in the step's numbering
  int64_t total_ = 0;
};

}  // namespace

bool IsBitCopy(const ElementwiseDesc& desc) {
  if (desc.op != ElementwiseOp::kCopy || desc.num_inputs != 1) return false;
  const aclDataType dtype = desc.out.dtype;
  if (desc.inputs[0].dtype != dtype || dtype == ACL_BOOL) return false;
  const size_t bytes = DtypeSize(dtype);
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

std::unique_ptr<Step> MakeBitCopyStep(const ElementwiseDesc& desc) {
  return std::make_unique<BitCopyStep>(std::vector<ElementwiseDesc>{desc});
}

std::unique_ptr<Step> MakeBitCopyStep(const std::vector<ElementwiseDesc>& copies) {
  return std::make_unique<BitCopyStep>(copies);
}

}  // namespace canopy::kernels
