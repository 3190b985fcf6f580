# Provides the Jolt target, built from source with joltgym's configuration.
#
# Where the source comes from, first match wins:
#   -DJOLTGYM_JOLT_SOURCE_DIR=<path>   a local JoltPhysics checkout (the folder holding Build/ and Jolt/)
#   -DJOLTGYM_JOLT_FROM_GIT=ON         git clone of the v5.5.0 tag (needs access to GitHub)
#   default                            the verified registry sdist, unpacked into a user cache
#                                      by cmake/fetch_jolt_source.py

set(JOLTGYM_JOLT_SOURCE_DIR "" CACHE PATH "Local JoltPhysics source tree (contains Build/ and Jolt/)")
option(JOLTGYM_JOLT_FROM_GIT "Fetch Jolt v5.5.0 with git instead of the registry sdist" OFF)
set(JOLTGYM_NATIVE_CPU "AUTO" CACHE STRING
  "ON: this machine's CPU (AVX2, FMA, F16C, LZCNT); OFF: the portable SSE4.2 baseline (wheels for others); AUTO: ON where the building machine has them")
option(JOLTGYM_LTO "Link-time optimisation of Jolt and the module (slow links)" OFF)

if(JOLTGYM_JOLT_SOURCE_DIR)
  set(_jolt_root "${JOLTGYM_JOLT_SOURCE_DIR}")
elseif(JOLTGYM_JOLT_FROM_GIT)
  include(FetchContent)
  FetchContent_Declare(joltphysics
    GIT_REPOSITORY https://github.com/jrouwe/JoltPhysics.git
    GIT_TAG v5.5.0
    GIT_SHALLOW TRUE)
  FetchContent_GetProperties(joltphysics)
  if(NOT joltphysics_POPULATED)
    FetchContent_Populate(joltphysics)
  endif()
  set(_jolt_root "${joltphysics_SOURCE_DIR}")
else()
  find_package(Python COMPONENTS Interpreter REQUIRED)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/fetch_jolt_source.py"
    OUTPUT_VARIABLE _jolt_root
    ERROR_VARIABLE _jolt_error
    RESULT_VARIABLE _jolt_result
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _jolt_result EQUAL 0)
    message(FATAL_ERROR "${_jolt_error}\nPass -DJOLTGYM_JOLT_SOURCE_DIR=<JoltPhysics checkout> to build from a local copy.")
  endif()
endif()

if(NOT EXISTS "${_jolt_root}/Build/CMakeLists.txt" OR NOT EXISTS "${_jolt_root}/Jolt/Jolt.h")
  message(FATAL_ERROR "Not a JoltPhysics source tree: ${_jolt_root}")
endif()
message(STATUS "joltgym: Jolt Physics source at ${_jolt_root}")

# Jolt's own options, set before its CMakeLists reads them.
set(CMAKE_POLICY_DEFAULT_CMP0077 NEW)
set(ENABLE_ALL_WARNINGS OFF)
set(ENABLE_INSTALL OFF)
set(ENABLE_OBJECT_STREAM OFF)
set(GENERATE_DEBUG_SYMBOLS OFF)
set(OVERRIDE_CXX_FLAGS ON)
set(INTERPROCEDURAL_OPTIMIZATION ${JOLTGYM_LTO})
set(FLOATING_POINT_EXCEPTIONS_ENABLED OFF)
set(PROFILER_IN_DEBUG_AND_RELEASE OFF)
set(PROFILER_IN_DISTRIBUTION OFF)
set(DEBUG_RENDERER_IN_DEBUG_AND_RELEASE OFF)
set(DEBUG_RENDERER_IN_DISTRIBUTION OFF)
set(CPP_RTTI_ENABLED ON)        # our classes derive from Jolt's and are compiled with RTTI (pybind11)
set(CPP_EXCEPTIONS_ENABLED OFF)
set(USE_ASSERTS OFF)
set(DOUBLE_PRECISION OFF)
set(CROSS_PLATFORM_DETERMINISTIC OFF)
set(TARGET_UNIT_TESTS OFF)
set(TARGET_HELLO_WORLD OFF)
set(TARGET_PERFORMANCE_TEST OFF)
set(TARGET_SAMPLES OFF)
set(TARGET_VIEWER OFF)
set(JPH_ENABLE_VULKAN OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# A source build runs where it is built, so AUTO tunes for the building CPU (measured, HalfCheetah
# and Ant at 256 envs, one thread: +8% env steps per CPU-second over the SSE4.2 baseline).
string(TOUPPER "${JOLTGYM_NATIVE_CPU}" _cpu_choice)
if(_cpu_choice STREQUAL "AUTO")
  if(CMAKE_CROSSCOMPILING)
    set(_tuned OFF)
  else()
    try_run(_probe_run _probe_compiled "${CMAKE_BINARY_DIR}/cpu_probe" "${CMAKE_CURRENT_LIST_DIR}/cpu_probe.cpp")
    if(_probe_compiled AND _probe_run EQUAL 0)
      set(_tuned ON)
    else()
      set(_tuned OFF)
    endif()
  endif()
elseif(_cpu_choice)
  set(_tuned ON)
else()
  set(_tuned OFF)
endif()
message(STATUS "joltgym: JOLTGYM_NATIVE_CPU=${JOLTGYM_NATIVE_CPU}: ${_tuned}")
if(_tuned)
  set(USE_SSE4_1 ON)
  set(USE_SSE4_2 ON)
  set(USE_AVX ON)
  set(USE_AVX2 ON)
  set(USE_LZCNT ON)
  set(USE_TZCNT ON)
  set(USE_F16C ON)
  set(USE_FMADD ON)
else()
  set(USE_SSE4_1 ON)
  set(USE_SSE4_2 ON)
  set(USE_AVX OFF)
  set(USE_AVX2 OFF)
  set(USE_AVX512 OFF)
  set(USE_LZCNT OFF)
  set(USE_TZCNT OFF)
  set(USE_F16C OFF)
  set(USE_FMADD OFF)
endif()

add_subdirectory("${_jolt_root}/Build" "${CMAKE_BINARY_DIR}/jolt" EXCLUDE_FROM_ALL SYSTEM)
set_target_properties(Jolt PROPERTIES POSITION_INDEPENDENT_CODE ON)
