#include "op_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "aclnn_op.h"
#include "common/c_boundary.h"

namespace canopy::ops {
namespace {

std::vector<const canopyOpInfo*>& Registered() {
  static auto* ops = new std::vector<const canopyOpInfo*>();  // never destroyed: queried until exit
  return *ops;
}

bool NameLess(const canopyOpInfo* a, const canopyOpInfo* b) { return std::strcmp(a->name, b->name) < 0; }

// Sorted by name once registration is over (the first query comes after static initialisation).
const std::vector<const canopyOpInfo*>& Sorted() {
  static const std::vector<const canopyOpInfo*>* sorted = [] {
    auto* ops = new std::vector<const canopyOpInfo*>(Registered());
    std::sort(ops->begin(), ops->end(), NameLess);
    return ops;
  }();
  return *sorted;
}

}  // namespace

canopyOpInfo MakeOpInfo(const char* name, const OpTraits& traits, const canopyOpArg* args, size_t arg_count,
                        void (*get_workspace_size)(), canopyOpPhase1Call call, canopyOpPhase2 run) {
  uint64_t dtypes = 0;
  for (int d = 0; d < 64; ++d) {
    if (traits.dtypes.Contains(static_cast<aclDataType>(d))) dtypes |= uint64_t{1} << d;
  }
  return canopyOpInfo{name,
                      traits.header,
                      arg_count,
                      args,
                      dtypes,
                      static_cast<int32_t>(traits.max_rank),
                      traits.in_place ? 1 : 0,
                      traits.private_formats ? 1 : 0,
                      get_workspace_size,
                      call,
                      run,
                      traits.example};
}

OpRegistrar::OpRegistrar(const canopyOpInfo& info) {
  for (const canopyOpInfo* op : Registered()) {
    if (std::strcmp(op->name, info.name) == 0) {
      // Two definitions of one exported symbol cannot link; two rows for it would be a kit bug.
      std::fprintf(stderr, "canopy: op %s is registered twice\n", info.name);
      std::abort();
    }
  }
  Registered().push_back(&info);
}

}  // namespace canopy::ops

using canopy::ops::Sorted;

extern "C" {

size_t canopyOpCount(void) try { return Sorted().size(); }
CANOPY_C_BOUNDARY({})

const canopyOpInfo* canopyOpAt(size_t index) try { return index < Sorted().size() ? Sorted()[index] : nullptr; }
CANOPY_C_BOUNDARY(nullptr)

const canopyOpInfo* canopyFindOp(const char* name) try {
  if (name == nullptr) return nullptr;
  const auto& ops = Sorted();
  const auto it = std::lower_bound(ops.begin(), ops.end(), name,
                                   [](const canopyOpInfo* op, const char* n) { return std::strcmp(op->name, n) < 0; });
  return it != ops.end() && std::strcmp((*it)->name, name) == 0 ? *it : nullptr;
}
CANOPY_C_BOUNDARY(nullptr)

}  // extern "C"
