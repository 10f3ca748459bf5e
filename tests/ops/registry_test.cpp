// The op registry (canopy/canopy_ops.h) lists exactly the ops libopapi exports,
// each with the entry points the dynamic linker finds, and docs/ops.md lists
// exactly the registered ops.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "op_test_support.h"

namespace canopy_test {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The Xxx of every aclnnXxxGetWorkspaceSize( in a header's text.
std::vector<std::string> DeclaredOps(const std::string& text) {
  std::vector<std::string> names;
  const std::string suffix = "GetWorkspaceSize(";
  for (size_t at = text.find(suffix); at != std::string::npos; at = text.find(suffix, at + 1)) {
    size_t begin = at;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(text[begin - 1])) || text[begin - 1] == '_')) --begin;
    const std::string identifier = text.substr(begin, at - begin);
    if (identifier.rfind("aclnn", 0) == 0 && identifier.size() > 5) names.push_back(identifier.substr(5));
  }
  return names;
}

std::set<std::string> RegisteredNames() {
  std::set<std::string> names;
  for (const canopyOpInfo* op : RegisteredOps()) names.insert(op->name);
  return names;
}

TEST(OpRegistry, RowsAreCompleteSortedAndFindable) {
  const std::vector<const canopyOpInfo*> ops = RegisteredOps();
  ASSERT_FALSE(ops.empty());
  EXPECT_EQ(canopyOpAt(ops.size()), nullptr);
  EXPECT_EQ(canopyFindOp("NoSuchOp"), nullptr);
  EXPECT_EQ(canopyFindOp(nullptr), nullptr);
  for (size_t i = 0; i < ops.size(); ++i) {
    const canopyOpInfo& op = *ops[i];
    SCOPED_TRACE(op.name);
    if (i > 0) {
      EXPECT_LT(std::string(ops[i - 1]->name), std::string(op.name)) << "sorted, no duplicates";
    }
    EXPECT_EQ(canopyFindOp(op.name), &op);
    ASSERT_NE(op.header, nullptr);
    EXPECT_GT(op.argCount, 0u);
    EXPECT_NE(op.dtypes, 0u);
    EXPECT_GT(op.maxRank, 0);
    EXPECT_NE(op.callGetWorkspaceSize, nullptr);
    for (size_t a = 0; a < op.argCount; ++a) {
      const canopyOpArg& arg = op.args[a];
      EXPECT_TRUE(arg.kind >= CANOPY_ARG_TENSOR && arg.kind <= CANOPY_ARG_STRING) << arg.name;
      EXPECT_GT(arg.size, 0) << arg.name;
      // Only pointers can be absent.
      const bool pointer = arg.kind == CANOPY_ARG_TENSOR || arg.kind == CANOPY_ARG_SCALAR ||
                           arg.kind == CANOPY_ARG_STRING ||
                           (arg.kind >= CANOPY_ARG_INT_ARRAY && arg.kind <= CANOPY_ARG_SCALAR_LIST);
      EXPECT_TRUE(arg.optional == 0 || (arg.optional == 1 && pointer)) << arg.name;
      if (pointer) {
        EXPECT_EQ(arg.size, static_cast<int32_t>(sizeof(void*))) << arg.name;
      }
    }
    // In-place ops write their first argument, a tensor CANN names selfRef
    // (inputRef where the out form's input is `input`: InplaceAcos, InplaceFrac;
    // x1Ref where it is x1: InplaceAddRmsNorm; varRef in TensorFlow's scatters:
    // ScatterNdUpdate; data in InplaceScatterUpdate), or a tensor list: x or x1
    // in the Foreach family's in-place forms, paramsRef in the fused optimisers,
    // varRef in ScatterList; InplaceRReluWithNoise's prototype calls it self;
    // ApplyRotaryPosEmb writes queryRef (and keyRef).
    if (op.inPlace != 0) {
      const std::string first = op.args[0].name;
      if (op.args[0].kind == CANOPY_ARG_TENSOR_LIST) {
        EXPECT_TRUE((std::string(op.name).rfind("Foreach", 0) == 0 && (first == "x" || first == "x1")) ||
                    first == "paramsRef" || first == "varRef")
            << op.name << ": " << first;
      } else {
        EXPECT_TRUE(first == "selfRef" || first == "inputRef" || first == "x1Ref" || first == "varRef" ||
                    first == "data" || first == "queryRef" ||
                    (first == "self" && std::string(op.name) == "InplaceRReluWithNoise"))
            << op.name << ": " << first;
        EXPECT_EQ(op.args[0].kind, CANOPY_ARG_TENSOR);
      }
    }
  }
}

// The registry's entry points are the exported symbols, by name.
TEST(OpRegistry, EntryPointsAreTheExportedSymbols) {
  for (const canopyOpInfo* op : RegisteredOps()) {
    const std::string phase2 = std::string("aclnn") + op->name;
    const std::string phase1 = phase2 + "GetWorkspaceSize";
    EXPECT_EQ(dlsym(RTLD_DEFAULT, phase1.c_str()), reinterpret_cast<void*>(op->getWorkspaceSize)) << phase1;
    EXPECT_EQ(dlsym(RTLD_DEFAULT, phase2.c_str()), reinterpret_cast<void*>(op->run)) << phase2;
  }
}

// Every op that a CANN header in include/aclnnop declares and libopapi exports is
// registered, and each registered op is declared in the header its row names.
TEST(OpRegistry, ListsEveryExportedOp) {
  const std::filesystem::path include = std::filesystem::path(CANOPY_SOURCE_DIR) / "include";
  std::set<std::string> exported;
  for (const auto& entry : std::filesystem::directory_iterator(include / "aclnnop")) {
    for (const std::string& name : DeclaredOps(ReadFile(entry.path()))) {
      if (dlsym(RTLD_DEFAULT, ("aclnn" + name + "GetWorkspaceSize").c_str()) != nullptr) exported.insert(name);
    }
  }
  EXPECT_EQ(exported, RegisteredNames());
  for (const canopyOpInfo* op : RegisteredOps()) {
    const std::string text = ReadFile(include / op->header);
    EXPECT_NE(text.find(std::string("aclnn") + op->name + "GetWorkspaceSize("), std::string::npos)
        << op->name << " is not declared in " << op->header;
  }
}

// docs/ops.md: the ops column of its table names exactly the registered ops.
TEST(OpRegistry, DocsTableListsExactlyTheRegisteredOps) {
  const std::string text = ReadFile(std::filesystem::path(CANOPY_SOURCE_DIR) / "docs" / "ops.md");
  ASSERT_FALSE(text.empty());
  std::set<std::string> documented;
  std::istringstream lines(text);
  std::string line;
  // Rows of the table: "| `aclnn_xxx.h` | Op, Op, ... | dtypes | notes |".
  while (std::getline(lines, line)) {
    if (line.rfind("| `aclnn", 0) != 0) continue;
    const size_t first = line.find('|', 1);
    const size_t second = line.find('|', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::istringstream names(line.substr(first + 1, second - first - 1));
    std::string name;
    while (std::getline(names, name, ',')) {
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      EXPECT_TRUE(documented.insert(name).second) << name << " is listed twice";
    }
  }
  EXPECT_EQ(documented, RegisteredNames());
}

}  // namespace
}  // namespace canopy_test
