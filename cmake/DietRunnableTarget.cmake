# DIET_HOST_TARGET: the Halide target that runs on this machine's CPU, for every
# add_halide_library(... TARGETS ...) and generator command line of the build instead of `host`.
# Halide 14's `host` includes avx512_sapphirerapids on AVX-512 CPUs without AVX512-FP16 (AMD Zen 4),
# and the code it builds there dies with SIGILL; src/space/HostCpu.cpp removes what the CPU lacks.
# Computed at configure time by compiling and running apps/diet_target.cpp; set
# -DDIET_HOST_TARGET=<target> to build for another machine. Not cached when detected: a build
# directory reused on another CPU detects again.
if (NOT DIET_HOST_TARGET)
    try_run(diet_target_run diet_target_compiled ${CMAKE_BINARY_DIR}/diet_target_probe
            SOURCES ${PROJECT_SOURCE_DIR}/apps/diet_target.cpp ${PROJECT_SOURCE_DIR}/src/space/HostCpu.cpp
            CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${PROJECT_SOURCE_DIR}/src"
            LINK_LIBRARIES Halide::Halide
            CXX_STANDARD 17
            COMPILE_OUTPUT_VARIABLE diet_target_compile_output
            RUN_OUTPUT_VARIABLE diet_target_output)
    if (NOT diet_target_compiled OR NOT diet_target_run EQUAL 0)
        message(FATAL_ERROR "Diet: cannot determine the runnable host target:\n"
                            "${diet_target_compile_output}\n${diet_target_output}")
    endif ()
    string(STRIP "${diet_target_output}" diet_target_output)
    set(DIET_HOST_TARGET "${diet_target_output}")
endif ()
message(STATUS "Diet: Halide target for this machine: ${DIET_HOST_TARGET}")
