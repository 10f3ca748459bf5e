// The Hans stream format (see hans_codec.h), encoded and decoded per core share
// in parallel; every count and offset the decoder reads from a stream is checked
// against the buffers before it is used.
#include "hans_codec.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kTile = 4096;                               // elements a tile packs
constexpr int64_t kRowsPerTile = 64;                          // rows of a tile, kHansBlock lanes each
constexpr int64_t kRowBytes = kHansBlock * 2;                 // a row of 64 uint16
constexpr int64_t kTailBytes = kTile * 2 + kRowsPerTile * 4;  // final states and bit counts: 8448
constexpr int64_t kMaxCores = 56;                             // header words 8 + c stay below 64
constexpr int32_t kMagic = 12138;                             // header word 0 counts it once per core
constexpr int64_t kFlushBits = 16;

// The symbols from most to least frequent (ties: the smaller byte first), and each symbol's rank.
struct Ranking {
  std::array<uint8_t, 256> symbol{};  // by rank
  std::array<uint8_t, 256> rank{};    // by symbol
  std::array<uint8_t, 256> width{};   // by symbol: max(1, bit length of its rank)
};

Ranking RankSymbols(const int32_t* pdf) {
  Ranking r;
  std::array<int, 256> order{};
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [pdf](int a, int b) { return pdf[a] > pdf[b]; });
  for (int i = 0; i < 256; ++i) {
    const auto s = static_cast<uint8_t>(order[static_cast<size_t>(i)]);
    r.symbol[static_cast<size_t>(i)] = s;
    r.rank[s] = static_cast<uint8_t>(i);
    r.width[s] = static_cast<uint8_t>(i < 2 ? 1 : 32 - __builtin_clz(static_cast<unsigned>(i)));
  }
  return r;
}

void PutU16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
uint32_t GetU16(const uint8_t* p) { return uint32_t{p[0]} | (uint32_t{p[1]} << 8); }
void PutI32(uint8_t* p, int32_t v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(u >> (8 * i));
}
int32_t GetI32(const uint8_t* p) {
  const uint32_t u = uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
  int32_t v;
  std::memcpy(&v, &u, 4);
  return v;
}

// How the elements and a region of `region_bytes` (after the header) split over the cores.
struct Split {
  int64_t cores, loops_per_core, share;
  int64_t Loops(int64_t c, int64_t loops) const {
    return c == cores - 1 ? loops_per_core + loops % cores : loops_per_core;
  }
  int64_t Share(int64_t c, int64_t region_bytes) const { return c == cores - 1 ? share + region_bytes % cores : share; }
};

// What one core's encoding left: bytes of its share used, and elements encoded.
struct CoreResult {
  int64_t used = 0, encoded = 0;
};

