# HiGHS built by highs-sys for the tests of the `highs` feature (scripts/test-highs.sh,
# through CMAKE_TOOLCHAIN_FILE): -O1 instead of CMake's Release -O3 -DNDEBUG. The C++
# compiles in about 100 s on two cores instead of about 10 minutes, and the LPs the
# tests solve stay fast. Users' builds (`cargo build --features highs`) are untouched.
set(CMAKE_C_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "")
set(CMAKE_CXX_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "")
