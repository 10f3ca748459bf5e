// Triangular solves over a batch: X = L^-1 B for each batch element, with L
// triangular, substituting row by row (forward for lower, backward for upper).
#pragma once

#include <memory>

#include "nnopbase/executor.h"

namespace canopy::kernels {

struct TriangularSolveDesc {
  aclDataType dtype = ACL_FLOAT;  // FLOAT, DOUBLE, COMPLEX64 or COMPLEX128
  int64_t batch = 0, n = 0, k = 0;
  BufferRef a;                 // dense [batch, n, n]
  BufferRef x;                 // dense [batch, n, k]: B on entry, X after
  BufferRef m;                 // dense [batch, n, n]: receives A's triangle (the other one zero)
  bool upper = false;          // A is upper triangular (else lower)
  bool transpose = false;      // solve A^T X = B (plain transpose, also for complex)
  bool unitriangular = false;  // A's diagonal is taken as 1
};

bool TriangularSolveSupports(aclDataType dtype);
std::unique_ptr<Step> MakeTriangularSolveStep(const TriangularSolveDesc& desc);

}  // namespace canopy::kernels