// Packs core c's exponent bytes into `out` (its share of `capacity` bytes).
CoreResult EncodeCore(const uint8_t* exps, int64_t n, const Ranking& ranking, uint8_t* out, int64_t capacity) {
  CoreResult result;
  if (capacity < kTailBytes) return result;  // too small for the tail: everything goes to var
  std::vector<uint32_t> state(kTile, 0);
  std::array<int32_t, kRowsPerTile> bits{};
  int64_t used = 0;
  for (int64_t start = 0; start < n; start += kTile) {
    const int64_t rows = std::min(kTile, n - start) / kHansBlock;
    std::array<uint32_t, kRowsPerTile> width{};
    for (int64_t r = 0; r < rows; ++r) {
      uint32_t w = 0;
      for (int64_t j = 0; j < kHansBlock; ++j)
        w = std::max<uint32_t>(w, ranking.width[exps[start + r * kHansBlock + j]]);
      width[static_cast<size_t>(r)] = w;
    }
    int64_t flushes = 0;
    for (int64_t r = 0; r < kRowsPerTile; ++r) {
      flushes += bits[static_cast<size_t>(r)] + static_cast<int32_t>(width[static_cast<size_t>(r)]) > kFlushBits;
    }
    // The NPU's test, with its slack of one row: a tile that might not fit stops the core.
    if (used + 2 * kRowBytes + kRowBytes * flushes > capacity - kTailBytes) break;
    for (int64_t r = 0; r < rows; ++r) {
      const uint32_t w = width[static_cast<size_t>(r)];
      for (int64_t j = 0; j < kHansBlock; ++j) {
        const int64_t p = r * kHansBlock + j;
        state[static_cast<size_t>(p)] = (state[static_cast<size_t>(p)] << w) + ranking.rank[exps[start + p]];
      }
      bits[static_cast<size_t>(r)] += static_cast<int32_t>(w);
    }
    for (int64_t r = 0; r < rows; ++r) {
      if (bits[static_cast<size_t>(r)] <= kFlushBits) continue;
      for (int64_t j = 0; j < kHansBlock; ++j) {
        uint32_t& s = state[static_cast<size_t>(r * kHansBlock + j)];
        PutU16(out + used + 2 * j, s);
        s >>= kFlushBits;
      }
      bits[static_cast<size_t>(r)] -= kFlushBits;
      used += kRowBytes;
    }
    for (int64_t r = 0; r < kRowsPerTile; ++r) PutU16(out + used + 2 * r, width[static_cast<size_t>(r)]);
    used += kRowBytes;
    result.encoded += rows * kHansBlock;
  }
  for (int64_t p = 0; p < kTile; ++p) PutU16(out + used + 2 * p, state[static_cast<size_t>(p)]);
  used += 2 * kTile;
  for (int64_t r = 0; r < kRowsPerTile; ++r) PutI32(out + used + 4 * r, bits[static_cast<size_t>(r)]);
  result.used = used + 4 * kRowsPerTile;
  return result;
}

// Unpacks `encoded` exponent bytes from the `used` bytes at `in`, reading backwards.
bool DecodeCore(const uint8_t* in, int64_t used, int64_t encoded, const Ranking& ranking, uint8_t* exps) {
  if (encoded == 0) return true;
  if (used < kTailBytes) return false;
  int64_t ptr = used - kRowsPerTile * 4;
  std::array<int32_t, kRowsPerTile> bits{};
  for (int64_t r = 0; r < kRowsPerTile; ++r) bits[static_cast<size_t>(r)] = GetI32(in + ptr + 4 * r);
  ptr -= 2 * kTile;
  std::vector<uint32_t> state(kTile);
  for (int64_t p = 0; p < kTile; ++p) state[static_cast<size_t>(p)] = GetU16(in + ptr + 2 * p);
  for (int64_t t = (encoded + kTile - 1) / kTile - 1; t >= 0; --t) {
    const int64_t rows = std::min(kTile, encoded - t * kTile) / kHansBlock;
    if (ptr < kRowBytes) return false;
    ptr -= kRowBytes;
    std::array<uint32_t, kRowsPerTile> width{};
    for (int64_t r = 0; r < kRowsPerTile; ++r) {
      width[static_cast<size_t>(r)] = GetU16(in + ptr + 2 * r);
      if (width[static_cast<size_t>(r)] > 8) return false;  // a rank has at most 8 bits
    }
    for (int64_t r = kRowsPerTile - 1; r >= 0 && t > 0; --r) {  // nothing was emitted before the first tile's rows
      if (bits[static_cast<size_t>(r)] > static_cast<int32_t>(width[static_cast<size_t>(r)])) continue;
      if (ptr < kRowBytes) return false;
      ptr -= kRowBytes;
      for (int64_t j = 0; j < kHansBlock; ++j) {
        uint32_t& s = state[static_cast<size_t>(r * kHansBlock + j)];
        s = (s << kFlushBits) | GetU16(in + ptr + 2 * j);
      }
      bits[static_cast<size_t>(r)] += kFlushBits;
    }
    for (int64_t r = 0; r < rows; ++r) {
      const uint32_t w = width[static_cast<size_t>(r)];
      for (int64_t j = 0; j < kHansBlock; ++j) {
        uint32_t& s = state[static_cast<size_t>(r * kHansBlock + j)];
        exps[t * kTile + r * kHansBlock + j] = ranking.symbol[s & ((1u << w) - 1u)];
        s >>= w;
      }
      bits[static_cast<size_t>(r)] -= static_cast<int32_t>(w);
    }
  }
  return ptr == 0;
}

