// EmbeddingRenorm's in-place step: the rows of a [rows, columns] table that `indices` names
// (each once, whatever the repeats) are scaled by maxNorm / (norm + 1e-7) where their p-norm
// exceeds maxNorm (torch.embedding_renorm_). The norm accumulates in f64 (p 0 counts non-zeros,
// inf the largest magnitude, -inf the smallest); the factor and the product are f32. An index outside
// [0, rows) fails the run before anything is written.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct EmbeddingRenormDesc {
  const char* op = "";
  int64_t rows = 0, columns = 0;
  BufferRef table;  // read and written in place
  aclDataType dtype = ACL_FLOAT;
  int64_t row_stride = 0, column_stride = 1;  // in elements
  BufferRef indices;                          // contiguous
  aclDataType index_dtype = ACL_INT64;
  int64_t count = 0;  // of indices
  double max_norm = 0;
  double p = 2;
};

std::unique_ptr<Step> MakeEmbeddingRenormStep(const EmbeddingRenormDesc& desc);

}  // namespace canopy::kernels
