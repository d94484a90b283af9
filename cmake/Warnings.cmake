# SPDX-License-Identifier: MIT
# Warning flags for every target in the project; -Werror when VMEL_WERROR is on (CI).
add_compile_options(
  -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wpointer-arith -Wvla -Wformat=2 -Wno-unused-parameter
  -Wno-missing-field-initializers)
if(VMEL_WERROR)
  add_compile_options(-Werror)
endif()
if(VMEL_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(VMEL_TSAN)
  if(VMEL_SANITIZE)
    message(FATAL_ERROR "VMEL_TSAN and VMEL_SANITIZE cannot be combined (one sanitizer runtime)")
  endif()
  # ThreadSanitizer (tools/run-tests.sh, build-tsan/: the concurrency tests, docs/testing.md).
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()