// Element i's exponent byte and low bytes, and back.
uint8_t ExponentByte(const uint8_t* element, int64_t d) { return element[d - 1]; }

}  // namespace

int64_t HansCores(int64_t n, int64_t vector_cores) {
  return std::max<int64_t>(1, std::min({n / kHansMinElements, vector_cores, kMaxCores}));
}

int64_t HansBound(int64_t n, int64_t cores) { return n + n / kHansBlock + kTailBytes * cores + kHansHeaderBytes; }

void HansHistogram(const uint8_t* input, int64_t n, int64_t element_bytes, int32_t* pdf) {
  std::array<int64_t, 256> counts{};
  for (int64_t i = 0; i < n; ++i) ++counts[ExponentByte(input + i * element_bytes, element_bytes)];
  for (int s = 0; s < 256; ++s) pdf[s] = static_cast<int32_t>(counts[static_cast<size_t>(s)]);
}

bool HansEncode(const uint8_t* input, const int32_t* pdf, bool reshuff, uint8_t* scratch, const HansStreams& s,
                std::string& error) {
  const int64_t d = s.element_bytes, low = d - 1, loops = s.n / kHansBlock;
  ParallelFor(s.n, 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) std::memcpy(s.mantissa + i * low, input + i * d, static_cast<size_t>(low));
  });
  std::vector<uint8_t> exps(static_cast<size_t>(s.n));
  for (int64_t i = 0; i < s.n; ++i) exps[static_cast<size_t>(i)] = ExponentByte(input + i * d, d);
  const Ranking ranking = RankSymbols(pdf);

  // With reshuffling the shares are those of a stream exactly the bound's size, built in scratch.
  const int64_t region_total = reshuff ? HansBound(s.n, s.cores) : s.fixed_bytes;
  uint8_t* region = reshuff ? scratch : s.fixed;
  const int64_t region_bytes = region_total - kHansHeaderBytes;
  const Split split{s.cores, loops / s.cores, region_bytes / s.cores};
  std::vector<CoreResult> results(static_cast<size_t>(s.cores));
  ParallelFor(s.cores, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      results[static_cast<size_t>(c)] =
          EncodeCore(exps.data() + split.loops_per_core * kHansBlock * c, split.Loops(c, loops) * kHansBlock, ranking,
                     region + kHansHeaderBytes + split.share * c, split.Share(c, region_bytes));
    }
  });

  std::array<int32_t, kHansHeaderBytes / 4> header{};
  int64_t var_offset = 0, packed = kHansHeaderBytes;
  for (int64_t c = 0; c < s.cores; ++c) {
    const CoreResult& r = results[static_cast<size_t>(c)];
    const int64_t n = split.Loops(c, loops) * kHansBlock, rest = n - r.encoded;
    if (rest > 0 && reshuff) {
      error = "the data does not compress into the bound the stream was sized for; a reshuffled stream has no var";
      return false;
    }
    if (var_offset + rest > s.var_bytes) {
      error = "varOut holds " + std::to_string(s.var_bytes) + " bytes; the exponents fixedOut could not take need " +
              std::to_string(var_offset + rest);
      return false;
    }
    std::memcpy(s.var + var_offset, exps.data() + split.loops_per_core * kHansBlock * c + r.encoded,
                static_cast<size_t>(rest));
    var_offset += rest;
    if (reshuff) {
      std::memcpy(s.fixed + packed, scratch + kHansHeaderBytes + split.share * c, static_cast<size_t>(r.used));
      packed += r.used;
    }
    header[0] += kMagic;
    header[1] += 1;
    header[2] += static_cast<int32_t>(split.Loops(c, loops));
    header[3] += static_cast<int32_t>(r.encoded / kHansBlock);
    header[4] += static_cast<int32_t>(rest / kHansBlock);
    header[static_cast<size_t>(8 + c)] = static_cast<int32_t>(r.used);
    header[static_cast<size_t>(64 + c)] = static_cast<int32_t>(rest);
  }
  for (size_t i = 0; i < header.size(); ++i) PutI32(s.fixed + 4 * i, header[i]);
  return true;
}

