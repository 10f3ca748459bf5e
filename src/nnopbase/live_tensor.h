// Whether a client's aclTensor is still alive, for op code that touches one
// after phase 1: Nonzero's and Unique's outputs get their shapes once the run
// is over, and a client may have destroyed the descriptor by then.
#pragma once

#include "aclnn/acl_meta.h"

extern "C" {
// 1 while `tensor` is a live aclTensor (libnnopbase's registry), else 0.
__attribute__((visibility("default"))) int canopyNnopbaseTensorIsLive(const aclTensor* tensor);
}
