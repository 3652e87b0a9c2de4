#!/bin/sh
# Doxygen INPUT_FILTER: the headers' plain /* */ comments read as
# documentation, without changing the files. The first comment of a file
# describes the file; a comment after code on the same line describes that
# code (a struct member, an enumerator); any other comment describes what
# follows it. Comments already in Doxygen form pass unchanged. A <word> in
# a comment line (a placeholder such as boards/<board>/) is escaped so that
# Doxygen does not read it as an HTML tag.
exec sed -e '/^ *\/\{0,1\}\*/s|<\([a-z_]*\)>|\\<\1\\>|g' \
         -e '1s|^/\*\([^*]\)|/** @file\n *\1|' \
         -e '1!s|^\( *\)/\*\([^*]\)|\1/**\2|' \
         -e 's|\([^ /][^/]*\) */\*\([^*<]\)|\1 /**<\2|' "$1"
