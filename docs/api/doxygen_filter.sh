#!/bin/sh
# Doxygen INPUT_FILTER: the headers' plain /* */ comments read as
# documentation, without changing the files. The first comment of a file
# describes the file; a comment after code on the same line describes that
# code (a struct member, an enumerator); any other comment describes what
# follows it. Comments already in Doxygen form pass unchanged.
exec sed -e '1s|^/\*\([^*]\)|/** @file\n *\1|' \
         -e '1!s|^\( *\)/\*\([^*]\)|\1/**\2|' \
         -e 's|\([^ /][^/]*\) */\*\([^*<]\)|\1 /**<\2|' "$1"
