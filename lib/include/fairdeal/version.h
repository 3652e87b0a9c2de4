/** @file
 * The library's version: the one place it is written. lib/CMakeLists.txt
 * reads it from here for the CMake package and fairdeal.pc, and stops the
 * configure if project(fairdeal VERSION ...) says otherwise. */
#ifndef FAIRDEAL_VERSION_H
#define FAIRDEAL_VERSION_H

#define FAIRDEAL_VERSION_MAJOR 0        /**< incompatible API changes */
#define FAIRDEAL_VERSION_MINOR 2        /**< compatible additions */
#define FAIRDEAL_VERSION_PATCH 0        /**< fixes */
#define FAIRDEAL_VERSION_STRING "0.2.0" /**< "MAJOR.MINOR.PATCH" */

#endif
