// libacl_op_compiler.so carries no functions yet: Canopy runs every op through
// aclnn, so there are no operators to compile online. The library exists so that
// clients that link it (llama.cpp's CANN backend does) build and load unchanged.
namespace canopy::op_compiler {
[[maybe_unused]] constexpr int kReserved = 0;
}
