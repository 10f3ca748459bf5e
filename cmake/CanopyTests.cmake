# canopy_discover_tests(<gtest target> [VARIANT <name>] [LABELS <label>...] [ENVIRONMENT <VAR=value>...]
#                       [TIMEOUT <seconds>] [RUN_SERIAL] [RESOURCE_LOCK <resource>...])
# Each test case of the binary becomes a ctest test of its own, named
# <target>.<Suite>.<Case> and labelled <target> (plus LABELS), so a failure
# names the case and `ctest -j` spreads the cases over the cores. The options
# apply to every case: RUN_SERIAL for binaries that must have the machine to
# themselves (CPU affinity, timing), RESOURCE_LOCK for ones that must not run
# beside each other. VARIANT registers the binary's cases once more, named
# <target>.<variant>.<Suite>.<Case> (e.g. the same cases under another ENVIRONMENT).
#
# CANOPY_TESTS_PER_CASE=OFF registers each binary (and variant) as one ctest test
# instead, <target>[.<variant>].all: one process runs all its cases. The
# sanitizer stage of scripts/run_tests.sh uses it, where starting a process
# per case (tens of thousands of them) would cost more than the cases.
include(GoogleTest)
option(CANOPY_TESTS_PER_CASE "One ctest test per gtest case (OFF: one per test binary)" ON)

function(canopy_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "RUN_SERIAL" "TIMEOUT;VARIANT" "LABELS;ENVIRONMENT;RESOURCE_LOCK")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 900)
  endif()
  set(prefix "${target}.")
  set(list_name ${target}_TESTS)
  if(arg_VARIANT)
    set(prefix "${target}.${arg_VARIANT}.")
    set(list_name ${target}_${arg_VARIANT}_TESTS)
  endif()
  if(NOT CANOPY_TESTS_PER_CASE)
    add_test(NAME ${prefix}all COMMAND ${target} --gtest_color=no)
    # A whole binary runs as long as all its cases together.
    math(EXPR whole_timeout "${arg_TIMEOUT} * 4")
    set_tests_properties(${prefix}all PROPERTIES TIMEOUT ${whole_timeout} LABELS "${target};${arg_LABELS}")
    if(arg_ENVIRONMENT)
      set_tests_properties(${prefix}all PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
    endif()
    if(arg_RUN_SERIAL)
      set_tests_properties(${prefix}all PROPERTIES RUN_SERIAL TRUE)
    endif()
    if(arg_RESOURCE_LOCK)
      set_tests_properties(${prefix}all PROPERTIES RESOURCE_LOCK "${arg_RESOURCE_LOCK}")
    endif()
    return()
  endif()
  # Listed when ctest starts (not at build time), so a build never runs its own tests.
  gtest_discover_tests(${target} TEST_PREFIX "${prefix}" EXTRA_ARGS --gtest_color=no DISCOVERY_MODE PRE_TEST
                       DISCOVERY_TIMEOUT 60 TEST_LIST ${list_name})
  # The properties are set by a script of our own that ctest runs after the
  # discovery: list values (labels, environment) do not survive the PROPERTIES
  # argument of gtest_discover_tests in CMake 3.25.
  set(properties "TIMEOUT ${arg_TIMEOUT} LABELS [==[${target};${arg_LABELS}]==]")
  if(arg_ENVIRONMENT)
    string(APPEND properties " ENVIRONMENT [==[${arg_ENVIRONMENT}]==]")
  endif()
  if(arg_RUN_SERIAL)
    string(APPEND properties " RUN_SERIAL TRUE")
  endif()
  if(arg_RESOURCE_LOCK)
    string(APPEND properties " RESOURCE_LOCK [==[${arg_RESOURCE_LOCK}]==]")
  endif()
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${list_name}_properties.cmake)
  file(WRITE ${script} "if(${list_name})\n  set_tests_properties(\${${list_name}} PROPERTIES ${properties})\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