bool HansDecode(const HansStreams& s, const int32_t* pdf, bool reshuff, uint8_t* output, std::string& error) {
  if (s.fixed_bytes < kHansHeaderBytes) {
    error = "fixed holds " + std::to_string(s.fixed_bytes) + " bytes, less than the stream's 512-byte header";
    return false;
  }
  std::array<int64_t, kHansHeaderBytes / 4> header{};
  for (size_t i = 0; i < header.size(); ++i) header[i] = GetI32(s.fixed + 4 * i);
  const int64_t cores = header[1], loops = header[2];
  if (cores < 1 || cores > kMaxCores || loops * kHansBlock != s.n) {
    error = "fixed's header (" + std::to_string(cores) + " cores, " + std::to_string(loops) +
            " blocks of 64) does not describe a stream of " + std::to_string(s.n) + " elements";
    return false;
  }
  const int64_t region_bytes = s.fixed_bytes - kHansHeaderBytes;
  const Split split{cores, loops / cores, region_bytes / cores};
  // Each core's stream: where it starts and ends in fixed, and where its var bytes start.
  std::vector<int64_t> starts(static_cast<size_t>(cores)), var_starts(static_cast<size_t>(cores));
  int64_t packed = kHansHeaderBytes, var_offset = 0;
  for (int64_t c = 0; c < cores; ++c) {
    const int64_t used = header[static_cast<size_t>(8 + c)], rest = header[static_cast<size_t>(64 + c)];
    const int64_t start = reshuff ? packed : kHansHeaderBytes + split.share * c;
    const int64_t limit = reshuff ? s.fixed_bytes : start + split.Share(c, region_bytes);
    const int64_t n = split.Loops(c, loops) * kHansBlock;
    if (used < 0 || used > limit - start || rest < 0 || rest > n || rest > s.var_bytes - var_offset) {
      error = "fixed's header gives core " + std::to_string(c) + " " + std::to_string(used) + " bytes and " +
              std::to_string(rest) + " var elements, outside the buffers";
      return false;
    }
    starts[static_cast<size_t>(c)] = start;
    var_starts[static_cast<size_t>(c)] = var_offset;
    packed += used;
    var_offset += rest;
  }
  const Ranking ranking = RankSymbols(pdf);
  std::vector<uint8_t> exps(static_cast<size_t>(s.n));
  std::atomic<int64_t> bad_core{-1};
  ParallelFor(cores, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const int64_t n = split.Loops(c, loops) * kHansBlock, rest = header[static_cast<size_t>(64 + c)];
      uint8_t* core_exps = exps.data() + split.loops_per_core * kHansBlock * c;
      if (!DecodeCore(s.fixed + starts[static_cast<size_t>(c)], header[static_cast<size_t>(8 + c)], n - rest, ranking,
                      core_exps)) {
        int64_t expected = -1;
        bad_core.compare_exchange_strong(expected, c);
        continue;
      }
      std::memcpy(core_exps + n - rest, s.var + var_starts[static_cast<size_t>(c)], static_cast<size_t>(rest));
    }
  });
  if (bad_core.load() >= 0) {
    error = "core " + std::to_string(bad_core.load()) +
            "'s records in fixed are not a stream of its elements (another pdf, reshuff or fixed size than the "
            "encoder's?)";
    return false;
  }
  const int64_t d = s.element_bytes, low = d - 1;
  ParallelFor(s.n, 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      std::memcpy(output + i * d, s.mantissa + i * low, static_cast<size_t>(low));
      output[i * d + low] = exps[static_cast<size_t>(i)];
    }
  });
  return true;
}

}  // namespace canopy::kernels
