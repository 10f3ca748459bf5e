// Every function declared by the installed headers can be linked: a client that
// merely references one (without calling it) must not fail to link. Reads each
// prototype of <prefix>/include/acl/*.h and <prefix>/include/aclnn/*.h and checks
// that dlsym finds it in the library CANN ships it in, and that the definition
// found lives in that library itself (not in one it depends on):
//   include/acl/   -> lib64/libascendcl.so (runtime, model, allocator, base)
//   include/aclnn/ -> lib64/libnnopbase.so (meta API, aclnnInit/aclnnFinalize)
//   include/hccl/  -> lib64/libhccl.so (collective communication)
//
//   declared_symbols_check <prefix>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The header without comments and preprocessor lines (continuations included).
std::string Declarations(const fs::path& header) {
  std::ifstream in(header);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  text = std::regex_replace(text, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
  text = std::regex_replace(text, std::regex(R"(//[^\n]*)"), " ");
  text = std::regex_replace(text, std::regex(R"((^|\n)[ \t]*#([^\n]*\\\n)*[^\n]*)"), "\n");
  return text;
}

// Names of the functions a header declares: each top-level statement that is
// not a typedef (function pointer types) and whose first name followed by '('
// starts with acl/Acl/Hccl. Struct and enum bodies are cut off at their '}'.
std::vector<std::string> DeclaredFunctions(const fs::path& header) {
  static const std::regex kFunction(R"(^(?:ACL_DEPRECATED_MESSAGE\("[^"]*"\)\s*)?(?:ACL_FUNC_VISIBILITY\s+)?)"
                                    R"([A-Za-z_][\w\s\*]*?\b((?:acl|Acl|Hccl)\w*)\s*\()");
  std::vector<std::string> names;
  std::string text = Declarations(header);
  std::stringstream statements(text);
  for (std::string statement; std::getline(statements, statement, ';');) {
    if (const size_t brace = statement.find_last_of("{}"); brace != std::string::npos) {
      statement = statement.substr(brace + 1);
    }
    statement = std::regex_replace(statement, std::regex(R"(\s+)"), " ");
    statement.erase(0, statement.find_first_not_of(' '));
    if (statement.rfind("typedef", 0) == 0 || statement.rfind("static", 0) == 0) continue;
    if (std::smatch match; std::regex_search(statement, match, kFunction)) names.push_back(match[1]);
  }
  return names;
}

struct Library {
  const char* headers;  // folder under include/
  const char* file;     // under lib64/
};

}  // namespace

static int Check(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <installed prefix>\n", argv[0]);
    return 2;
  }
  const fs::path prefix = argv[1];
  int declared = 0;
  std::vector<std::string> missing;
  for (const Library library :
       {Library{"acl", "libascendcl.so"}, Library{"aclnn", "libnnopbase.so"}, Library{"hccl", "libhccl.so"}}) {
    const fs::path path = fs::canonical(prefix / "lib64" / library.file);
    void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr) {
      std::fprintf(stderr, "dlopen(%s): %s\n", path.c_str(), dlerror());
      return 1;
    }
    std::vector<fs::path> headers;
    for (const auto& entry : fs::directory_iterator(prefix / "include" / library.headers)) {
      if (entry.path().extension() == ".h") headers.push_back(entry.path());
    }
    std::sort(headers.begin(), headers.end());
    for (const fs::path& header : headers) {
      for (const std::string& name : DeclaredFunctions(header)) {
        ++declared;
        void* symbol = dlsym(handle, name.c_str());
        Dl_info info{};
        const bool here = symbol != nullptr && dladdr(symbol, &info) != 0 && info.dli_fname != nullptr &&
                          fs::equivalent(fs::path(info.dli_fname), path);
        if (!here) missing.push_back(library.headers + std::string("/") + header.filename().string() + ": " + name);
      }
    }
  }
  // A parser that found nothing would pass vacuously: CANN's headers declare hundreds.
  if (declared < 400) {
    std::fprintf(stderr, "only %d declared functions found under %s/include: the header parser is broken\n", declared,
                 prefix.c_str());
    return 1;
  }
  for (const std::string& entry : missing) std::fprintf(stderr, "not defined in its library: %s\n", entry.c_str());
  if (!missing.empty()) {
    std::fprintf(stderr, "%zu of %d declared functions cannot be linked\n", missing.size(), declared);
    return 1;
  }
  std::printf("all %d declared functions are defined in their libraries\n", declared);
  return 0;
}

int main(int argc, char** argv) {
  try {
    return Check(argc, argv);
  } catch (const std::exception& error) {  // a missing folder, a file that cannot be read
    std::fprintf(stderr, "declared_symbols_check: %s\n", error.what());
    return 1;
  }
}
