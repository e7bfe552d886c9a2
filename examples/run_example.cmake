# Runs one example and compares what it prints (stdout and stderr together) with a file.
#   cmake -DPROGRAM=exe -DARGS="a|b" [-DSTDIN=file] -DEXPECTED=file -DEXIT=code -DWORKDIR=dir -P run_example.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" args "${ARGS}")
set(input)
if(STDIN)
  set(input INPUT_FILE ${STDIN})
endif()
execute_process(COMMAND ${PROGRAM} ${args} ${input} WORKING_DIRECTORY ${WORKDIR}
  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE status)
file(READ ${EXPECTED} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "output differs from ${EXPECTED}\n--- got:\n${out}--- expected:\n${want}")
endif()
if(NOT status STREQUAL EXIT)
  message(FATAL_ERROR "exit status ${status}, expected ${EXIT}")
endif()
