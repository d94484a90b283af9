/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Reads each layer library's ELF dynamic section and symbol table:
 *  - it must be linked -Bsymbolic (DT_SYMBOLIC or DF_SYMBOLIC). Without it the
 *    loader's own vkGetInstanceProcAddr interposes the layer's, the layer
 *    calls back into the loader, and instance creation deadlocks;
 *  - it must export exactly the loader entry points, nothing else.
 * Paths come from the command line (CTest passes the built libraries).
 */
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

TEST_MAIN_STATE;

static const char *const allowed[] = {
   "vkNegotiateLoaderLayerInterfaceVersion",
   "vkGetInstanceProcAddr",
   "vkGetDeviceProcAddr",
};

static void
check_library(const char *path)
{
   test_set_context(path);
   int fd = open(path, O_RDONLY);
   if (!ok(fd >= 0, "open"))
      return;
   struct stat st;
   fstat(fd, &st);
   const unsigned char *data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
   close(fd);
   if (!ok(data != MAP_FAILED && (size_t)st.st_size >= sizeof(Elf64_Ehdr), "map"))
      return;
   const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
   ok(memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64,
      "64-bit ELF");
   const Elf64_Shdr *sh = (const Elf64_Shdr *)(data + eh->e_shoff);

   bool symbolic = false;
   unsigned exported = 0, unexpected = 0, found[3] = {0};
   for (unsigned i = 0; i < eh->e_shnum; i++) {
      if (sh[i].sh_type == SHT_DYNAMIC) {
         const Elf64_Dyn *dyn = (const Elf64_Dyn *)(data + sh[i].sh_offset);
         for (size_t d = 0; d < sh[i].sh_size / sizeof(*dyn); d++) {
            if (dyn[d].d_tag == DT_SYMBOLIC)
               symbolic = true;
            if (dyn[d].d_tag == DT_FLAGS && (dyn[d].d_un.d_val & DF_SYMBOLIC))
               symbolic = true;
         }
      }
      if (sh[i].sh_type == SHT_DYNSYM) {
         const Elf64_Sym *syms = (const Elf64_Sym *)(data + sh[i].sh_offset);
         const char *strtab = (const char *)(data + sh[sh[i].sh_link].sh_offset);
         for (size_t s = 0; s < sh[i].sh_size / sizeof(*syms); s++) {
            if (syms[s].st_shndx == SHN_UNDEF || ELF64_ST_BIND(syms[s].st_info) == STB_LOCAL)
               continue;
            if (ELF64_ST_VISIBILITY(syms[s].st_other) != STV_DEFAULT)
               continue;
            const char *name = strtab + syms[s].st_name;
            exported++;
            bool known = false;
            for (unsigned a = 0; a < 3; a++) {
               if (strcmp(name, allowed[a]) == 0) {
                  found[a]++;
                  known = true;
               }
            }
            if (!known) {
               unexpected++;
               fprintf(stderr, "unexpected export: %s\n", name);
            }
         }
      }
   }
   ok(symbolic, "linked with -Bsymbolic");
   check_eq_u64(unexpected, 0);
   for (unsigned a = 0; a < 3; a++)
      ok(found[a] == 1, "exports %s", allowed[a]);
   check_eq_u64(exported, 3);
   munmap((void *)data, st.st_size);
}

int
main(int argc, char **argv)
{
   if (!ok(argc > 1, "library paths given"))
      return test_done();
   for (int i = 1; i < argc; i++)
      check_library(argv[i]);
   return test_done();
}
