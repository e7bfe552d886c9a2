# Compiles SRC once per case, -DOND_DANGLING_CASE=0..LAST with -fsyntax-only: case 0 must
# compile, and every other case must fail with an error that names a deleted function (so a
# case cannot pass by failing for another reason). Usage:
#   cmake -DCXX=... -DSRC=... -DINCLUDE=... -DLAST=N -P expect_compile_errors.cmake
foreach(var CXX SRC INCLUDE LAST)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_compile_errors: ${var} not set")
  endif()
endforeach()
set(failed "")
foreach(n RANGE 0 ${LAST})
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I${INCLUDE}
                          -DOND_DANGLING_CASE=${n} ${SRC}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(n EQUAL 0)
    if(NOT rc EQUAL 0)
      list(APPEND failed "case 0 (the safe forms) does not compile:\n${err}")
    endif()
  elseif(rc EQUAL 0)
    list(APPEND failed "case ${n} compiles: a dangling form is accepted")
  elseif(NOT err MATCHES "deleted")
    list(APPEND failed "case ${n} fails, but not on a deleted overload:\n${err}")
  endif()
endforeach()
if(failed)
  string(JOIN "\n" text ${failed})
  message(FATAL_ERROR "${text}")
endif()
math(EXPR cases "${LAST} + 1")
message(STATUS "${cases} cases: the safe forms compile, ${LAST} dangling forms do not")
