// The example-call notation ops declare in OpTraits::example (registry_example.h):
// what each token means, and that a token that does not fit its argument is an
// error naming it rather than a call built from a guess.
#include <gtest/gtest.h>

#include "op_test_support.h"
#include "registry_example.h"

namespace canopy_test {
namespace {

using Form = ExampleArgument::Form;

canopyOpArg Arg(const char* name, canopyArgKind kind, int32_t size = 8) { return {name, "T", kind, size, 0}; }

// An op of these arguments declaring `example`.
canopyOpInfo OpOf(const std::vector<canopyOpArg>& args, const char* example) {
  canopyOpInfo op{};
  op.name = "Example";
  op.argCount = args.size();
  op.args = args.data();
  op.example = example;
  return op;
}

TEST(RegistryExample, ReadsEveryForm) {
  const std::vector<canopyOpArg> args = {
      Arg("self", CANOPY_ARG_TENSOR),      Arg("index", CANOPY_ARG_TENSOR),   Arg("bias", CANOPY_ARG_TENSOR),
      Arg("alpha", CANOPY_ARG_SCALAR),     Arg("dims", CANOPY_ARG_INT_ARRAY), Arg("w", CANOPY_ARG_FLOAT_ARRAY),
      Arg("flags", CANOPY_ARG_BOOL_ARRAY), Arg("xs", CANOPY_ARG_TENSOR_LIST), Arg("ss", CANOPY_ARG_SCALAR_LIST),
      Arg("layout", CANOPY_ARG_STRING),    Arg("dim", CANOPY_ARG_INT, 4),     Arg("keep", CANOPY_ARG_BOOL, 1),
      Arg("eps", CANOPY_ARG_FLOAT, 8),     Arg("out", CANOPY_ARG_TENSOR)};
  const canopyOpInfo op = OpOf(args,
                               "f16[2,3]@NCL i64[4]{0:1} - bf16:1.5 ints[0,-1] floats[1,0.5] bools[1,0] "
                               "(f32[1,2],i8[]) (f32:1,i32:2) 'BSND' -1 true 1e-5 f32[]");
  std::string error;
  const auto parsed = ParseExample(op, error);
  ASSERT_TRUE(parsed) << error;
  const std::vector<ExampleArgument>& a = *parsed;
  ASSERT_EQ(a.size(), args.size());
  EXPECT_EQ(a[0].form, Form::kTensor);
  EXPECT_EQ(a[0].tensors[0].dtype, ACL_FLOAT16);
  EXPECT_EQ(a[0].tensors[0].shape, (Shape{2, 3}));
  EXPECT_EQ(a[0].tensors[0].format, ACL_FORMAT_NCL);
  EXPECT_FALSE(a[0].tensors[0].ranged);
  ASSERT_TRUE(a[1].tensors[0].ranged);
  EXPECT_EQ(a[1].tensors[0].lo, 0);
  EXPECT_EQ(a[1].tensors[0].hi, 1);
  EXPECT_EQ(a[1].tensors[0].format, ACL_FORMAT_ND);
  EXPECT_EQ(a[2].form, Form::kNull);
  EXPECT_EQ(a[3].form, Form::kScalar);
  EXPECT_EQ(a[3].scalars[0].dtype, ACL_BF16);
  EXPECT_EQ(a[3].scalars[0].value, 1.5);
  EXPECT_EQ(a[4].form, Form::kIntArray);
  EXPECT_EQ(a[4].numbers, (std::vector<double>{0, -1}));
  EXPECT_EQ(a[5].numbers, (std::vector<double>{1, 0.5}));
  EXPECT_EQ(a[6].form, Form::kBoolArray);
  EXPECT_EQ(a[7].form, Form::kTensorList);
  ASSERT_EQ(a[7].tensors.size(), 2u);
  EXPECT_EQ(a[7].tensors[1].dtype, ACL_INT8);
  EXPECT_TRUE(a[7].tensors[1].shape.empty());
  EXPECT_EQ(a[8].form, Form::kScalarList);
  EXPECT_EQ(a[8].scalars[1].dtype, ACL_INT32);
  EXPECT_EQ(a[9].text, "BSND");
  EXPECT_EQ(a[10].numbers[0], -1);
  EXPECT_EQ(a[11].numbers[0], 1);
  EXPECT_EQ(a[12].numbers[0], 1e-5);
  EXPECT_TRUE(a[13].tensors[0].shape.empty());  // rank 0
}

TEST(RegistryExample, ATokenThatDoesNotFitItsArgumentIsAnError) {
  struct Bad {
    canopyArgKind kind;
    const char* token;
  };
  const Bad kBad[] = {
      {CANOPY_ARG_TENSOR, "f32"},
      {CANOPY_ARG_TENSOR, "f33[2]"},
      {CANOPY_ARG_TENSOR, "f32[2,]"},
      {CANOPY_ARG_TENSOR, "f32[2]{1:0}"},
      {CANOPY_ARG_TENSOR, "f32[2]@NZ"},
      {CANOPY_ARG_TENSOR, "ints[1]"},
      {CANOPY_ARG_SCALAR, "f32[2]"},
      {CANOPY_ARG_SCALAR, "f32:x"},
      {CANOPY_ARG_INT_ARRAY, "floats[1]"},
      {CANOPY_ARG_INT_ARRAY, "ints[1"},
      {CANOPY_ARG_TENSOR_LIST, "f32[2]"},
      {CANOPY_ARG_TENSOR_LIST, "(f32:1)"},
      {CANOPY_ARG_SCALAR_LIST, "(f32[1])"},
      {CANOPY_ARG_STRING, "BSND"},
      {CANOPY_ARG_INT, "-"},
      {CANOPY_ARG_INT, "two"},
      {CANOPY_ARG_BOOL, "2"},
      {CANOPY_ARG_FLOAT, "1e"},
  };
  for (const Bad& bad : kBad) {
    SCOPED_TRACE(bad.token);
    const std::vector<canopyOpArg> args = {Arg("x", bad.kind)};
    const canopyOpInfo op = OpOf(args, bad.token);
    std::string error;
    EXPECT_FALSE(ParseExample(op, error));
    EXPECT_NE(error.find(bad.token), std::string::npos) << error;
    EXPECT_NE(error.find("argument x"), std::string::npos) << error;
  }
}

// !CODE marks an optional argument the example's path cannot do without.
TEST(RegistryExample, AStatusAfterAnOptionalSaysItsAbsenceFailsTheCall) {
  std::vector<canopyOpArg> args = {Arg("x", CANOPY_ARG_TENSOR), Arg("rstd", CANOPY_ARG_TENSOR),
                                   Arg("bias", CANOPY_ARG_TENSOR), Arg("mode", CANOPY_ARG_STRING)};
  args[1].optional = args[2].optional = args[3].optional = 1;
  std::string error;
  const auto parsed = ParseExample(OpOf(args, "f32[2] f32[2,1]!161002 f32[2] 'a!b'"), error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ((*parsed)[0].statusWhenLeftOut, 0);
  EXPECT_EQ((*parsed)[1].statusWhenLeftOut, 161002);
  EXPECT_EQ((*parsed)[1].tensors[0].shape, (Shape{2, 1}));
  EXPECT_EQ((*parsed)[2].statusWhenLeftOut, 0);
  EXPECT_EQ((*parsed)[3].text, "a!b");  // a '!' inside a string is text

  struct Bad {
    const char* example;
    const char* says;
  };
  const Bad kBad[] = {
      {"f32[2]!161001 f32[2] f32[2] -", "marks as needed the required argument x"},
      {"f32[2] -!161001 f32[2] -", "leaves out and marks as needed argument rstd"},
      {"f32[2] f32[2]! f32[2] -", "no status code"},
      {"f32[2] f32[2]!x f32[2] -", "no status code"},
      {"f32[2] f32[2]!0 f32[2] -", "no status code"},
      {"f32[2] f32[2]!1.5 f32[2] -", "no status code"},
      {"f32[2] f32[2]!99999999999 f32[2] -", "no status code"},
  };
  for (const Bad& bad : kBad) {
    SCOPED_TRACE(bad.example);
    EXPECT_FALSE(ParseExample(OpOf(args, bad.example), error));
    EXPECT_NE(error.find(bad.says), std::string::npos) << error;
  }
}

TEST(RegistryExample, TheTokenCountIsTheArgumentCount) {
  const std::vector<canopyOpArg> args = {Arg("self", CANOPY_ARG_TENSOR), Arg("out", CANOPY_ARG_TENSOR)};
  for (const char* example : {"f32[2]", "f32[2] f32[2] f32[2]", ""}) {
    const canopyOpInfo op = OpOf(args, example);
    std::string error;
    EXPECT_FALSE(ParseExample(op, error)) << example;
    EXPECT_NE(error.find("for 2 arguments"), std::string::npos) << error;
  }
}

// Every op that declares an example declares one its own argument kinds read.
TEST(RegistryExample, EveryDeclaredExampleReads) {
  int declared = 0;
  for (const canopyOpInfo* op : RegisteredOps()) {
    if (op->example == nullptr) continue;
    ++declared;
    std::string error;
    EXPECT_TRUE(ParseExample(*op, error)) << error;
  }
  EXPECT_GT(declared, 0);
}

}  // namespace
}  // namespace canopy_test
