// The lossless compression of aclnnHansEncode / aclnnHansDecode, in the byte
// layout CANN's NPU kernels write, so that a stream made on either side decodes
// on the other (given the same core count, which the stream's header records).
//
// Each element of n (fp16, bf16 or f32 bit patterns, d bytes each) splits into
// its most significant byte (sign and high exponent bits: the "exponent byte")
// and its d - 1 low bytes. The low bytes go to `mantissa` unchanged, element
// after element. The exponent bytes are ranked by their count in `pdf` (most
// frequent first, ties to the smaller byte) and each written as its rank in
// max(1, bit length of the rank) bits:
//  * the elements are split over P "cores" in whole blocks of 64; each core
//    packs its elements in tiles of 4096 (64 rows of 64 lanes), each row with
//    one width (the widest rank of its 64 lanes) shifted into a 32-bit state per
//    lane; a row past 16 bits emits the low 16 bits of its 64 lanes;
//  * a tile's record is its emitted rows (64 uint16 each, rows in order), then
//    its 64 row widths (uint16); records follow each other in the core's share
//    of `fixed`, then the final states (4096 uint16) and row bit counts (64
//    int32): the 8448-byte tail;
//  * a core whose share cannot take a tile stops there: the exponent bytes of
//    its remaining elements go to `var` unencoded, cores one after another;
//  * `fixed` starts with a 512-byte header of 128 int32: [0] 12138 * P, [1] P,
//    [2] n / 64, [3] blocks encoded, [4] blocks in var, [8 + c] bytes core c
//    used of its share (tail included), [64 + c] its elements in var.
// Without reshuffling, core c's share starts at 512 + c * ((fixed - 512) / P)
// (the last core takes the remainder); with it, the shares are computed for the
// bound below in a scratch buffer and copied to `fixed` back to back, and var
// is not used (an incompressible stream is lost there on the NPU too; Canopy
// fails the run instead).
#pragma once

#include <cstdint>
#include <string>

namespace canopy::kernels {

constexpr int64_t kHansHeaderBytes = 512;
constexpr int64_t kHansMinElements = 32768;  // the NPU gives each core at least this many
constexpr int64_t kHansBlock = 64;
constexpr int64_t kHansPdfBins = 256;  // one count per value of the exponent byte

// The cores the NPU splits n elements over: one per 32768 elements, at most its
// vector core count.
int64_t HansCores(int64_t n, int64_t vector_cores);
// The bytes fixed + var must hold: n + n / 64 + 8448 per core + the header.
int64_t HansBound(int64_t n, int64_t cores);

struct HansStreams {
  int64_t n = 0, element_bytes = 0, cores = 0;
  uint8_t* mantissa = nullptr;  // n * (element_bytes - 1)
  uint8_t* fixed = nullptr;
  int64_t fixed_bytes = 0;
  uint8_t* var = nullptr;
  int64_t var_bytes = 0;
};

// Counts each exponent byte of `input` (n elements) into pdf[256].
void HansHistogram(const uint8_t* input, int64_t n, int64_t element_bytes, int32_t* pdf);

// Encodes `input` with the ranks of `pdf`. `scratch` (HansBound bytes) is used
// with `reshuff`. False, with `error` set, where the stream does not fit.
bool HansEncode(const uint8_t* input, const int32_t* pdf, bool reshuff, uint8_t* scratch, const HansStreams& s,
                std::string& error);

// Decodes into `output` (n elements). False, with `error` set, where the
// header or a record does not describe a stream of n elements in these buffers.
bool HansDecode(const HansStreams& s, const int32_t* pdf, bool reshuff, uint8_t* output, std::string& error);

}  // namespace canopy::kernels
