// Op code that touches a client's aclTensor after phase 1: Nonzero's and
// Unique's outputs get their shapes once the run is over, when the client may
// have destroyed the descriptor or be running the same repeatable executor on
// another thread.
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"

extern "C" {
// Gives a live `tensor` the contiguous view `dims` (`rank` of them) in one
// step that aclDestroyTensor and other such writers wait for. 1 when it did,
// 0 when `tensor` is not a live aclTensor (libnnopbase's registry).
__attribute__((visibility("default"))) int canopyNnopbaseSetContiguousView(aclTensor* tensor, const int64_t* dims,
                                                                           uint64_t rank);
}
