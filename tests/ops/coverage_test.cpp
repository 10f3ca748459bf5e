// docs/ops.md's coverage section (written by scripts/op_coverage.py) says, per
// family folder of CANN's op repositories, which documented ops Canopy has and
// which not yet. It must agree with the registry both ways, so it cannot drift:
// an op added without rerunning the script fails here, and so does a row that
// claims an op the registry lacks. Documented functions that are no registry op
// (weight-size calculators) must be exported; ops CANN runs only on other
// chips than Atlas A2 must not be registered.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr const char* kBegin = "<!-- coverage:begin";
constexpr const char* kEnd = "<!-- coverage:end -->";

std::string CoverageSection() {
  std::ifstream in(std::filesystem::path(CANOPY_SOURCE_DIR) / "docs" / "ops.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const size_t begin = all.find(kBegin);
  const size_t end = all.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return {};
  return all.substr(begin, end - begin);
}

// The `Name`s of every line of the section that starts with `prefix`.
std::multiset<std::string> NamesOnLines(const std::string& section, const std::string& prefix) {
  std::multiset<std::string> names;
  std::istringstream lines(section);
  std::string line;
  const std::regex name("`([A-Za-z0-9]+)`");
  while (std::getline(lines, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), name), last; it != last; ++it) names.insert((*it)[1]);
  }
  return names;
}

TEST(OpCoverage, SectionAgreesWithTheRegistry) {
  const std::string section = CoverageSection();
  ASSERT_FALSE(section.empty()) << "docs/ops.md has no coverage section (run scripts/op_coverage.py)";
  std::set<std::string> registered;
  for (const canopyOpInfo* op : RegisteredOps()) registered.insert(op->name);

  const std::multiset<std::string> have = NamesOnLines(section, "in Canopy:");
  const std::multiset<std::string> functions = NamesOnLines(section, "in Canopy as host functions:");
  const std::multiset<std::string> missing = NamesOnLines(section, "not yet:");
  const std::multiset<std::string> elsewhere = NamesOnLines(section, "not on Atlas A2:");
  ASSERT_GT(have.size() + functions.size() + missing.size() + elsewhere.size(), 850u)
      << "the documented lists are incomplete";
  for (const std::string& name : functions) {
    EXPECT_TRUE(registered.count(name) == 0 && dlsym(RTLD_DEFAULT, ("aclnn" + name).c_str()) != nullptr)
        << name << " is marked a host function in Canopy but is not exported (or is a registry op)";
  }
  for (const std::string& name : elsewhere) {
    EXPECT_TRUE(registered.count(name) == 0)
        << name << " is registered but marked 'not on Atlas A2': update scripts/op_coverage.py's evidence";
  }
  for (const std::string& name : have) {
    EXPECT_TRUE(registered.count(name) == 1) << name << " is marked 'in Canopy' but is not registered";
  }
  for (const std::string& name : missing) {
    EXPECT_TRUE(registered.count(name) == 0)
        << name << " is registered but marked 'not yet': rerun scripts/op_coverage.py --build <build dir>";
  }
}

}  // namespace
}  // namespace canopy_test
