# The development signing key of a build tree (bootloader/CMakeLists.txt), made
# once: the state file is never replaced, since its one-time-key indices are used
# up as the dealer is signed. A tree that already has both files keeps them (a
# rerun after a reconfigure, e.g. the host preset's FD_TOOL and a board preset's
# built-in tool in the same build/<board>); a tree left with only one of them
# (an interrupted keygen) is an error that says what to delete.
# usage: cmake -DTOOL=fairdeal-tool -DKEY=key.state -DPUB=key.pub -P dev_key.cmake
# Two targets of one tree may run this at once (make -j): one makes the key, the
# other waits for the lock and then finds both files.
get_filename_component(dir "${KEY}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(LOCK "${dir}.lock" GUARD PROCESS TIMEOUT 120)
if(EXISTS "${KEY}" AND EXISTS "${PUB}")
  file(TOUCH_NOCREATE "${PUB}")
  return()
endif()
if(EXISTS "${KEY}" OR EXISTS "${PUB}")
  message(FATAL_ERROR "dev key: ${dir} holds only one of key.state and key.pub (an interrupted keygen): delete ${dir} to make a new development key")
endif()
execute_process(COMMAND "${TOOL}" lms-keygen --key "${KEY}" --pub "${PUB}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dev key: lms-keygen failed (${rc})")
endif()
