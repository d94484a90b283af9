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
