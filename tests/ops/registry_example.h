// An op's declared valid call (OpTraits::example, canopyOpInfo::example) read
// into argument values the registry's generic tests can build and vary.
//
// The notation, one token per prototype argument, separated by spaces:
//   f32[2,3]            a tensor of that dtype and shape ([] is rank 0), random values;
//                       suffixes {lo:hi} (value range, integers inclusive) and @NCHW
//                       (format: ND NCHW NHWC NCL NCDHW NDHWC, or FRACTAL_Z_3D: a rank-5
//                       NCDHW view over its blocked storage; FRACTAL_NZ: a rank-2 view
//                       [r, c] over NZ storage [ceil(c / c0), ceil(r / 16), 16, c0], c0
//                       32 bytes of the dtype), in that order
//   -                   a null pointer (an optional argument left out)
//   f32:1.5             an aclScalar
//   ints[0,1]  floats[1,0.5]  bools[1,0]      aclIntArray, aclFloatArray, aclBoolArray
//   (f32[1,2],f32[1,2])  (f32:1,f32:2)        aclTensorList, aclScalarList
//   'BSND'              a string
//   3  -1  1e-5  true   an integer or enum, a float or double, a bool
// An optional argument's token may end in !CODE (f32[2,1]!161002): the
// example's path needs it (CANN's doc makes it optional only in other
// combinations), so the same call without it fails with status CODE.
#ifndef CANOPY_TESTS_OPS_REGISTRY_EXAMPLE_H_
#define CANOPY_TESTS_OPS_REGISTRY_EXAMPLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "canopy/canopy_ops.h"

namespace canopy_test {

// Plain data, no test framework: the op tests and the op fuzzer both read examples.
struct ExampleTensor {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> shape;
  bool ranged = false;  // values in [lo, hi] (integers inclusive); else the reader's default
  double lo = 0, hi = 0;
  aclFormat format = ACL_FORMAT_ND;
};

struct ExampleScalar {
  aclDataType dtype = ACL_FLOAT;
  double value = 0;
};

// One argument of an example call.
struct ExampleArgument {
  enum class Form {
    kNull,
    kTensor,
    kScalar,
    kIntArray,
    kFloatArray,
    kBoolArray,
    kTensorList,
    kScalarList,
    kString,
    kNumber
  };
  Form form = Form::kNull;
  std::vector<ExampleTensor> tensors;  // kTensor: one; kTensorList: its elements
  std::vector<ExampleScalar> scalars;  // kScalar: one; kScalarList: its elements
  std::vector<double> numbers;         // the arrays' elements; kNumber: the value (bools 0 / 1)
  std::string text;                    // kString
  int32_t statusWhenLeftOut = 0;       // !CODE: the call without this optional argument fails with CODE
};

// `op.example` read against op's argument kinds: one argument per prototype
// argument, or nothing and a reason in `error` (a malformed token, a form that
// does not fit the argument's kind, a token count that is not op.argCount,
// !CODE on a required argument or on a left-out one).
std::optional<std::vector<ExampleArgument>> ParseExample(const canopyOpInfo& op, std::string& error);

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_REGISTRY_EXAMPLE_H_
